#pragma once

#include "redis/RedisKind.h"

namespace semscope::redis {

// node redis-semaphore Semaphore / MultiSemaphore: `semaphore:<key>` ZSET identifier -> time of the
// last acquire or refresh (ms, client clock); expired when score < now - lockTimeout. A
// MultiSemaphore acquisition of k permits (members id_0 .. id_{k-1}, one score) is shown as one
// holder `id` with permits = k (ZsetKind::groupMultiPermits) and force-released as a whole. Neither the
// limit nor lockTimeout is stored: both from the profile, lockTimeout otherwise estimated as
// PTTL + (now - newest score) and marked inferred. Read-only plus force-release (ZREM, only while
// the score is the one the operator saw; the holder gets LostLockError at its next refresh).
// Named by `<key>` or by the full key, ioredis keyPrefix included (nodeSemaphoreKey).
class NodeSemaphoreKind : public RedisKind {
public:
    NodeSemaphoreKind();

    core::Kind kind() const override { return core::Kind::NodeSemaphore; }
    QList<QByteArray> keysOf(const QString &name) const override;

    void snapshot(RedisCommands &conn, const core::SemaphoreRef &ref,
                  core::Callback<core::Snapshot> done) override;
    void forceRelease(RedisCommands &conn, const core::SemaphoreRef &ref, const core::Holder &observed,
                      std::optional<qint64> observedVersion,
                      core::Callback<core::ForceReleaseResult> done) override;

private:
    LuaScript m_snapshot;
    LuaScript m_forceRelease;
    LuaScript m_forceReleaseMulti;
};

} // namespace semscope::redis
