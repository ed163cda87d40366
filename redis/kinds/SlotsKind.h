#pragma once

#include "redis/RedisKind.h"

namespace semscope::redis {

// The Lua slot semaphore of seed 000, for a semaphore R:
//   R|list   LIST of free slot numbers (1..N)
//   R|map    HASH holder -> slot number
//   R|lease  ZSET holder -> lease expiry (ms, Redis clock), plus the member "semscope:owned" (score
//            +inf), the last acquisition token ("semscope:fence") and each holder's token
//            ("semscope:token:<holder>"): only on semaphores semscope initialised itself (see
//            slots_common.lua). Foreign semaphores have no TTL and no tokens, and are never annotated.
// N is not stored: the highest slot number held or free, or the number of distinct slots if larger,
// once initialised, else the profile's limit. The acquire script does what the seed's does (RPUSH
// missing slots, LPOP, HSET) with every key passed in KEYS, so the seed's clients and semscope can
// share a semaphore; it never hands out a slot number that is held.
class SlotsKind : public RedisKind {
public:
    SlotsKind();

    core::Kind kind() const override { return core::Kind::Slots; }
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
    void repair(RedisCommands &conn, const core::SemaphoreRef &ref,
                core::Callback<core::MaintenanceResult> done) override;
    // Grows or shrinks the free list so that HLEN + LLEN = limit (slots_set_limit.lua); refused while
    // a slot above the new limit is held. The seed's clients pass their own N on every acquire and
    // push the list back up to it: their configuration must change too.
    void setLimit(RedisCommands &conn, const core::SemaphoreRef &ref, qint64 limit,
                  core::Callback<core::MaintenanceResult> done) override;

    // Parses the reply of slots_snapshot.lua (public for tests of the bad-data rules).
    void snapshotKeyByKey(RedisCommands &conn, const core::SemaphoreRef &ref,
                          core::Callback<core::Snapshot> done) override;
    static core::Snapshot parseSnapshot(const core::SemaphoreRef &ref, const QStringList &keys,
                                        const RedisReply &reply);

    static constexpr const char *kOwnedMarker = "semscope:owned";

private:
    LuaScript m_snapshot;
    LuaScript m_acquire;
    LuaScript m_refresh;
    LuaScript m_release;
    LuaScript m_forceRelease;
    LuaScript m_purge;
    LuaScript m_repair;
    LuaScript m_setLimit;
};

} // namespace semscope::redis
