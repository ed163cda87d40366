#pragma once

#include "redis/RedisKind.h"

namespace semscope::redis {

// The fair semaphore of Redis in Action §6.3.2 (seed 001), for a semaphore S:
//   S          ZSET holder -> acquire/refresh time, float seconds
//   S:owner    ZSET holder -> counter at acquisition; rank here decides: holds iff rank < limit
//   S:counter  STRING, INCR per acquire attempt (the fencing token of a grant)
//   lock:S     STRING, the optional acquire lock of listing 6.17 (read only, flagged if it has no TTL)
// Neither the limit nor the timeout is stored: both come from the profile (timeout default 10 s,
// the book's and the seed's, marked inferred). semscope's acquire does the book's two round trips in
// one script, with "now" from the Redis clock, so the seed's clients still read and operate it.
class FairKind : public RedisKind {
public:
    FairKind();

    core::Kind kind() const override { return core::Kind::Fair; }
    QList<QByteArray> keysOf(const QString &name) const override;

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

    void snapshotKeyByKey(RedisCommands &conn, const core::SemaphoreRef &ref,
                          core::Callback<core::Snapshot> done) override;
    static core::Snapshot parseSnapshot(const core::SemaphoreRef &ref, const QStringList &keys,
                                        const RedisReply &reply);
    // The timeout to use: the profile's, else the book's 10 s.
    static qint64 timeoutMs(const core::SemaphoreRef &ref);
    static constexpr qint64 kDefaultTimeoutMs = 10000;

private:
    LuaScript m_snapshot;
    LuaScript m_acquire;
    LuaScript m_refresh;
    LuaScript m_release;
    LuaScript m_forceRelease;
    LuaScript m_purge;
};

} // namespace semscope::redis
