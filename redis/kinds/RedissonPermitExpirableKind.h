#pragma once

#include "redis/RedisKind.h"

namespace semscope::redis {

// Redisson RPermitExpirableSemaphore: `N` STRING = available permits, `{N}:timeout` ZSET raw 16-byte
// permit id -> lease expiry (epoch ms, client clock; 922337203685477 = no lease), channel
// redisson_sc:{N}. Holders are shown with their ids in hex (as Redisson's API prints them).
// Capacity = available + ZCARD; effective available = available + expired leases. These numbers are
// computed from the raw keys: Redisson's availablePermits() reclaims and publishes, a read must not.
// Read-only plus force-release (ZREM raw id, INCRBY N 1, PUBLISH, in one script; compare-and-act
// on the lease expiry the operator saw).
class RedissonPermitExpirableKind : public RedisKind {
public:
    RedissonPermitExpirableKind();

    core::Kind kind() const override { return core::Kind::RedissonPermitExpirable; }
    QList<QByteArray> keysOf(const QString &name) const override;
    QByteArray releaseChannel(const QString &name) const override;

    void snapshot(RedisCommands &conn, const core::SemaphoreRef &ref,
                  core::Callback<core::Snapshot> done) override;
    void forceRelease(RedisCommands &conn, const core::SemaphoreRef &ref, const core::Holder &observed,
                      std::optional<qint64> observedVersion,
                      core::Callback<core::ForceReleaseResult> done) override;

    static core::Snapshot parseSnapshot(const core::SemaphoreRef &ref, const QStringList &keys,
                                        const RedisReply &reply);

private:
    LuaScript m_snapshot;
    LuaScript m_forceRelease;
};

} // namespace semscope::redis
