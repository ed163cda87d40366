#include "RedisKind.h"

namespace semscope::redis {

// Read-only layouts inherit these: every write answers at once with an Error that names the kind, so
// a caller never mistakes "not possible here" for "the server refused".

QString RedisKind::unsupported(const QString &operation) const {
    return QStringLiteral("%1 is not supported for kind %2").arg(operation, core::kindName(kind()));
}

void RedisKind::tryAcquire(RedisConnection &, const core::SemaphoreRef &, const core::AcquireRequest &,
                           core::Callback<core::AcquireResult> done) {
    core::AcquireResult result;
    result.status = core::AcquireResult::Status::Error;
    result.error = unsupported(QStringLiteral("acquire"));
    done(result);
}

void RedisKind::refresh(RedisConnection &, const core::Grant &, qint64,
                        core::Callback<core::RefreshResult> done) {
    core::RefreshResult result;
    result.status = core::RefreshResult::Status::Error;
    result.error = unsupported(QStringLiteral("refresh"));
    done(result);
}

void RedisKind::release(RedisConnection &, const core::Grant &, core::Callback<core::ReleaseResult> done) {
    core::ReleaseResult result;
    result.status = core::ReleaseResult::Status::Error;
    result.error = unsupported(QStringLiteral("release"));
    done(result);
}

void RedisKind::forceRelease(RedisConnection &, const core::SemaphoreRef &, const core::Holder &,
                             std::optional<qint64>, core::Callback<core::ForceReleaseResult> done) {
    core::ForceReleaseResult result;
    result.status = core::ForceReleaseResult::Status::Error;
    result.message = unsupported(QStringLiteral("force-release"));
    done(result);
}

void RedisKind::purgeExpired(RedisConnection &, const core::SemaphoreRef &,
                             core::Callback<core::MaintenanceResult> done) {
    done(core::MaintenanceResult{false, 0, unsupported(QStringLiteral("purge"))});
}

void RedisKind::repair(RedisConnection &, const core::SemaphoreRef &,
                       core::Callback<core::MaintenanceResult> done) {
    done(core::MaintenanceResult{false, 0, unsupported(QStringLiteral("repair"))});
}

void RedisKind::setLimit(RedisConnection &, const core::SemaphoreRef &, qint64,
                         core::Callback<core::MaintenanceResult> done) {
    done(core::MaintenanceResult{false, 0, unsupported(QStringLiteral("set limit"))});
}

} // namespace semscope::redis
