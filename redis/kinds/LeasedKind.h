#pragma once

#include "WaitQueueKind.h"
#include "redis/RedisKind.h"

namespace semscope::redis {

// semscope's own layout (DESIGN.md §2). For a semaphore N, all keys share the hash tag {N} so they
// live in one Cluster slot:
//   {N}:holders        ZSET holder -> lease expiry, ms on the Redis server clock
//   {N}:meta           HASH limit, ttl (default lease of the creator), fence (last fencing token),
//                      ticket (last waiter ticket), created (ms)
//   {N}:owners         HASH holder -> "<token>|<acquired ms>|<client info>"
//   {N}:waiters        ZSET waiter -> arrival ticket: the FIFO queue of waiting acquirers
//   {N}:waiter-leases  ZSET waiter -> waiter lease expiry (ms): waiters that stop renewing drop out
//   channel {N}:released   newline-separated ids of the waiters that may take a slot now
//
// The semaphore is created by its first acquire with the limit of the caller's profile
// (SemaphoreRef::profile.limit, 1 when unset); after that the stored limit rules and only setLimit()
// changes it. Each acquisition takes the next fencing token (HINCRBY fence), so tokens rise strictly
// in grant order. A newcomer only gets a slot when every queued waiter ahead of it fits as well.
class LeasedKind : public RedisKind, public WaitQueueKind {
public:
    LeasedKind();

    core::Kind kind() const override { return core::Kind::Leased; }
    QList<QByteArray> keysOf(const QString &name) const override;
    QByteArray releaseChannel(const QString &name) const override;

    void snapshot(RedisConnection &conn, const core::SemaphoreRef &ref,
                  core::Callback<core::Snapshot> done) override;
    void tryAcquire(RedisConnection &conn, const core::SemaphoreRef &ref, const core::AcquireRequest &request,
                    core::Callback<core::AcquireResult> done) override;
    void refresh(RedisConnection &conn, const core::Grant &grant, qint64 ttlMs,
                 core::Callback<core::RefreshResult> done) override;
    void release(RedisConnection &conn, const core::Grant &grant,
                 core::Callback<core::ReleaseResult> done) override;
    void forceRelease(RedisConnection &conn, const core::SemaphoreRef &ref, const core::Holder &observed,
                      std::optional<qint64> observedVersion,
                      core::Callback<core::ForceReleaseResult> done) override;
    void purgeExpired(RedisConnection &conn, const core::SemaphoreRef &ref,
                      core::Callback<core::MaintenanceResult> done) override;
    void repair(RedisConnection &conn, const core::SemaphoreRef &ref,
                core::Callback<core::MaintenanceResult> done) override;
    void setLimit(RedisConnection &conn, const core::SemaphoreRef &ref, qint64 limit,
                  core::Callback<core::MaintenanceResult> done) override;

    qint64 waiterLeaseMs() const override { return kWaiterLeaseMs; }
    void leaveQueue(RedisConnection &conn, const core::SemaphoreRef &ref, const QByteArray &waiter,
                    std::function<void()> done) override;

    static constexpr qint64 kWaiterLeaseMs = 10000;
    // Snapshots list at most this many holders / waiters (the counts are always exact).
    static constexpr int kSnapshotCap = 10000;

private:
    LuaScript m_snapshot;
    LuaScript m_acquire;
    LuaScript m_refresh;
    LuaScript m_release;
    LuaScript m_forceRelease;
    LuaScript m_purge;
    LuaScript m_repair;
    LuaScript m_setLimit;
    LuaScript m_leave;
};

} // namespace semscope::redis
