#include "RedissonSemaphoreKind.h"

#include "KindReplies.h"
#include "SeedKindSupport.h"
#include "core/CountText.h"

namespace semscope::redis {

using namespace kinds;

RedissonSemaphoreKind::RedissonSemaphoreKind()
    : m_snapshot(LuaScript::fromResource(QStringLiteral("redisson_semaphore_snapshot")))
    , m_release(LuaScript::fromResource(QStringLiteral("redisson_semaphore_release"))) {}

QList<QByteArray> RedissonSemaphoreKind::keysOf(const QString &name) const {
    return {name.toUtf8()};
}

// Redisson's prefixName("redisson_sc", name): the name goes in braces unless it has them already.
QByteArray RedissonSemaphoreKind::releaseChannel(const QString &name) const {
    const QByteArray n = name.toUtf8();
    return n.contains('{') ? QByteArray("redisson_sc:" + n) : QByteArray("redisson_sc:{" + n + "}");
}

core::Snapshot RedissonSemaphoreKind::parseSnapshot(const core::SemaphoreRef &ref, const RedisReply &reply) {
    if (reply.isError() || !reply.isArray() || reply.elements.size() < 5)
        return failedSnapshot(ref, {ref.name}, QStringLiteral("reading the Redisson semaphore"), reply);
    core::Snapshot snap;
    snap.ref = ref;
    snap.keys << ref.name;
    snap.serverNowMs = integerAt(reply, 0).value_or(0);
    const QByteArray type = bytesAt(reply, 1);
    if (ref.profile.limit) {
        snap.limit = *ref.profile.limit;
        snap.limitSource = ref.profile.inferred ? core::LimitSource::Inferred : core::LimitSource::Profile;
    }
    snap.details.insert(QStringLiteral("holders_recorded"), false);
    if (!checkType(ref.name.toUtf8(), type, "string", snap))
        return snap;
    if (type == "none") {
        snap.warnings
            << QStringLiteral("%1 does not exist: Redisson counts that as 0 available permits").arg(ref.name);
        snap.version = 0;
        snap.details.insert(QStringLiteral("available"), 0);
        return snap;
    }
    const qint64 len = integerAt(reply, 3).value_or(0);
    const auto available = strictInteger(bytesAt(reply, 2));
    if (len > 64 || !available) {
        snap.warnings << QStringLiteral("%1 does not hold a permit count (%2)")
                             .arg(ref.name, len > 64 ? byteSize(len) : QString::fromUtf8(bytesAt(reply, 2)));
        return snap;
    }
    snap.version = *available;
    snap.details.insert(QStringLiteral("available"), *available);
    if (snap.limit)
        snap.details.insert(QStringLiteral("in_use"), *snap.limit - *available);
    const qint64 pttl = integerAt(reply, 4).value_or(-2);
    if (pttl >= 0)
        snap.details.insert(QStringLiteral("key_pttl_ms"), pttl);
    return snap;
}

void RedissonSemaphoreKind::snapshot(RedisCommands &conn, const core::SemaphoreRef &ref,
                                     core::Callback<core::Snapshot> done) {
    conn.eval(m_snapshot, keysOf(ref.name), {},
              [ref, done](const RedisReply &reply) { done(parseSnapshot(ref, reply)); });
}

void RedissonSemaphoreKind::forceRelease(RedisCommands &conn, const core::SemaphoreRef &ref,
                                         const core::Holder &observed, std::optional<qint64> observedVersion,
                                         core::Callback<core::ForceReleaseResult> done) {
    const qint64 permits = observed.details.value(QStringLiteral("permits"), 1).toLongLong();
    if (permits < 1) {
        done({core::ForceReleaseResult::Status::Error,
              QStringLiteral("force-release needs at least 1 permit")});
        return;
    }
    const QList<QByteArray> args{QByteArray::number(permits),
                                 observedVersion ? QByteArray::number(*observedVersion) : QByteArray(),
                                 releaseChannel(ref.name), "PUBLISH"};
    const QString what =
        QStringLiteral("%1 of %2")
            .arg(core::countText(permits, QStringLiteral("permit"), QStringLiteral("permits")), ref.name);
    conn.eval(m_release, keysOf(ref.name), args, [what, done](const RedisReply &reply) {
        done(forceReleaseFromReply(reply, what, QStringLiteral("available count changed")));
    });
}

} // namespace semscope::redis
