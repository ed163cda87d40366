#pragma once

#include "ClientLivenessPoll.h"
#include "RedisConnection.h"
#include "RedisKind.h"
#include "core/RawKeys.h"
#include "core/SemaphoreStore.h"
#include "kinds/WaitQueueKind.h"
#include "topology/RedisTopology.h"

#include <QSet>
#include <memory>
#include <vector>

namespace semscope::redis {

class WaitingAcquires;

// core::SemaphoreStore over one Redis server. Commands go through one pipelined RedisConnection;
// waiting acquires of layouts with a release channel use a second connection in pub/sub mode,
// opened on first need. Every call is dispatched to the RedisKind registered for SemaphoreRef::kind.
//
// Waiting (AcquireRequest::waitMs > 0) is WaitingAcquires' job: layouts with a waiter queue wait
// for a hand-off published on release (no polling), others retry at the earliest expiry or with a
// capped backoff.
//
// Replica-acknowledged grants (AcquireRequest::replicas > 0): the acquire or refresh answers only
// once WAIT saw enough replicas acknowledge it, else the grant is released
// (ReplicaConfirmation.h). WAIT holds up this store's connection (the commands behind it wait
// too): the price of the option.
class RedisSemaphoreStore : public core::SemaphoreStore, public core::RawKeySource {
    Q_OBJECT
public:
    // With every built-in kind (builtinRedisKinds()).
    explicit RedisSemaphoreStore(ConnectionSettings settings, QObject *parent = nullptr);
    // Sharing its waiting acquires with every other store made this way in the same thread for the
    // same server (endpoint, user and database): one notify tag and one pub/sub connection for
    // them all, so that a release by any of them hands its slot to a waiter of any of them in the
    // release's own reply, with no PUBLISH, no pub/sub message and no wake-up of another socket.
    // For a process that drives one server over several connections from one thread (the load
    // tester's workers). The stores must stay in the thread that made them.
    static std::unique_ptr<RedisSemaphoreStore> sharingWaitsInThread(ConnectionSettings settings);
    RedisSemaphoreStore(ConnectionSettings settings, std::vector<std::unique_ptr<RedisKind>> kinds,
                        QObject *parent = nullptr);
    ~RedisSemaphoreStore() override;

    QString endpoint() const override;
    core::Backend backend() const override { return core::Backend::Redis; }
    // What an operator can still do about a semaphore whose keys a Redis Cluster split over masters,
    // which semscope does not write (Snapshot::writeRefusalAdvice).
    static QString splitLayoutAdvice();
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
    // The masters' client lists, read whole only when a short read cannot tell (ClientLivenessPoll).
    void readClientLiveness(const QList<core::Holder> &holders, const QSet<QString> &seenConnected,
                            core::Callback<QHash<QString, core::HolderClientLiveness>> done) override;

    // On the layout's release channel (RedisKind::releaseChannel), through the pub/sub connection the
    // waiting acquires use.
    bool watchReleases(const core::SemaphoreRef &ref, std::function<void()> onRelease) override;
    void unwatchReleases(const core::SemaphoreRef &ref) override;

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
    QString noKindMessage(core::Kind kind) const;
    // Calls `go` with an empty text when the keys of `name` share a hash slot or the server is not
    // a Cluster (at once, unless the mode must first be found), else with the warning that names
    // the slots and masters ("keys in slots A, B on different masters: this read is not atomic").
    void whenSlotsChecked(RedisKind *kind, const QString &name, std::function<void(const QString &split)> go);
    static QString writeRefusal(const QString &split);
    // Calls `go` with where reads of semaphores go: the replicas the topology chose (Cluster, with
    // ConnectionSettings::discoverFromReplicas), else the masters through the usual routing.
    void withReads(std::function<void(RedisCommands &reads, bool fromReplicas)> go);

    std::unique_ptr<topology::RedisTopology> m_conn;
    std::vector<std::unique_ptr<RedisKind>> m_kinds;
    QSet<QString> m_slotsChecked; // split-key layouts found writable (not on a Cluster)
    WaitingAcquires *m_waiting;   // a child, so that it follows the store to another thread, unless shared
    std::shared_ptr<WaitingAcquires> m_sharedWaiting; // owns m_waiting when shared
    std::unique_ptr<ClientLivenessPoll> m_liveness = std::make_unique<ClientLivenessPoll>();
};

} // namespace semscope::redis
