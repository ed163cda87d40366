#include "ReplicaConfirmation.h"

#include "RedisConnection.h"

#include <algorithm>

namespace semscope::redis {

namespace {

// Calls `done` with an empty text once `replicas` replicas acknowledged the writes of the connection
// that serves `name`, else with what failed.
void waitForReplicas(topology::RedisTopology &topology, RedisKind &kind, const QString &name, int replicas,
                     qint64 timeoutMs, std::function<void(const QString &failure)> done) {
    // WAIT blocks this connection on the server for up to its timeout; keep that well inside the
    // connection's own command timeout.
    const qint64 timeout = std::clamp<qint64>(timeoutMs, 1, 5000);
    // WAIT counts the writes of the connection it is sent on and names no key: on a Cluster it must
    // go to the master that took the grant, not wherever its argument happens to hash.
    const QList<QByteArray> keys = kind.keysOf(name);
    RedisConnection &conn = topology.mode() == topology::RedisTopology::Mode::Cluster && !keys.isEmpty()
                                ? topology.nodeConnection(topology.nodeOfKey(keys.constFirst()))
                                : topology.entry();
    conn.command({QByteArrayLiteral("WAIT"), QByteArray::number(replicas), QByteArray::number(timeout)},
                 [replicas, timeout, done = std::move(done)](const RedisReply &reply) {
                     if (reply.isError()) {
                         done(QStringLiteral("WAIT for %1 replicas failed: %2")
                                  .arg(replicas)
                                  .arg(reply.errorMessage()));
                         return;
                     }
                     const qint64 acked = reply.integer;
                     if (acked >= replicas) {
                         done(QString());
                         return;
                     }
                     done(QStringLiteral("not replicated to %1 replica%2 within %3 ms (acknowledged by %4)")
                              .arg(replicas)
                              .arg(replicas == 1 ? QString() : QStringLiteral("s"))
                              .arg(timeout)
                              .arg(acked));
                 });
}

void confirmReplicated(core::SemaphoreStore &store, topology::RedisTopology &conn, RedisKind &kind,
                       core::AcquireResult granted, const core::AcquireRequest &request,
                       core::Callback<core::AcquireResult> done) {
    granted.grant.details.insert(QStringLiteral("replicas"), request.replicas);
    granted.grant.details.insert(QStringLiteral("replicaTimeoutMs"), request.replicaTimeoutMs);
    auto check = [&store, &conn, &kind, request, done](core::AcquireResult r) {
        waitForReplicas(conn, kind, r.grant.ref.name, request.replicas, request.replicaTimeoutMs,
                        [&store, r, done](const QString &failure) {
                            if (failure.isEmpty()) {
                                done(r);
                                return;
                            }
                            // Not on enough replicas: a failover now could lose it and admit someone else.
                            // Give it back (compare-and-act on this very grant) and say so.
                            store.release(r.grant, [r, failure, done](const core::ReleaseResult &released) {
                                core::AcquireResult refused;
                                refused.status = core::AcquireResult::Status::Error;
                                refused.attempts = r.attempts;
                                if (released.status == core::ReleaseResult::Status::Error)
                                    refused.error =
                                        failure +
                                        QStringLiteral(
                                            "; releasing it failed too (it stands until its TTL): ") +
                                        released.error;
                                else
                                    refused.error = failure + QStringLiteral(": released");
                                done(refused);
                            });
                        });
    };
    if (request.waitMs <= 0) {
        check(std::move(granted));
        return;
    }
    // A waiter may have been granted by another client's release: refresh first, so that this
    // connection's own write stands behind the grant and WAIT covers it.
    const core::Grant grant = granted.grant;
    kind.refresh(conn, grant, request.ttlMs,
                 [granted = std::move(granted), check, done](const core::RefreshResult &refreshed) mutable {
                     if (refreshed.status != core::RefreshResult::Status::Ok) {
                         core::AcquireResult lost;
                         lost.status = core::AcquireResult::Status::Error;
                         lost.error = QStringLiteral("the grant was lost before it could be replicated: ") +
                                      refreshed.error;
                         done(lost);
                         return;
                     }
                     if (refreshed.expiresAtMs)
                         granted.grant.expiresAtMs = refreshed.expiresAtMs;
                     check(std::move(granted));
                 });
}

} // namespace

core::Callback<core::AcquireResult> confirmingReplicated(core::SemaphoreStore &store,
                                                         topology::RedisTopology &conn, RedisKind &kind,
                                                         const core::AcquireRequest &request,
                                                         core::Callback<core::AcquireResult> done) {
    return [&store, &conn, &kind, request, done = std::move(done)](core::AcquireResult r) {
        if (r.status != core::AcquireResult::Status::Granted) {
            done(r);
            return;
        }
        confirmReplicated(store, conn, kind, std::move(r), request, done);
    };
}

core::Callback<core::RefreshResult> confirmingReplicated(core::SemaphoreStore &store,
                                                         topology::RedisTopology &conn, RedisKind &kind,
                                                         const core::Grant &grant,
                                                         core::Callback<core::RefreshResult> done) {
    const int replicas = grant.details.value(QStringLiteral("replicas")).toInt();
    const qint64 timeoutMs = grant.details.value(QStringLiteral("replicaTimeoutMs")).toLongLong();
    return [&store, &conn, &kind, grant, replicas, timeoutMs, done = std::move(done)](core::RefreshResult r) {
        if (r.status != core::RefreshResult::Status::Ok) {
            done(r);
            return;
        }
        waitForReplicas(conn, kind, grant.ref.name, replicas, timeoutMs,
                        [&store, grant, r, done](const QString &failure) {
                            if (failure.isEmpty()) {
                                done(r);
                                return;
                            }
                            // The extended lease may vanish in a failover: the holder must not count on it.
                            store.release(grant, [failure, done](const core::ReleaseResult &released) {
                                core::RefreshResult lost;
                                lost.status = core::RefreshResult::Status::Lost;
                                if (released.status == core::ReleaseResult::Status::Error)
                                    lost.error = failure + QStringLiteral(": releasing it failed too: ") +
                                                 released.error;
                                else
                                    lost.error = failure + QStringLiteral(": released");
                                done(lost);
                            });
                        });
    };
}

} // namespace semscope::redis
