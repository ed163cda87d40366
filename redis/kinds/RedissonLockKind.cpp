#include "RedissonLockKind.h"

#include "KeyLayouts.h"
#include "KindReplies.h"
#include "SeedKindSupport.h"
#include "redis/KindRecognition.h"

namespace semscope::redis {

using namespace kinds;

namespace {
// Redisson's prefixName(prefix, name).
QByteArray prefixed(const char *prefix, const QString &name) {
    const QByteArray n = name.toUtf8();
    return n.contains('{') ? QByteArray(prefix + n) : QByteArray(prefix + ("{" + n + "}"));
}
} // namespace

RedissonLockKind::RedissonLockKind()
    : m_snapshot(LuaScript::fromResource(QStringLiteral("redisson_lock_snapshot")))
    , m_forceRelease(LuaScript::fromResource(QStringLiteral("redisson_lock_force_release"))) {}

QList<QByteArray> RedissonLockKind::keysOf(const QString &name) const {
    return keyLayout(core::Kind::RedissonLock).keysFor(name);
}

QByteArray RedissonLockKind::releaseChannel(const QString &name) const {
    return prefixed("redisson_lock__channel:", name);
}

core::Snapshot RedissonLockKind::parseSnapshot(const core::SemaphoreRef &ref, const QStringList &keys,
                                               const RedisReply &reply) {
    if (reply.isError() || !reply.isArray() || reply.elements.size() < 6)
        return failedSnapshot(ref, keys, QStringLiteral("reading the Redisson lock"), reply);
    core::Snapshot snap;
    snap.ref = ref;
    snap.keys = keys;
    const qint64 now = integerAt(reply, 0).value_or(0);
    snap.serverNowMs = now;
    snap.limit = 1;
    snap.limitSource = core::LimitSource::Stored;
    const QByteArray type = bytesAt(reply, 1);
    const qint64 pttl = integerAt(reply, 2).value_or(-2);
    if (checkType(keys.value(1).toUtf8(), bytesAt(reply, 4), "string", snap)) {
        if (const auto token = strictInteger(bytesAt(reply, 5)))
            snap.counter = *token;
    }
    if (!checkType(keys.value(0).toUtf8(), type, "hash", snap) || type == "none")
        return snap;
    for (const auto &[field, count] : pairsAt(reply, 3)) {
        core::Holder h;
        h.rawId = field;
        h.id = printableId(field);
        h.rank = snap.holders.size();
        const auto holds = strictInteger(count);
        if (holds)
            h.details.insert(QStringLiteral("hold_count"), *holds);
        else
            snap.warnings << QStringLiteral("%1: hold count of %2 is not a number").arg(ref.name, h.id);
        if (!looksLikeRedissonLockField(field))
            snap.warnings << QStringLiteral("%1: field %2 is not <client uuid>:<thread id>")
                                 .arg(ref.name, h.id.left(80));
        const qsizetype colon = field.lastIndexOf(':');
        if (colon > 0) {
            h.details.insert(QStringLiteral("client"), QString::fromUtf8(field.left(colon)));
            h.details.insert(QStringLiteral("thread"), QString::fromUtf8(field.mid(colon + 1)));
        }
        if (pttl >= 0)
            h.expiresAtMs = now + pttl;
        if (snap.counter)
            h.token = snap.counter;
        if (snap.holders.size() >= 1)
            h.state = core::HolderState::OverLimit;
        snap.holders << h;
    }
    if (pttl == -1)
        snap.warnings
            << QStringLiteral("%1 has no TTL: the lock is held until someone unlocks it").arg(ref.name);
    if (snap.holders.size() > 1)
        snap.warnings
            << QStringLiteral("%1 has %2 holders; a lock has one").arg(ref.name).arg(snap.holders.size());
    return snap;
}

void RedissonLockKind::snapshot(RedisCommands &conn, const core::SemaphoreRef &ref,
                                core::Callback<core::Snapshot> done) {
    const QList<QByteArray> keys = keysOf(ref.name);
    const QStringList names{QString::fromUtf8(keys.at(0)), QString::fromUtf8(keys.at(1))};
    conn.eval(m_snapshot, keys, {QByteArray::number(kSnapshotCap)},
              [ref, names, done](const RedisReply &reply) { done(parseSnapshot(ref, names, reply)); });
}

void RedissonLockKind::forceRelease(RedisCommands &conn, const core::SemaphoreRef &ref,
                                    const core::Holder &observed, std::optional<qint64> observedVersion,
                                    core::Callback<core::ForceReleaseResult> done) {
    const QByteArray field = observed.rawId.isEmpty() ? observed.id.toUtf8() : observed.rawId;
    const QString id = observed.id;
    conn.eval(m_forceRelease, {ref.name.toUtf8()}, {field, releaseChannel(ref.name), "PUBLISH"},
              [id, done](const RedisReply &reply) {
                  done(forceReleaseFromReply(reply, id, QStringLiteral("another client holds the lock")));
              });
}

} // namespace semscope::redis
