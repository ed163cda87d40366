#pragma once

#include "RedisConnection.h"
#include "RedisKind.h"
#include "core/RawKeys.h"
#include "core/SemaphoreStore.h"
#include "kinds/WaitQueueKind.h"
#include "topology/RedisTopology.h"

#include <QElapsedTimer>
#include <QHash>
#include <QSet>
#include <QTimer>
#include <map>
#include <memory>
#include <vector>

namespace semscope::redis {

// core::SemaphoreStore over one Redis server. Commands go through one pipelined RedisConnection;
// waiting acquires of layouts with a release channel use a second connection in pub/sub mode,
// opened on first need. Every call is dispatched to the RedisKind registered for SemaphoreRef::kind.
//
// Waiting (AcquireRequest::waitMs > 0):
// - layouts with a waiter queue (`leased`): the waiter subscribes to this store's notify channel for
//   the semaphore *before* its first attempt (so no hand-off can slip by unseen) and joins the FIFO
//   queue on that attempt. The release that frees a slot for it grants it in Redis and publishes the
//   grant on that channel, which completes the acquire: one attempt per grant. When this store made
//   that release itself, the grant comes back in the release's reply and nothing is published. The
//   waiter retries only at the lease expiry that would make room for it (nobody releases a crashed
//   holder's slot), to renew its waiter lease, or after the subscription was re-established
//   (hand-offs may have been lost; the retry picks up a slot handed to it). No polling.
// - other layouts: retries at the earliest lease expiry the layout reports, or with a capped
//   backoff (25 ms doubling to 1 s) when it reports none.
// Cancellation is noticed within 100 ms (a local check, no Redis traffic); a waiter that gives up
// leaves the queue.
//
// Replica-acknowledged grants (AcquireRequest::replicas > 0): after the acquire script, WAIT N T on
// the same connection (it covers every write this connection made, the grant included). Fewer than
// N acknowledgements: the grant is released (compare-and-act, like any release) and the acquire
// fails with "not replicated to N replicas within T: released". A grant that came by hand-off (a
// waiter served by another client's release) is first refreshed, so that a write of this
// connection stands behind it. Refreshes of such a grant wait the same way; one that is not
// acknowledged releases the grant and reports it Lost. WAIT holds up this store's connection (the
// commands behind it wait too): the price of the option.
class RedisSemaphoreStore : public core::SemaphoreStore, public core::RawKeySource {
    Q_OBJECT
public:
    // With every built-in kind (builtinRedisKinds()).
    explicit RedisSemaphoreStore(ConnectionSettings settings, QObject *parent = nullptr);
    RedisSemaphoreStore(ConnectionSettings settings, std::vector<std::unique_ptr<RedisKind>> kinds,
                        QObject *parent = nullptr);
    ~RedisSemaphoreStore() override;

    QString endpoint() const override;
    core::Backend backend() const override { return core::Backend::Redis; }
    // "host:port" of the master serving the semaphore's first key (the entry node off a Cluster).
    QString locationOf(const core::SemaphoreRef &ref) const override;

    // The entry node (the one node of a standalone server).
    RedisConnection &connection() { return m_conn->entry(); }
    // Commands routed to the node serving their keys (Cluster), or to the entry node.
    topology::RedisTopology &topology() { return *m_conn; }
    RedisKind *kindFor(core::Kind kind) const;

    void discover(const core::DiscoverRequest &request, core::Cancellation cancel,
                  core::Callback<core::DiscoverProgress> progress,
                  core::Callback<core::DiscoverResult> done) override;
    void snapshot(const core::SemaphoreRef &ref, core::Callback<core::Snapshot> done) override;
    // The raw view: the keys the semaphore's snapshot names, read by RawKeyReader.
    void readRawKeys(const core::SemaphoreRef &ref, std::function<void(core::RawKeys)> done) override;

protected:
    // The writes, reached through core::SemaphoreStore's read-only gate.
    void doAcquire(const core::SemaphoreRef &ref, const core::AcquireRequest &request,
                   core::Cancellation cancel, core::Callback<core::AcquireResult> done) override;
    void doRefresh(const core::Grant &grant, qint64 ttlMs, core::Callback<core::RefreshResult> done) override;
    void doRelease(const core::Grant &grant, core::Callback<core::ReleaseResult> done) override;
    void doForceRelease(const core::SemaphoreRef &ref, const core::Holder &observed,
                        std::optional<qint64> observedVersion,
                        core::Callback<core::ForceReleaseResult> done) override;
    void doPurgeExpired(const core::SemaphoreRef &ref, core::Callback<core::MaintenanceResult> done) override;
    void doRepair(const core::SemaphoreRef &ref, core::Callback<core::MaintenanceResult> done) override;
    void doSetLimit(const core::SemaphoreRef &ref, qint64 limit,
                    core::Callback<core::MaintenanceResult> done) override;

private:
    struct Waiter;
    struct Channel;

    QString noKindMessage(core::Kind kind) const;
    // Calls `go` with an empty text when the keys of `name` share a hash slot or the server is not
    // a Cluster (at once, unless the mode must first be found), else with the warning that names
    // the slots and masters ("keys in slots A, B on different masters: this read is not atomic").
    void whenSlotsChecked(RedisKind *kind, const QString &name, std::function<void(const QString &split)> go);
    static QString writeRefusal(const QString &split);
    // Calls `go` with where reads of semaphores go: the replicas the topology chose (Cluster, with
    // ConnectionSettings::discoverFromReplicas), else the masters through the usual routing.
    void withReads(std::function<void(RedisCommands &reads, bool fromReplicas)> go);
    void startWaiting(std::unique_ptr<Waiter> waiter);
    void attempt(quint64 id);
    void onAttemptResult(quint64 id, core::AcquireResult result, qint64 ticket);
    core::AcquireResult grantFromHandOff(const Waiter &w, const WaitQueueKind::HandOff &h) const;
    void wake(quint64 id);
    void onReleaseMessage(const QByteArray &channel, const QByteArray &message);
    void deliverHandOff(const QString &semaphore, const WaitQueueKind::HandOff &h);
    void deliverHandOff(const Channel &ch, const WaitQueueKind::HandOff &h);
    void onSubscribed(const QByteArray &channel);
    void scheduleRetry(Waiter &w, qint64 delayMs);
    void cancelRetry(Waiter &w);
    void armRetryTimer();
    void onRetryTimer();
    void onCancelCheck();
    void finishWaiter(quint64 id, core::AcquireResult result, bool leaveQueue);
    RedisConnection &pubsub();
    void confirmReplicated(core::AcquireResult granted, const core::AcquireRequest &request,
                           core::Callback<core::AcquireResult> done);
    void waitForReplicas(const core::SemaphoreRef &ref, int replicas, qint64 timeoutMs,
                         std::function<void(const QString &failure)> done);

    std::unique_ptr<topology::RedisTopology> m_conn;
    std::unique_ptr<RedisConnection> m_pubsub;
    std::vector<std::unique_ptr<RedisKind>> m_kinds;
    std::map<quint64, std::unique_ptr<Waiter>> m_waiters;
    QHash<QByteArray, std::shared_ptr<Channel>> m_channels;
    QByteArray m_notifyTag;                      // names this store's notify channels
    QHash<QString, QByteArray> m_notifyChannels; // semaphore name -> its notify channel
    QSet<QString> m_slotsChecked;                // split-key layouts found writable (not on a Cluster)
    QElapsedTimer m_clock;
    std::multimap<qint64, quint64> m_retries; // due (m_clock ms) -> waiter
    QTimer *m_retryTimer = nullptr;           // children, so they follow the store to another thread
    QTimer *m_cancelTimer = nullptr;
    quint64 m_nextWaiterId = 1;
    bool m_shuttingDown = false;
};

} // namespace semscope::redis
