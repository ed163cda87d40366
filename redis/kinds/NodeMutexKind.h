#pragma once

#include "redis/RedisKind.h"

namespace semscope::redis {

// node redis-semaphore Mutex: `mutex:<key>` STRING = identifier, with PX lockTimeout. The semaphore
// name is <key> (what the library's user passes). Read-only plus force-release, the library's own
// delIfEqual: DEL only while the identifier is the one the operator saw.
class NodeMutexKind : public RedisKind {
public:
    NodeMutexKind();

    core::Kind kind() const override { return core::Kind::NodeMutex; }
    QList<QByteArray> keysOf(const QString &name) const override;

    void snapshot(RedisCommands &conn, const core::SemaphoreRef &ref,
                  core::Callback<core::Snapshot> done) override;
    void forceRelease(RedisCommands &conn, const core::SemaphoreRef &ref, const core::Holder &observed,
                      std::optional<qint64> observedVersion,
                      core::Callback<core::ForceReleaseResult> done) override;

    static core::Snapshot parseSnapshot(const core::SemaphoreRef &ref, const QString &key,
                                        const RedisReply &reply);

private:
    LuaScript m_snapshot;
    LuaScript m_forceRelease;
};

} // namespace semscope::redis
