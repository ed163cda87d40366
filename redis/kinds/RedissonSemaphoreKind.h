#pragma once

#include "redis/RedisKind.h"

namespace semscope::redis {

// Redisson RSemaphore: `N` STRING = available permits, channel redisson_sc:{N}. Holders and the
// capacity are not recorded anywhere, so a snapshot shows the available count only (and the limit
// from the profile, if entered). Read-only, plus one operator action: force-release = release
// permits on behalf of holders that died (Redisson's own release(): INCRBY, then PUBLISH the new
// count so waiting clients wake). It is compare-and-act on the available count the operator saw
// (Snapshot::version; pass it as observedVersion). The number of permits is
// `observed.details["permits"]` (default 1).
class RedissonSemaphoreKind : public RedisKind {
public:
    RedissonSemaphoreKind();

    core::Kind kind() const override { return core::Kind::RedissonSemaphore; }
    QList<QByteArray> keysOf(const QString &name) const override;
    QByteArray releaseChannel(const QString &name) const override;

    void snapshot(RedisCommands &conn, const core::SemaphoreRef &ref,
                  core::Callback<core::Snapshot> done) override;
    void forceRelease(RedisCommands &conn, const core::SemaphoreRef &ref, const core::Holder &observed,
                      std::optional<qint64> observedVersion,
                      core::Callback<core::ForceReleaseResult> done) override;

    static core::Snapshot parseSnapshot(const core::SemaphoreRef &ref, const RedisReply &reply);

private:
    LuaScript m_snapshot;
    LuaScript m_release;
};

} // namespace semscope::redis
