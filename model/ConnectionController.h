#pragma once

#include "ConnectionConfig.h"
#include "core/SemaphoreStore.h"

#include <QDateTime>
#include <QObject>
#include <QPointer>
#include <QThread>
#include <QTimer>
#include <memory>

namespace semscope::model {

class SharedSnapshotReads;

// Lives in the worker thread and owns the store. Only ConnectionController touches it.
class StoreWorker : public QObject {
    Q_OBJECT
public:
    std::unique_ptr<core::SemaphoreStore> store;
    QString createError;
};

// One open connection: a store running in its own QThread. Every call returns at once; results come
// back as finished values on the GUI thread, to a callback guarded by `context` (dropped if the
// context object is gone by then). The GUI thread never waits on the network.
class ConnectionController : public QObject {
    Q_OBJECT
public:
    enum class State { Idle, Connecting, Connected, Lost, Reconnecting, Failed };
    Q_ENUM(State)

    ConnectionController(ConnectionConfig config, core::StoreFactory factory, QObject *parent = nullptr);
    ~ConnectionController() override;

    const ConnectionConfig &config() const { return m_config; }
    State state() const { return m_state; }
    QString stateText() const { return m_stateText; }
    int pendingOperations() const { return m_pending; }
    // The server refused the password/token: the connection is Failed and no longer retries; only
    // new credentials (Edit connection) can help.
    bool needsCredentials() const { return m_needsCredentials; }

    // How long connecting may take before the state turns Failed and says what did not answer
    // (a server that accepts TCP but never replies would otherwise stay "connecting" for ever).
    static constexpr int kDefaultConnectDeadlineMs = 10000;
    void setConnectDeadlineMs(int ms) { m_connectDeadline.setInterval(ms); }

    // Starts the worker thread and creates the store there.
    void open();

    core::Cancellation discover(const core::DiscoverRequest &request, QObject *context,
                                core::Callback<core::DiscoverProgress> progress,
                                core::Callback<core::DiscoverResult> done);
    // One read serves every asker (SharedSnapshotReads): a periodic asker passes how old an answer
    // may be (its interval) and shares a read another asker (`context`) sent meanwhile; 0 asks for a
    // read sent after this call. Writes through this controller mark the semaphore changed.
    void snapshot(const core::SemaphoreRef &ref, QObject *context, core::Callback<core::Snapshot> done,
                  qint64 maxAgeMs = 0);
    // The semaphore changed (a keyspace notification): no read from before is shared after.
    void markChanged(const core::SemaphoreRef &ref);
    // Snapshot reads sent to the store so far (shared ones count once).
    quint64 snapshotReadsIssued() const;
    quint64 snapshotReadsIssued(const core::SemaphoreRef &ref) const;
    void acquire(const core::SemaphoreRef &ref, const core::AcquireRequest &request,
                 core::Cancellation cancel, QObject *context, core::Callback<core::AcquireResult> done);
    void refresh(const core::Grant &grant, qint64 ttlMs, QObject *context,
                 core::Callback<core::RefreshResult> done);
    void release(const core::Grant &grant, QObject *context, core::Callback<core::ReleaseResult> done);
    void forceRelease(const core::SemaphoreRef &ref, const core::Holder &observed,
                      std::optional<qint64> observedVersion, QObject *context,
                      core::Callback<core::ForceReleaseResult> done);
    void purgeExpired(const core::SemaphoreRef &ref, QObject *context,
                      core::Callback<core::MaintenanceResult> done);
    void repair(const core::SemaphoreRef &ref, QObject *context,
                core::Callback<core::MaintenanceResult> done);
    void setLimit(const core::SemaphoreRef &ref, qint64 limit, QObject *context,
                  core::Callback<core::MaintenanceResult> done);

    // Consul stores push changes through blocking queries instead of being polled.
    bool canWatch() const { return m_config.backend == core::Backend::Consul; }
    // `onChange` gets a snapshot now and after every change until unwatch(); Consul only.
    void watch(const core::SemaphoreRef &ref, QObject *context, core::Callback<core::Snapshot> onChange);
    void unwatch(const core::SemaphoreRef &ref);
    // Destroys a Consul session (its keys follow its behavior). Errors on other backends.
    void invalidateSession(const QString &sessionId, QObject *context,
                           core::Callback<core::MaintenanceResult> done);

    // Runs `op` on the worker thread with the store; `done` gets its result on the GUI thread.
    // For operations only some stores have (Consul session invalidation).
    template <typename R>
    void call(std::function<void(core::SemaphoreStore &, core::Callback<R>)> op, R ifNoStore,
              QObject *context, core::Callback<R> done) {
        QPointer<QObject> guard(context ? context : this);
        ++m_pending;
        Q_EMIT busyChanged(m_pending);
        auto deliver = [this, guard, done](R result) {
            QMetaObject::invokeMethod(
                this,
                [this, guard, done, result] {
                    --m_pending;
                    Q_EMIT busyChanged(m_pending);
                    if (guard)
                        done(result);
                },
                Qt::QueuedConnection);
        };
        StoreWorker *worker = m_worker;
        QMetaObject::invokeMethod(
            worker,
            [worker, op, deliver, ifNoStore] {
                if (!worker->store) {
                    deliver(ifNoStore);
                    return;
                }
                op(*worker->store, deliver);
            },
            Qt::QueuedConnection);
    }

    // The deployment's failovers, map changes and nodes down this connection saw (oldest first, at
    // most kMaxTopologyEvents), as values on the GUI thread.
    QList<core::TopologyEvent> topologyEvents() const { return m_topologyEvents; }
    static constexpr int kMaxTopologyEvents = 200;
    // Sentinel: "master 127.0.0.1:6381 via sentinel 127.0.0.1:26379", following every failover;
    // empty for other connections and before the first connect.
    QString servingMaster() const { return m_servingMaster; }

Q_SIGNALS:
    void stateChanged(semscope::model::ConnectionController::State state, const QString &text);
    void topologyEvent(const semscope::core::TopologyEvent &event);
    void busyChanged(int pendingOperations);
    void warning(const QString &message);

private:
    void readFromStore(const core::SemaphoreRef &ref, core::Callback<core::Snapshot> done);
    template <typename R>
    core::Callback<R> changing(const core::SemaphoreRef &ref, core::Callback<R> done);
    void applyStoreState(const QString &text);
    void applyTopologyEvent(const core::TopologyEvent &event);
    void setState(State state, const QString &text);
    void connectDeadlinePassed();
    // "<endpoint> did not answer within 10 s (unreachable since 13:40:02); still trying, reconnecting
    // in 4 s — last attempt: Connection refused"
    QString unreachableText(const QString &retry) const;
    // Says why, and stops the store retrying the same refused credentials.
    void failAuthentication(const QString &reason);
    // Failures a store reports outside a connection state change (a failed discovery).
    void noteFailure(const QString &error);

    ConnectionConfig m_config;
    core::StoreFactory m_factory;
    QThread m_thread;
    StoreWorker *m_worker = nullptr;
    SharedSnapshotReads *m_reads = nullptr; // a child: gone with the controller
    State m_state = State::Idle;
    QString m_stateText = QStringLiteral("not connected");
    QString m_lastFailure; // why the last attempt failed; kept next to "reconnecting in …"
    QTimer m_connectDeadline;
    // When the connect deadline passed without a connection. Until one succeeds the state stays
    // Failed through every further attempt (the icon would otherwise cycle lost → reconnecting →
    // failed with each retry); only the text follows the attempts.
    QDateTime m_unreachableSince;
    bool m_needsCredentials = false;
    int m_pending = 0;
    QList<core::TopologyEvent> m_topologyEvents;
    QString m_servingMaster;
};

QString connectionStateName(ConnectionController::State state);
// A refused password or token (Redis WRONGPASS/NOAUTH, Consul 401/403): retrying cannot help.
bool isAuthenticationFailure(const QString &message);
// "<endpoint>: <message>", or the message alone when it already names the endpoint: said once.
QString atEndpoint(const QString &endpoint, const QString &message);

} // namespace semscope::model
