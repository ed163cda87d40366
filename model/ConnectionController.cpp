#include "ConnectionController.h"

#include "SharedSnapshotReads.h"

#include "consul/ConsulSemaphoreStore.h"
#include "redis/RedisSemaphoreStore.h"

namespace semscope::model {

using namespace semscope::core;

QString connectionStateName(ConnectionController::State state) {
    switch (state) {
    case ConnectionController::State::Idle:
        return QStringLiteral("not connected");
    case ConnectionController::State::Connecting:
        return QStringLiteral("connecting");
    case ConnectionController::State::Connected:
        return QStringLiteral("connected");
    case ConnectionController::State::Lost:
        return QStringLiteral("lost");
    case ConnectionController::State::Reconnecting:
        return QStringLiteral("reconnecting");
    case ConnectionController::State::Failed:
        return QStringLiteral("failed");
    }
    return {};
}

QString atEndpoint(const QString &endpoint, const QString &message) {
    return message.contains(endpoint) ? message : QStringLiteral("%1: %2").arg(endpoint, message);
}

bool isAuthenticationFailure(const QString &message) {
    static const QStringList markers = {
        QStringLiteral("WRONGPASS"),          QStringLiteral("NOAUTH"),
        QStringLiteral("invalid password"),   QStringLiteral("authentication failed"),
        QStringLiteral("response code: 401"), QStringLiteral("response code: 403"),
        QStringLiteral("ACL not found"),      QStringLiteral("Permission denied")};
    for (const QString &m : markers) {
        if (message.contains(m, Qt::CaseInsensitive))
            return true;
    }
    return false;
}

ConnectionController::ConnectionController(ConnectionConfig config, core::StoreFactory factory,
                                           QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_factory(std::move(factory))
    , m_worker(new StoreWorker)
    , m_reads(new SharedSnapshotReads(
          [this](const SemaphoreRef &ref, Callback<Snapshot> done) { readFromStore(ref, std::move(done)); },
          {}, this)) {
    qRegisterMetaType<TopologyEvent>(); // crosses from the worker thread by queued signal
    m_thread.setObjectName(QStringLiteral("semscope-store:") + m_config.name.left(32));
    m_worker->moveToThread(&m_thread);
    m_connectDeadline.setSingleShot(true);
    m_connectDeadline.setInterval(kDefaultConnectDeadlineMs);
    connect(&m_connectDeadline, &QTimer::timeout, this, &ConnectionController::connectDeadlinePassed);
}

ConnectionController::~ConnectionController() {
    if (m_thread.isRunning()) {
        // The store and its sockets belong to the worker thread: destroy them there, then stop it.
        StoreWorker *worker = m_worker;
        QMetaObject::invokeMethod(
            worker, [worker] { worker->store.reset(); }, Qt::BlockingQueuedConnection);
        m_thread.quit();
        m_thread.wait();
    }
    delete m_worker;
}

void ConnectionController::open() {
    if (m_thread.isRunning())
        return;
    m_thread.start();
    setState(State::Connecting, QStringLiteral("connecting to %1").arg(m_config.endpoint()));
    StoreWorker *worker = m_worker;
    const bool readOnly = m_config.readOnly;
    auto factory = m_factory;
    QMetaObject::invokeMethod(
        worker,
        [this, worker, factory, readOnly] {
            std::unique_ptr<SemaphoreStore> store;
            QString error;
            try {
                store = factory ? factory() : nullptr;
            } catch (const std::exception &e) {
                error = QString::fromUtf8(e.what());
            }
            if (!store) {
                const QString why = error.isEmpty() ? QStringLiteral("could not create the store") : error;
                QMetaObject::invokeMethod(
                    this, [this, why] { setState(State::Failed, why); }, Qt::QueuedConnection);
                return;
            }
            store->setReadOnly(readOnly);
            // Queued by thread affinity: the controller lives on the GUI thread.
            connect(store.get(), &SemaphoreStore::connectionStateChanged, this,
                    &ConnectionController::applyStoreState);
            connect(store.get(), &SemaphoreStore::topologyEvent, this,
                    &ConnectionController::applyTopologyEvent);
            worker->store = std::move(store);
        },
        Qt::QueuedConnection);
}

void ConnectionController::applyStoreState(const QString &text) {
    if (m_needsCredentials)
        return; // the store is stopped; what it says while closing changes nothing
    const QString t = text.trimmed().toLower();
    if (t.startsWith(QLatin1String("connected"))) {
        m_lastFailure.clear();
        m_unreachableSince = {};
        setState(State::Connected, text);
    } else if (m_unreachableSince.isValid()) {
        // Still unreachable: each retry updates the reason and the next attempt, not the state.
        if (t.startsWith(QLatin1String("lost")) || t.startsWith(QLatin1String("disconnected"))) {
            const qsizetype colon = text.indexOf(QLatin1Char(':'));
            m_lastFailure = colon >= 0 ? text.mid(colon + 1).trimmed() : text;
            if (isAuthenticationFailure(m_lastFailure)) {
                failAuthentication(m_lastFailure);
                return;
            }
            setState(State::Failed, unreachableText({}));
        } else {
            setState(State::Failed, unreachableText(text)); // "reconnecting in 4 s", "connecting"…
        }
    } else if (t.startsWith(QLatin1String("reconnecting"))) {
        // "reconnecting in 5 s" alone hides why: the reason stays until an attempt succeeds.
        setState(State::Reconnecting, m_lastFailure.isEmpty()
                                          ? text
                                          : QStringLiteral("%1 — last attempt: %2").arg(text, m_lastFailure));
    } else if (t.startsWith(QLatin1String("connecting"))) {
        setState(State::Connecting, text);
    } else if (t.startsWith(QLatin1String("lost")) || t.startsWith(QLatin1String("disconnected"))) {
        const qsizetype colon = text.indexOf(QLatin1Char(':'));
        m_lastFailure = colon >= 0 ? text.mid(colon + 1).trimmed() : text;
        if (isAuthenticationFailure(m_lastFailure))
            failAuthentication(m_lastFailure);
        else
            setState(State::Lost, text);
    } else {
        setState(m_state, text);
    }
}

void ConnectionController::applyTopologyEvent(const TopologyEvent &event) {
    if (event.kind == TopologyEvent::Kind::MasterFound || event.kind == TopologyEvent::Kind::MasterSwitched) {
        if (!event.via.isEmpty())
            m_servingMaster = QStringLiteral("master %1 via sentinel %2").arg(event.to, event.via);
    }
    if (isFailoverEvent(event)) {
        m_topologyEvents << event;
        while (m_topologyEvents.size() > kMaxTopologyEvents)
            m_topologyEvents.removeFirst();
    }
    Q_EMIT topologyEvent(event);
}

void ConnectionController::setState(State state, const QString &text) {
    // Every attempt to connect has a deadline; reaching any other state ends it.
    if (state == State::Connecting || state == State::Reconnecting) {
        if (!m_connectDeadline.isActive())
            m_connectDeadline.start();
    } else if (state != State::Lost) {
        m_connectDeadline.stop();
    }
    if (state == m_state && text == m_stateText)
        return;
    m_state = state;
    m_stateText = text;
    Q_EMIT stateChanged(state, text);
}

void ConnectionController::connectDeadlinePassed() {
    if (m_state == State::Connected || m_state == State::Failed || m_state == State::Idle)
        return;
    m_unreachableSince = QDateTime::currentDateTime();
    setState(State::Failed, unreachableText({}));
}

QString ConnectionController::unreachableText(const QString &retry) const {
    // A refused connection is an answer: the host is there and nothing listens on the port (a wrong
    // port, or the server is down). "Did not answer" would send the operator after the network.
    const bool refused = m_lastFailure.contains(QLatin1String("refused"), Qt::CaseInsensitive);
    const QString since = m_unreachableSince.toString(QStringLiteral("HH:mm:ss"));
    QString text = refused
                       ? QStringLiteral("%1 refused the connection: nothing listens on that port "
                                        "(unreachable since %2); still trying")
                             .arg(m_config.endpoint(), since)
                       : QStringLiteral("%1 did not answer within %2 s (unreachable since %3); still trying")
                             .arg(m_config.endpoint())
                             .arg(m_connectDeadline.interval() / 1000.0)
                             .arg(since);
    if (!retry.isEmpty())
        text += QStringLiteral(", ") + retry;
    if (!m_lastFailure.isEmpty())
        text += QStringLiteral(" — last attempt: ") + m_lastFailure;
    return text;
}

void ConnectionController::failAuthentication(const QString &reason) {
    if (m_needsCredentials)
        return;
    m_needsCredentials = true;
    setState(State::Failed, QStringLiteral("%1 — the server refused the credentials. Not retrying: edit the "
                                           "connection to enter new ones.")
                                .arg(atEndpoint(m_config.endpoint(), reason)));
    // Retrying the same password only fills the server's log: close the connection on its thread
    // (pending calls fail at once with "not connected", no reconnect follows).
    StoreWorker *worker = m_worker;
    QMetaObject::invokeMethod(
        worker,
        [worker] {
            if (auto *redisStore = qobject_cast<redis::RedisSemaphoreStore *>(worker->store.get()))
                redisStore->connection().close();
        },
        Qt::QueuedConnection);
}

void ConnectionController::noteFailure(const QString &error) {
    if (isAuthenticationFailure(error)) {
        failAuthentication(error);
        return;
    }
    // A store without connection states (Consul) only says so through its answers.
    if (m_state == State::Connecting) {
        m_lastFailure = error;
        setState(State::Failed, atEndpoint(m_config.endpoint(), error));
    }
}

namespace {
QString noStoreMessage() {
    return QStringLiteral("not connected");
}
} // namespace

Cancellation ConnectionController::discover(const DiscoverRequest &request, QObject *context,
                                            Callback<DiscoverProgress> progress,
                                            Callback<DiscoverResult> done) {
    Cancellation cancel;
    QPointer<QObject> guard(context ? context : this);
    // Progress is posted back like results; it never counts as a pending operation of its own.
    auto progressOnGui = [this, guard, progress](DiscoverProgress p) {
        QMetaObject::invokeMethod(
            this,
            [guard, progress, p] {
                if (guard && progress)
                    progress(p);
            },
            Qt::QueuedConnection);
    };
    DiscoverResult noStore;
    noStore.error = noStoreMessage();
    call<DiscoverResult>(
        [request, cancel, progressOnGui](SemaphoreStore &store, Callback<DiscoverResult> cb) {
            store.discover(request, cancel, progressOnGui, cb);
        },
        noStore, context,
        [this, done](DiscoverResult r) {
            if (r.ok && m_state != State::Connected && !m_needsCredentials)
                setState(State::Connected, QStringLiteral("connected"));
            else if (!r.ok && !r.cancelled)
                noteFailure(r.error);
            done(r);
        });
    return cancel;
}

void ConnectionController::snapshot(const SemaphoreRef &ref, QObject *context, Callback<Snapshot> done,
                                    qint64 maxAgeMs) {
    QPointer<QObject> guard(context ? context : this);
    m_reads->read(
        ref, maxAgeMs,
        [guard, done = std::move(done)](const Snapshot &s) {
            if (guard)
                done(s);
        },
        context);
}

void ConnectionController::readFromStore(const SemaphoreRef &ref, Callback<Snapshot> done) {
    Snapshot noStore;
    noStore.ref = ref;
    noStore.warnings << noStoreMessage();
    call<Snapshot>([ref](SemaphoreStore &store, Callback<Snapshot> cb) { store.snapshot(ref, cb); }, noStore,
                   m_reads, std::move(done));
}

void ConnectionController::markChanged(const SemaphoreRef &ref) {
    m_reads->changed(ref);
}

quint64 ConnectionController::snapshotReadsIssued() const {
    return m_reads->readsIssued();
}

quint64 ConnectionController::snapshotReadsIssued(const SemaphoreRef &ref) const {
    return m_reads->readsIssued(ref);
}

template <typename R>
Callback<R> ConnectionController::changing(const SemaphoreRef &ref, Callback<R> done) {
    // Before the write is sent (a read sent after it on the same connection sees it) and when it is
    // answered (Consul's requests are not ordered): no snapshot read before the write is shared after.
    markChanged(ref);
    return [this, ref, done = std::move(done)](R result) {
        markChanged(ref);
        done(std::move(result));
    };
}

void ConnectionController::acquire(const SemaphoreRef &ref, const AcquireRequest &request,
                                   Cancellation cancel, QObject *context, Callback<AcquireResult> done) {
    AcquireResult noStore;
    noStore.error = noStoreMessage();
    call<AcquireResult>(
        [ref, request, cancel](SemaphoreStore &store, Callback<AcquireResult> cb) {
            store.acquire(ref, request, cancel, cb);
        },
        noStore, context, changing(ref, std::move(done)));
}

void ConnectionController::refresh(const Grant &grant, qint64 ttlMs, QObject *context,
                                   Callback<RefreshResult> done) {
    RefreshResult noStore;
    noStore.error = noStoreMessage();
    call<RefreshResult>([grant, ttlMs](SemaphoreStore &store,
                                       Callback<RefreshResult> cb) { store.refresh(grant, ttlMs, cb); },
                        noStore, context, changing(grant.ref, std::move(done)));
}

void ConnectionController::release(const Grant &grant, QObject *context, Callback<ReleaseResult> done) {
    ReleaseResult noStore;
    noStore.error = noStoreMessage();
    call<ReleaseResult>(
        [grant](SemaphoreStore &store, Callback<ReleaseResult> cb) { store.release(grant, cb); }, noStore,
        context, changing(grant.ref, std::move(done)));
}

void ConnectionController::forceRelease(const SemaphoreRef &ref, const Holder &observed,
                                        std::optional<qint64> observedVersion, QObject *context,
                                        Callback<ForceReleaseResult> done) {
    ForceReleaseResult noStore;
    noStore.message = noStoreMessage();
    call<ForceReleaseResult>(
        [ref, observed, observedVersion](SemaphoreStore &store, Callback<ForceReleaseResult> cb) {
            store.forceRelease(ref, observed, observedVersion, cb);
        },
        noStore, context, changing(ref, std::move(done)));
}

void ConnectionController::purgeExpired(const SemaphoreRef &ref, QObject *context,
                                        Callback<MaintenanceResult> done) {
    MaintenanceResult noStore;
    noStore.message = noStoreMessage();
    call<MaintenanceResult>(
        [ref](SemaphoreStore &store, Callback<MaintenanceResult> cb) { store.purgeExpired(ref, cb); },
        noStore, context, changing(ref, std::move(done)));
}

void ConnectionController::repair(const SemaphoreRef &ref, QObject *context,
                                  Callback<MaintenanceResult> done) {
    MaintenanceResult noStore;
    noStore.message = noStoreMessage();
    call<MaintenanceResult>(
        [ref](SemaphoreStore &store, Callback<MaintenanceResult> cb) { store.repair(ref, cb); }, noStore,
        context, changing(ref, std::move(done)));
}

void ConnectionController::setLimit(const SemaphoreRef &ref, qint64 limit, QObject *context,
                                    Callback<MaintenanceResult> done) {
    MaintenanceResult noStore;
    noStore.message = noStoreMessage();
    call<MaintenanceResult>([ref, limit](SemaphoreStore &store,
                                         Callback<MaintenanceResult> cb) { store.setLimit(ref, limit, cb); },
                            noStore, context, changing(ref, std::move(done)));
}

void ConnectionController::watch(const SemaphoreRef &ref, QObject *context, Callback<Snapshot> onChange) {
    QPointer<QObject> guard(context ? context : this);
    StoreWorker *worker = m_worker;
    auto toGui = [this, guard, onChange](Snapshot s) {
        QMetaObject::invokeMethod(
            this,
            [guard, onChange, s] {
                if (guard)
                    onChange(s);
            },
            Qt::QueuedConnection);
    };
    QMetaObject::invokeMethod(
        worker,
        [worker, ref, toGui] {
            if (auto *consulStore = qobject_cast<consul::ConsulSemaphoreStore *>(worker->store.get()))
                consulStore->watch(ref, toGui);
        },
        Qt::QueuedConnection);
}

void ConnectionController::unwatch(const SemaphoreRef &ref) {
    StoreWorker *worker = m_worker;
    QMetaObject::invokeMethod(
        worker,
        [worker, ref] {
            if (auto *consulStore = qobject_cast<consul::ConsulSemaphoreStore *>(worker->store.get()))
                consulStore->unwatch(ref);
        },
        Qt::QueuedConnection);
}

void ConnectionController::invalidateSession(const QString &sessionId, QObject *context,
                                             Callback<MaintenanceResult> done) {
    MaintenanceResult noStore;
    noStore.message = noStoreMessage();
    call<MaintenanceResult>(
        [sessionId](SemaphoreStore &store, Callback<MaintenanceResult> cb) {
            if (auto *consulStore = qobject_cast<consul::ConsulSemaphoreStore *>(&store)) {
                consulStore->invalidateSession(sessionId, cb);
                return;
            }
            MaintenanceResult r;
            r.message = QStringLiteral("only Consul connections have sessions");
            cb(r);
        },
        noStore, context, std::move(done));
}

} // namespace semscope::model
