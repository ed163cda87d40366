#pragma once

#include "WaitQueueKind.h"
#include "redis/RedisKind.h"

namespace semscope::redis {

// semscope's own layout (DESIGN.md §2). For a semaphore N, all keys share the hash tag {N} so they
// live in one Cluster slot:
//   {N}:holders   ZSET holder -> lease expiry, ms on the Redis server clock
//   {N}:meta      HASH limit, ttl (default lease of the creator), fence (last fencing token),
//                 ticket (last queue ticket), created (ms)
//   {N}:owners    HASH holder -> "<token>|<acquired ms>|<client info>"
//   {N}:queue     LIST of waiter ids: the FIFO queue of waiting acquirers (head = next)
//   {N}:waiting   HASH waiter -> "<ticket>|<ttl ms>|<waiter lease ms>|<store tag>|<client info>"
//                 while queued: what a release needs to grant it, and when it drops out unless it
//                 renews. The record stays after a hand-off until the holder picks the grant up,
//                 releases or loses the lease: a holder with a record is an unclaimed hand-off
//   channel {N}:released:<tag>   hand-offs to the waiters of one store: "<ticket> <token> <expiresAt>
//                 <holder>" (see leased_common.lua)
//   channel {N}:released         newline-separated ids of queued waiters that take no hand-offs
//                 (empty tag) and may take a slot now; an empty message when a release left a
//                 slot free with nobody queued (clients retrying after a pause ask now)
//
// The semaphore is created by its first acquire with the limit of the caller's profile
// (SemaphoreRef::profile.limit, 1 when unset); after that the stored limit rules and only setLimit()
// changes it. Each acquisition takes the next fencing token (HINCRBY fence), so tokens rise strictly
// in grant order; a counter started afresh starts from the server clock in microseconds, not 0, so
// they never go back when the meta is lost (leased_common.lua, fence_start). Should the meta be lost while
// other keys remain (DEL, eviction), nothing is granted until repair() has rebuilt the fence above every
// token on record (and setLimit() the limit). A newcomer only gets a slot when every queued waiter ahead of
// it fits as well. Whatever frees a slot while waiters queue (release, force-release, purge, leave,
// set-limit, an acquire that purged expired leases) grants it to the head of the queue in the same script.
class LeasedKind : public RedisKind, public WaitQueueKind {
public:
    LeasedKind();

    core::Kind kind() const override { return core::Kind::Leased; }
    QList<QByteArray> keysOf(const QString &name) const override;
    QByteArray releaseChannel(const QString &name) const override;

    void snapshot(RedisCommands &conn, const core::SemaphoreRef &ref,
                  core::Callback<core::Snapshot> done) override;
    void tryAcquire(RedisCommands &conn, const core::SemaphoreRef &ref, const core::AcquireRequest &request,
                    core::Callback<core::AcquireResult> done) override;
    void refresh(RedisCommands &conn, const core::Grant &grant, qint64 ttlMs,
                 core::Callback<core::RefreshResult> done) override;
    void release(RedisCommands &conn, const core::Grant &grant,
                 core::Callback<core::ReleaseResult> done) override;
    void forceRelease(RedisCommands &conn, const core::SemaphoreRef &ref, const core::Holder &observed,
                      std::optional<qint64> observedVersion,
                      core::Callback<core::ForceReleaseResult> done) override;
    void purgeExpired(RedisCommands &conn, const core::SemaphoreRef &ref,
                      core::Callback<core::MaintenanceResult> done) override;
    void repair(RedisCommands &conn, const core::SemaphoreRef &ref,
                core::Callback<core::MaintenanceResult> done) override;
    void setLimit(RedisCommands &conn, const core::SemaphoreRef &ref, qint64 limit,
                  core::Callback<core::MaintenanceResult> done) override;

    qint64 waiterLeaseMs() const override { return kWaiterLeaseMs; }
    QByteArray notifyChannel(const QString &name, const QByteArray &tag) const override;
    void attemptQueued(RedisCommands &conn, const core::SemaphoreRef &ref,
                       const core::AcquireRequest &request, const QByteArray &tag, bool listHolders,
                       qint64 ticket, AttemptCallback done) override;
    std::optional<HandOff> parseHandOff(const QByteArray &message) const override;
    void releaseHandingOff(RedisCommands &conn, const core::Grant &grant, const QByteArray &tag,
                           ReleaseCallback done) override;
    void leaveQueue(RedisCommands &conn, const core::SemaphoreRef &ref, const QByteArray &waiter,
                    qint64 ticket, std::function<void()> done) override;

    // Short: a waiter that can no longer leave (its connection failed, its process was killed) keeps
    // its place only this long, and a release in that time would hand it a slot it never uses for
    // its whole TTL. Live waiters renew it every half lease.
    static constexpr qint64 kWaiterLeaseMs = 3000;
    // Snapshots list at most this many holders / waiters (the counts are always exact).
    static constexpr int kSnapshotCap = 10000;
    // A busy reply lists at most this many holders.
    static constexpr int kBusyListCap = 1000;

private:
    void acquireAttempt(RedisCommands &conn, const core::SemaphoreRef &ref,
                        const core::AcquireRequest &request, const QByteArray &tag, int listCap,
                        qint64 ticket, AttemptCallback done);
    const QByteArray &clientInfoBytes();
    // conn.eval() of a write script; a WRONGTYPE failure comes back naming the key at fault.
    static void evalWrite(RedisCommands &conn, const LuaScript &script, const QList<QByteArray> &keys,
                          const QList<QByteArray> &args, RedisCommands::ReplyCallback done);
    // keysOf() of the semaphore last used, kept: a load test sends every command to one semaphore,
    // and building five key names per command showed in its profile.
    struct Names {
        QString name;
        QList<QByteArray> keys;
    };
    const Names &names(const QString &name);

    QByteArray m_clientInfo; // made once: building it per acquire was a visible share of the CPU
    Names m_names;
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
