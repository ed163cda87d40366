#pragma once

#include "redis/RedisKind.h"

namespace semscope::redis {

// One holder of a ZSET layout before it becomes a core::Holder: a member, or (node MultiSemaphore)
// a run of members `member_0 .. member_{permits-1}` taken together.
struct ZsetEntry {
    QByteArray member;
    QByteArray score;
    qint64 permits = 1;
    bool multi = false;
};

// The expiring ZSET of seed 003 (non-fair variant): `K` ZSET holder -> expiry (milliseconds as the
// seed writes them, or seconds; the profile's score unit, else inferred from the scores).
// Neither the limit nor anything else is stored: the limit comes from the profile. Rank is by
// expiry. semscope's acquire purges expired holders and checks ZCARD < limit *before* adding (the
// seed adds first and ranks, which admits a short-lease newcomer on top of the live holders).
class ZsetKind : public RedisKind {
public:
    ZsetKind();

    core::Kind kind() const override { return core::Kind::Zset; }
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

    // How the scores of a ZSET of holders are read: expiry times (zset) or last-refresh times plus
    // a timeout (node redis-semaphore).
    enum class Scores { Expiry, RefreshTime };
    // Parses the reply of zset_snapshot.lua.
    static core::Snapshot parseSnapshot(const core::SemaphoreRef &ref, const QStringList &keys,
                                        const RedisReply &reply, Scores scores);
    static QByteArray unitArgument(core::ScoreUnit unit);
    // node redis-semaphore MultiSemaphore: members id_0..id_{k-1} with one score become one entry.
    static QList<ZsetEntry> groupMultiPermits(const QList<QPair<QByteArray, QByteArray>> &entries);

private:
    LuaScript m_snapshot;
    LuaScript m_acquire;
    LuaScript m_refresh;
    LuaScript m_release;
    LuaScript m_forceRelease;
    LuaScript m_purge;
};

} // namespace semscope::redis
