#pragma once

#include "redis/RedisKind.h"

namespace semscope::redis {

// The classic single-holder lock: key K is a STRING holding the holder's token, set with
// `SET K token NX PX ttl` and released with the compare-and-delete script every such client uses
// (seed 002). The holder id *is* the token. There is no fencing counter and the limit is always 1
// (reported as stored: the layout itself fixes it). Redis expires the key, so there is nothing to
// purge; a key without a TTL is flagged, because a crashed holder then keeps it for ever.
class LockKind : public RedisKind {
public:
    LockKind();

    core::Kind kind() const override { return core::Kind::Lock; }
    QList<QByteArray> keysOf(const QString &name) const override { return {name.toUtf8()}; }

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

    // Values longer than this are shown cut (and cannot be force-released by value).
    static constexpr int kValueCap = 4096;

private:
    LuaScript m_snapshot;
    LuaScript m_acquire;
    LuaScript m_refresh;
    LuaScript m_release;
    LuaScript m_forceRelease;
};

} // namespace semscope::redis
