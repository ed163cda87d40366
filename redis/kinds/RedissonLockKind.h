#pragma once

#include "redis/RedisKind.h"

namespace semscope::redis {

// Redisson RLock / RFencedLock: `N` HASH "<client uuid>:<thread id>" -> hold count, with a key TTL
// (the watchdog renews it to 30 s every 10 s); RFencedLock adds `redisson_lock_token:{N}` (last
// fencing token). Unlock messages go to redisson_lock__channel:{N}. Read-only plus force-release:
// Redisson's forceUnlock() (DEL + PUBLISH 0), done only while the field the operator saw is there.
class RedissonLockKind : public RedisKind {
public:
    RedissonLockKind();

    core::Kind kind() const override { return core::Kind::RedissonLock; }
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
