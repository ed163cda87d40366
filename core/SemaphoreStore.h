#pragma once

#include "Cancellation.h"
#include "ClientLiveness.h"
#include "SemaphoreTypes.h"
#include "TopologyEvent.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <functional>
#include <memory>

namespace semscope::core {

template <typename T>
using Callback = std::function<void(T)>;

struct DiscoverRequest {
    QString match = QStringLiteral("*"); // glob on key names (Redis) or KV prefix (Consul)
    int batch = 1000;                    // SCAN COUNT / page size
    // Redis: candidate keys whose samples are read per batch (one script, on a Cluster one per
    // master): enough to keep round trips few, few enough that no script blocks a server noticeably.
    int sampleBatch = 200;
    std::optional<Kind> kind; // only this kind
    // Semaphores the operator named in a profile (ProfileStore::named). Layouts that nothing in the
    // server marks as a semaphore (a Redisson RSemaphore is a bare integer string) are recognised
    // through these, even while idle. Still subject to `match`.
    QList<SemaphoreRef> known;
};

// One semaphore found by discovery. `warnings` non-empty means it looked like a semaphore but
// something about it is off; it is still listed.
struct DiscoveredSemaphore {
    SemaphoreRef ref;
    QStringList keys;
    QStringList warnings;
    QString node;  // Redis: "host:port" of the master serving it; empty for Consul
    int slot = -1; // Redis Cluster: the hash slot of its first key; -1 elsewhere
    // Redis Cluster read from replicas: the node it was read on, "host:port (replica)" or
    // "host:port (master)" when its master had no replica that answered. Empty otherwise.
    QString readFrom;
};

// How far the walk of one node is (Redis Cluster: one per master).
struct NodeProgress {
    QString node;
    qint64 scannedKeys = 0;
    qint64 totalKeys = -1;
    double walked = -1; // as DiscoverProgress::walked, for this node
    bool finished = false;
    QString readFrom; // the node walked for it, "host:port (replica)", when that is not the node itself
};

struct DiscoverProgress {
    qint64 scannedKeys = 0; // over every node
    qint64 totalKeys = -1;  // -1 when unknown; Redis reports DBSIZE (summed over masters)
    // The share of the keyspace walked, 0..1; -1 when the store cannot tell. Redis knows it from the
    // SCAN cursor, also where MATCH keeps scannedKeys from saying it (only matches are returned).
    double walked = -1;
    // scannedKeys counts only the keys a pattern kept (Redis' SCAN MATCH returns no others), so it
    // is no share of totalKeys.
    bool scannedAreMatches = false;
    QList<DiscoveredSemaphore> found; // found since the previous progress report
    QList<NodeProgress> nodes;        // per node, when the store walks several
};

struct DiscoverResult {
    bool ok = false;
    bool cancelled = false;
    QString error;
    QList<DiscoveredSemaphore> semaphores;
    qint64 scannedKeys = 0;
    bool scannedAreMatches = false; // as DiscoverProgress::scannedAreMatches
    // Not errors, but worth a line: e.g. a Cluster master read itself because none of its replicas
    // answered.
    QStringList warnings;
};

// The one interface that the GUI, the CLI, operator actions and the load tester use to talk to a
// semaphore backend. Every call returns at once; the callback runs later on the thread that made
// the call (the thread the store lives in). A store that is read-only refuses every write itself
// with an Error result, whatever the caller's buttons say: the writes are not virtual, they pass
// one gate and then call the store's do*() implementation.
class SemaphoreStore : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    ~SemaphoreStore() override = default;

    virtual QString endpoint() const = 0; // "redis://host:port/0", "http://host:8500" (no secrets)
    virtual Backend backend() const = 0;
    // Where `ref` lives, as a label to group by (a load test over several semaphores reports per
    // label): the node serving it where a store spreads semaphores over several (Redis: "host:port"
    // of its master, the one server of a standalone). Empty when the store cannot say. Cheap and
    // local: it asks no server (a Redis Cluster answers from its slot map as last read).
    virtual QString locationOf(const SemaphoreRef &ref) const { return {}; }

    void setReadOnly(bool readOnly) { m_readOnly = readOnly; }
    bool isReadOnly() const { return m_readOnly; }

    virtual void discover(const DiscoverRequest &request, Cancellation cancel,
                          Callback<DiscoverProgress> progress, Callback<DiscoverResult> done) = 0;
    virtual void snapshot(const SemaphoreRef &ref, Callback<Snapshot> done) = 0;

    // The writes. Each passes the read-only gate here, the one place where it is checked for every
    // backend, and only then reaches the store's do*() implementation below. A read-only store
    // answers every write with an Error result carrying readOnlyMessage(), later (from the event
    // loop, like any answer), and sends the server nothing.
    void acquire(const SemaphoreRef &ref, const AcquireRequest &request, Cancellation cancel,
                 Callback<AcquireResult> done);
    void refresh(const Grant &grant, qint64 ttlMs, Callback<RefreshResult> done);
    void release(const Grant &grant, Callback<ReleaseResult> done);
    // Removes `observed` only if it is still exactly what the operator saw (same raw id and, where the
    // layout has them, same token, slot or version).
    void forceRelease(const SemaphoreRef &ref, const Holder &observed, std::optional<qint64> observedVersion,
                      Callback<ForceReleaseResult> done);
    void purgeExpired(const SemaphoreRef &ref, Callback<MaintenanceResult> done);
    void repair(const SemaphoreRef &ref, Callback<MaintenanceResult> done);
    void setLimit(const SemaphoreRef &ref, qint64 limit, Callback<MaintenanceResult> done);

    // Pushed changes, where the backend offers them (Consul blocking queries): `onChange` gets a
    // snapshot now and after every change until unwatch(). Stores that cannot push say so in
    // canWatch() and are polled with snapshot() instead (monitor/SemaphoreWatcher).
    virtual bool canWatch() const { return false; }
    virtual void watch(const SemaphoreRef &ref, Callback<Snapshot> onChange) {}
    virtual void unwatch(const SemaphoreRef &ref) {}

    // Is the client behind each holder still there? One read (Redis: CLIENT LIST of every master;
    // Consul: the health checks of each holder's node), answered by holder id for the holders whose
    // record names a client. `seenConnected`: identity keys an earlier read found connected, since a
    // client known only by a hint (a name, an id that looks like semscope's) reads "gone" only after
    // it was once seen. A store that cannot tell answers an empty hash.
    virtual void readClientLiveness(const QList<Holder> &holders, const QSet<QString> &seenConnected,
                                    Callback<QHash<QString, HolderClientLiveness>> done);

    // Release notifications, where the layout publishes them (`leased`, Redisson's): `onRelease`
    // runs on the store's thread each time a release of `ref` left a slot free for whoever asks
    // now, whoever released it (another connection, thread or process), until unwatchReleases().
    // False when the store or the layout publishes none; a client that retries then sleeps its
    // whole pause. Notifications are a hint, not a grant: one may be missed (the subscription is
    // being made or renewed) or find the slot taken again.
    virtual bool watchReleases(const SemaphoreRef &ref, std::function<void()> onRelease) { return false; }
    virtual void unwatchReleases(const SemaphoreRef &ref) {}

Q_SIGNALS:
    // Connection state, for status bars: "connected", "lost: <why>", "reconnecting in 2 s".
    void connectionStateChanged(const QString &state);
    // The deployment behind the connection changed (Redis: a Sentinel failover, a Cluster map
    // change, a node down; see TopologyEvent). Stores without such a deployment never emit it.
    void topologyEvent(const semscope::core::TopologyEvent &event);

protected:
    // The implementations of the writes above: reached only when the store is not read-only.
    virtual void doAcquire(const SemaphoreRef &ref, const AcquireRequest &request, Cancellation cancel,
                           Callback<AcquireResult> done) = 0;
    virtual void doRefresh(const Grant &grant, qint64 ttlMs, Callback<RefreshResult> done) = 0;
    virtual void doRelease(const Grant &grant, Callback<ReleaseResult> done) = 0;
    virtual void doForceRelease(const SemaphoreRef &ref, const Holder &observed,
                                std::optional<qint64> observedVersion, Callback<ForceReleaseResult> done) = 0;
    virtual void doPurgeExpired(const SemaphoreRef &ref, Callback<MaintenanceResult> done) = 0;
    virtual void doRepair(const SemaphoreRef &ref, Callback<MaintenanceResult> done) = 0;
    virtual void doSetLimit(const SemaphoreRef &ref, qint64 limit, Callback<MaintenanceResult> done) = 0;

    // The gate itself, also for the writes a store offers beyond this interface (Consul's destroy):
    // when the store is read-only, queues the refusal to `done` and returns true.
    bool refuseIfReadOnly(Callback<AcquireResult> &done);
    bool refuseIfReadOnly(Callback<RefreshResult> &done);
    bool refuseIfReadOnly(Callback<ReleaseResult> &done);
    bool refuseIfReadOnly(Callback<ForceReleaseResult> &done);
    bool refuseIfReadOnly(Callback<MaintenanceResult> &done);

    // The message every refused write carries.
    static QString readOnlyMessage() { return QStringLiteral("refused: this connection is read-only"); }

private:
    bool m_readOnly = false;
};

// Makes a store. Called once, on the thread the store is to live on (a connection's worker, a
// load-test worker), so that everything the store creates (sockets, timers) lives there.
using StoreFactory = std::function<std::unique_ptr<SemaphoreStore>()>;

} // namespace semscope::core
