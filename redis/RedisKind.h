#pragma once

#include "RedisConnection.h"
#include "core/SemaphoreStore.h"

namespace semscope::redis {

// One Redis semaphore layout: how to read it and (for writable kinds) how to operate it, each write
// as exactly one EVALSHA with every key declared in KEYS. RedisSemaphoreStore owns one instance per
// kind and dispatches on SemaphoreRef::kind; waiting, retries and read-only checks live in the
// store, so a kind only implements single attempts.
//
// The default implementations of the write operations answer with an Error naming the kind, for
// layouts that are read-only.
class RedisKind {
public:
    virtual ~RedisKind() = default;
    virtual core::Kind kind() const = 0;

    // Every key of the semaphore called `name` (for display, TYPE checks and Cluster slot checks).
    virtual QList<QByteArray> keysOf(const QString &name) const = 0;
    // Channel published to when a slot is freed, if the layout has one (waiters subscribe to it).
    virtual QByteArray releaseChannel(const QString &name) const { return {}; }

    // One consistent read (a read-only script or MULTI/EXEC) with "now" from Redis TIME.
    virtual void snapshot(RedisCommands &conn, const core::SemaphoreRef &ref,
                          core::Callback<core::Snapshot> done) = 0;

    // A read of a layout whose keys lie in several hash slots of a Redis Cluster, where no script can
    // read them together: each key on its own (routed to its master), so not atomic. The store adds
    // the warning that says so. The default reads nothing and says the layout cannot be read there.
    virtual void snapshotKeyByKey(RedisCommands &conn, const core::SemaphoreRef &ref,
                                  core::Callback<core::Snapshot> done);

    // One acquire attempt. Busy results carry the current holders and the earliest expiry.
    virtual void tryAcquire(RedisCommands &conn, const core::SemaphoreRef &ref,
                            const core::AcquireRequest &request, core::Callback<core::AcquireResult> done);
    virtual void refresh(RedisCommands &conn, const core::Grant &grant, qint64 ttlMs,
                         core::Callback<core::RefreshResult> done);
    virtual void release(RedisCommands &conn, const core::Grant &grant,
                         core::Callback<core::ReleaseResult> done);
    virtual void forceRelease(RedisCommands &conn, const core::SemaphoreRef &ref,
                              const core::Holder &observed, std::optional<qint64> observedVersion,
                              core::Callback<core::ForceReleaseResult> done);
    virtual void purgeExpired(RedisCommands &conn, const core::SemaphoreRef &ref,
                              core::Callback<core::MaintenanceResult> done);
    virtual void repair(RedisCommands &conn, const core::SemaphoreRef &ref,
                        core::Callback<core::MaintenanceResult> done);
    virtual void setLimit(RedisCommands &conn, const core::SemaphoreRef &ref, qint64 limit,
                          core::Callback<core::MaintenanceResult> done);

protected:
    QString unsupported(const QString &operation) const;
};

} // namespace semscope::redis
