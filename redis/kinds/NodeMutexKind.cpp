#include "NodeMutexKind.h"

#include "KeyLayouts.h"
#include "KindReplies.h"
#include "SeedKindSupport.h"

namespace semscope::redis {

using namespace kinds;

NodeMutexKind::NodeMutexKind()
    : m_snapshot(LuaScript::fromResource(QStringLiteral("node_mutex_snapshot")))
    , m_forceRelease(LuaScript::fromResource(QStringLiteral("node_mutex_force_release"))) {}

QList<QByteArray> NodeMutexKind::keysOf(const QString &name) const {
    return keyLayout(core::Kind::NodeMutex).keysFor(name);
}

core::Snapshot NodeMutexKind::parseSnapshot(const core::SemaphoreRef &ref, const QString &key,
                                            const RedisReply &reply) {
    if (reply.isError() || !reply.isArray() || reply.elements.size() < 5)
        return failedSnapshot(ref, {key}, QStringLiteral("reading the mutex"), reply);
    core::Snapshot snap;
    snap.ref = ref;
    snap.keys << key;
    const qint64 now = integerAt(reply, 0).value_or(0);
    snap.serverNowMs = now;
    snap.limit = 1;
    snap.limitSource = core::LimitSource::Stored;
    const QByteArray type = bytesAt(reply, 1);
    if (!checkType(key.toUtf8(), type, "string", snap) || type == "none")
        return snap;
    const qint64 len = integerAt(reply, 3).value_or(0);
    const qint64 pttl = integerAt(reply, 4).value_or(-2);
    core::Holder h;
    h.rawId = bytesAt(reply, 2);
    h.id = printableId(h.rawId.left(256));
    h.rank = 0;
    if (len > h.rawId.size()) {
        snap.warnings << QStringLiteral(
                             "%1 holds %2, far too long for an identifier; force-release is not possible")
                             .arg(key, byteSize(len));
        h.details.insert(QStringLiteral("truncated"), true);
    }
    if (pttl >= 0)
        h.expiresAtMs = now + pttl;
    else
        snap.warnings << QStringLiteral("%1 has no TTL: held forever if the holder crashed").arg(key);
    snap.holders << h;
    return snap;
}

void NodeMutexKind::snapshot(RedisCommands &conn, const core::SemaphoreRef &ref,
                             core::Callback<core::Snapshot> done) {
    const QString key = QString::fromUtf8(keysOf(ref.name).constFirst());
    conn.eval(m_snapshot, keysOf(ref.name), {},
              [ref, key, done](const RedisReply &reply) { done(parseSnapshot(ref, key, reply)); });
}

void NodeMutexKind::forceRelease(RedisCommands &conn, const core::SemaphoreRef &ref,
                                 const core::Holder &observed, std::optional<qint64> observedVersion,
                                 core::Callback<core::ForceReleaseResult> done) {
    if (observed.details.value(QStringLiteral("truncated")).toBool()) {
        done({core::ForceReleaseResult::Status::Error,
              QStringLiteral("the identifier was too long to be read whole; force-release refused")});
        return;
    }
    const QByteArray id = observed.rawId.isEmpty() ? observed.id.toUtf8() : observed.rawId;
    const QString shown = observed.id;
    conn.eval(m_forceRelease, keysOf(ref.name), {id}, [shown, done](const RedisReply &reply) {
        done(forceReleaseFromReply(reply, shown, QStringLiteral("another identifier holds the mutex")));
    });
}

} // namespace semscope::redis
