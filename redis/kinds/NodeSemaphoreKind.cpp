#include "NodeSemaphoreKind.h"

#include "SeedKindSupport.h"
#include "ZsetKind.h"
#include "redis/KindRecognition.h"

namespace semscope::redis {

using namespace kinds;

// The read and the compare-and-ZREM are the same as for the seed's ZSET; only the meaning of the
// scores differs (refresh times, not expiries).
NodeSemaphoreKind::NodeSemaphoreKind()
    : m_snapshot(LuaScript::fromResource(QStringLiteral("zset_snapshot")))
    , m_forceRelease(LuaScript::fromResource(QStringLiteral("zset_force_release")))
    , m_forceReleaseMulti(LuaScript::fromResource(QStringLiteral("node_semaphore_force_release"))) {}

QList<QByteArray> NodeSemaphoreKind::keysOf(const QString &name) const {
    return {nodeSemaphoreKey(name)};
}

void NodeSemaphoreKind::snapshot(RedisCommands &conn, const core::SemaphoreRef &ref,
                                 core::Callback<core::Snapshot> done) {
    core::SemaphoreRef msRef = ref;
    if (msRef.profile.scoreUnit == core::ScoreUnit::Auto)
        msRef.profile.scoreUnit = core::ScoreUnit::Milliseconds; // Date.now(), always
    const QString key = QString::fromUtf8(keysOf(ref.name).constFirst());
    conn.eval(m_snapshot, keysOf(ref.name), {QByteArray::number(kSnapshotCap)},
              [ref, msRef, key, done](const RedisReply &reply) {
                  core::Snapshot snap =
                      ZsetKind::parseSnapshot(msRef, {key}, reply, ZsetKind::Scores::RefreshTime);
                  snap.ref = ref;
                  done(snap);
              });
}

void NodeSemaphoreKind::forceRelease(RedisCommands &conn, const core::SemaphoreRef &ref,
                                     const core::Holder &observed, std::optional<qint64> observedVersion,
                                     core::Callback<core::ForceReleaseResult> done) {
    const QByteArray score = observed.details.value(QStringLiteral("score")).toString().toLatin1();
    const QByteArray id = observed.rawId.isEmpty() ? observed.id.toUtf8() : observed.rawId;
    const QString shown = observed.id;
    if (observed.permits > 1) {
        // A MultiSemaphore holder: all of its members go, or none (compare-and-act on the run).
        conn.eval(m_forceReleaseMulti, keysOf(ref.name), {id, QByteArray::number(observed.permits), score},
                  [shown, done](const RedisReply &reply) {
                      done(forceReleaseFromReply(reply, shown,
                                                 QStringLiteral("re-acquired, refreshed or resized")));
                  });
        return;
    }
    conn.eval(m_forceRelease, keysOf(ref.name), {id, score}, [shown, done](const RedisReply &reply) {
        done(forceReleaseFromReply(reply, shown, QStringLiteral("re-acquired or refreshed, score")));
    });
}

} // namespace semscope::redis
