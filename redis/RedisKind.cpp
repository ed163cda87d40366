#include "RedisKind.h"

namespace semscope::redis {

// Read-only layouts inherit these: every write answers at once with an Error that names the kind, so
// a caller never mistakes "not possible here" for "the server refused".

QString RedisKind::unsupported(const QString &operation) const {
    return QStringLiteral("%1 is not supported for kind %2").arg(operation, core::kindName(kind()));
}

void RedisKind::snapshotKeyByKey(RedisCommands &, const core::SemaphoreRef &ref,
                                 core::Callback<core::Snapshot> done) {
    core::Snapshot snap;
    snap.ref = ref;
    for (const QByteArray &k : keysOf(ref.name))
        snap.keys << QString::fromUtf8(k);
    snap.warnings << QStringLiteral("semscope reads a %1 semaphore only with one script, which a Redis "
                                    "Cluster refuses for keys in several slots: not read")
                         .arg(core::kindName(kind()));
    done(snap);
}

void RedisKind::tryAcquire(RedisCommands &, const core::SemaphoreRef &, const core::AcquireRequest &,
                           core::Callback<core::AcquireResult> done) {
    core::AcquireResult result;
    result.status = core::AcquireResult::Status::Error;
    result.error = unsupported(QStringLiteral("acquire"));
    done(result);
}

void RedisKind::refresh(RedisCommands &, const core::Grant &, qint64,
                        core::Callback<core::RefreshResult> done) {
    core::RefreshResult result;
    result.status = core::RefreshResult::Status::Error;
    result.error = unsupported(QStringLiteral("refresh"));
    done(result);
}

void RedisKind::release(RedisCommands &, const core::Grant &, core::Callback<core::ReleaseResult> done) {
    core::ReleaseResult result;
    result.status = core::ReleaseResult::Status::Error;
    result.error = unsupported(QStringLiteral("release"));
    done(result);
}

void RedisKind::forceRelease(RedisCommands &, const core::SemaphoreRef &, const core::Holder &,
                             std::optional<qint64>, core::Callback<core::ForceReleaseResult> done) {
    core::ForceReleaseResult result;
    result.status = core::ForceReleaseResult::Status::Error;
    result.message = unsupported(QStringLiteral("force-release"));
    done(result);
}

void RedisKind::purgeExpired(RedisCommands &, const core::SemaphoreRef &,
                             core::Callback<core::MaintenanceResult> done) {
    done(core::MaintenanceResult{false, 0, unsupported(QStringLiteral("purge"))});
}

void RedisKind::repair(RedisCommands &, const core::SemaphoreRef &,
                       core::Callback<core::MaintenanceResult> done) {
    done(core::MaintenanceResult{false, 0, unsupported(QStringLiteral("repair"))});
}

// Kinds that store their limit and let semscope write it override this; the rest say why not, so an
// operator knows where the limit actually lives.
void RedisKind::setLimit(RedisCommands &, const core::SemaphoreRef &ref, qint64,
                         core::Callback<core::MaintenanceResult> done) {
    const QString name = core::kindName(kind());
    QString why;
    switch (core::limitStorage(kind())) {
    case core::LimitStorage::Profile:
        why = QStringLiteral("%1 does not store its limit in Redis: the limit of %2 is a profile value "
                             "(semscope's profile, or --limit); nothing was written")
                  .arg(name, ref.name);
        break;
    case core::LimitStorage::Fixed:
        why = QStringLiteral("%1 is a mutex: its limit is always 1").arg(name);
        break;
    case core::LimitStorage::Stored:
        why = QStringLiteral("set limit is not supported for kind %1: semscope only reads it").arg(name);
        break;
    }
    done(core::MaintenanceResult{false, 0, why});
}

} // namespace semscope::redis
