#include "LoadTestWorker.h"

#include <algorithm>
#include <cmath>

namespace semscope::core {

namespace {
constexpr qint64 msNs = 1'000'000;
constexpr qint64 errorBackoffNs = 50 * msNs; // a dead server must not turn clients into a busy loop
constexpr int maxDirectDepth = 16;
constexpr int maxErrorSamples = 5;

int delayMs(qint64 ns) {
    return static_cast<int>(std::min<qint64>((ns + msNs - 1) / msNs, 24LL * 3600 * 1000));
}
} // namespace

LoadTestWorker::LoadTestWorker(int index, LoadTestConfig config, StoreFactory factory,
                               std::vector<ClientPlan> clients, int storeCount, LoadTestCounters *counters)
    : m_index(index)
    , m_config(std::move(config))
    , m_factory(std::move(factory))
    , m_storeCount(std::max(1, storeCount))
    , m_counters(counters)
    , m_rng(m_config.seed + static_cast<quint64>(index) * 0x9E3779B97F4A7C15ULL)
    , m_wakeOnRelease(!m_config.waits() && LoadTestConfig::kindNotifiesReleases(m_config.ref.kind)) {
    m_clients.resize(clients.size());
    for (size_t i = 0; i < clients.size(); ++i)
        m_clients[i].plan = clients[i];
    grantsPerClient = QList<qint64>(static_cast<qsizetype>(clients.size()), 0);
    crashedClients = QList<bool>(static_cast<qsizetype>(clients.size()), false);
}

LoadTestWorker::~LoadTestWorker() = default;

qint64 LoadTestWorker::marginNs() const {
    // Lease ends are computed by the server from its clock in whole milliseconds; keep a margin so
    // that a recorded interval never reaches past the true lease end.
    return 2 * msNs + m_config.ttlMs * msNs / 100;
}

void LoadTestWorker::setUp() {
    QString error;
    for (int s = 0; s < m_storeCount; ++s) {
        std::unique_ptr<SemaphoreStore> store = m_factory ? m_factory() : nullptr;
        if (!store) {
            error = QStringLiteral("could not create a store for worker %1").arg(m_index);
            break;
        }
        if (endpoint.isEmpty())
            endpoint = store->endpoint();
        m_stores.push_back(std::move(store));
    }
    if (error.isEmpty()) {
        for (size_t i = 0; i < m_clients.size(); ++i) {
            Client &c = m_clients[i];
            // The engine gave this worker the stores s with s % threads == index, and client k
            // uses store k % connections.
            const size_t store = static_cast<size_t>((c.plan.id % m_config.connections) / m_config.threads);
            c.store = m_stores[std::min(store, m_stores.size() - 1)].get();
            c.stepTimer = new QTimer(this);
            c.stepTimer->setSingleShot(true);
            c.stepTimer->setTimerType(Qt::PreciseTimer);
            const int ci = static_cast<int>(i);
            connect(c.stepTimer, &QTimer::timeout, this, [this, ci] {
                Client &cc = m_clients[static_cast<size_t>(ci)];
                if (cc.nextStep)
                    (this->*cc.nextStep)(ci);
            });
            c.refreshTimer = new QTimer(this);
            c.refreshTimer->setSingleShot(true);
            c.refreshTimer->setTimerType(Qt::PreciseTimer);
            connect(c.refreshTimer, &QTimer::timeout, this, [this, ci] { refresh(ci); });
        }
    }
    if (error.isEmpty() && m_wakeOnRelease) {
        // One store per worker listens: each release wakes one sleeper per worker, not one per store.
        m_hearsReleases = m_stores.front()->watchReleases(m_config.ref, [this] {
            if (!m_tearingDown)
                wakeOneRetrier();
        });
    }
    setupError = error;
    Q_EMIT ready(m_index, error);
}

void LoadTestWorker::setLimit(int limit) {
    if (m_stores.empty()) {
        Q_EMIT limitSet(QStringLiteral("no store"));
        return;
    }
    m_stores.front()->setLimit(m_config.ref, limit, [this](const MaintenanceResult &r) {
        if (m_tearingDown)
            return;
        Q_EMIT limitSet(r.ok ? QString() : r.message);
    });
}

void LoadTestWorker::probeLimit() {
    if (m_stores.empty()) {
        Q_EMIT limitProbed(-1);
        return;
    }
    m_stores.front()->snapshot(m_config.ref, [this](const Snapshot &s) {
        if (m_tearingDown)
            return;
        Q_EMIT limitProbed(s.limit && s.limitSource == LimitSource::Stored ? *s.limit : -1);
    });
}

void LoadTestWorker::go() {
    for (int i = 0; i < static_cast<int>(m_clients.size()); ++i)
        think(i);
}

void LoadTestWorker::schedule(int i, qint64 delayNs, Step step) {
    Client &c = m_clients[static_cast<size_t>(i)];
    if (delayNs <= 0 && m_depth < maxDirectDepth) {
        ++m_depth;
        (this->*step)(i);
        --m_depth;
        return;
    }
    c.nextStep = step;
    c.stepTimer->start(delayMs(std::max<qint64>(delayNs, 0)));
}

void LoadTestWorker::think(int i) {
    Client &c = m_clients[static_cast<size_t>(i)];
    if (m_counters->stopping.load()) {
        finishClient(i);
        return;
    }
    c.state = State::Thinking;
    schedule(i, m_config.think.sampleNs(m_rng), &LoadTestWorker::beginAcquire);
}

void LoadTestWorker::beginAcquire(int i) {
    Client &c = m_clients[static_cast<size_t>(i)];
    c.retryPause = false;
    if (m_counters->stopping.load()) {
        finishClient(i);
        return;
    }
    if (m_config.ops > 0 && !c.pairBegun) {
        if (!beginPair()) {
            // Every remaining pair is being done by another client; wait in case one of them
            // crashes and hands its pair back, until the run stops.
            c.state = State::Thinking;
            schedule(i, std::max<qint64>(m_config.retry.sampleNs(m_rng), 1'000'000),
                     &LoadTestWorker::beginAcquire);
            return;
        }
        c.pairBegun = true;
    }
    c.state = State::Acquiring;
    const qint64 now = m_counters->nowNs();
    if (c.waitStartNs < 0)
        c.waitStartNs = now;
    c.cancel = Cancellation();
    AcquireRequest request;
    request.holder = c.plan.holder;
    request.ttlMs = m_config.ttlMs;
    request.waitMs = m_config.waitMs;
    request.clientClockSkewMs = c.plan.skewMs;
    request.replicas = m_config.replicas;
    request.replicaTimeoutMs = m_config.replicaTimeoutMs;
    c.sentNs = now;
    c.store->acquire(m_config.ref, request, c.cancel,
                     [this, i](const AcquireResult &r) { onAcquired(i, r); });
}

bool LoadTestWorker::beginPair() {
    qint64 begun = m_counters->pairsBegun.load();
    while (begun < m_config.ops) {
        if (m_counters->pairsBegun.compare_exchange_weak(begun, begun + 1))
            return true;
    }
    return false;
}

void LoadTestWorker::onAcquired(int i, const AcquireResult &result) {
    if (m_tearingDown)
        return;
    Client &c = m_clients[static_cast<size_t>(i)];
    const qint64 received = m_counters->nowNs();
    acquireLatency.record(received - c.sentNs);
    m_counters->attempts.fetch_add(std::max(1, result.attempts));

    switch (result.status) {
    case AcquireResult::Status::Granted: {
        m_counters->grants.fetch_add(1);
        const int holders = m_counters->holders.fetch_add(1) + 1;
        int seen = m_counters->maxHolders.load();
        while (holders > seen && !m_counters->maxHolders.compare_exchange_weak(seen, holders)) {
        }
        if (holders == m_config.limit + 1)
            m_counters->liveOverAdmissions.fetch_add(1);
        // Crashed clients' slots that this grant proves back: no more of them can still be taken
        // than the limit leaves beside the holders (CrashRecovery's rule).
        const int mayStillBeTaken = std::max(0, m_config.limit - holders);
        int crashed = m_counters->crashedSlots.load();
        while (crashed > mayStillBeTaken &&
               !m_counters->crashedSlots.compare_exchange_weak(crashed, mayStillBeTaken)) {
        }
        const qint64 wait = received - c.waitStartNs;
        acquireWait.record(wait);
        {
            std::lock_guard lock(statsMutex);
            waitWindow.record(wait);
        }
        longestWaitNs = std::max(longestWaitNs, wait);
        c.waitStartNs = -1;
        ++grantsPerClient[i];

        c.grant = result.grant;
        c.grantNs = received;
        c.validUntilNs = c.sentNs + m_config.ttlMs * msNs - marginNs();
        c.state = State::Holding;
        if (m_counters->stopping.load()) {
            endHold(i);
            return;
        }
        if (c.plan.crasher && !c.crashing && received >= c.plan.crashAfterNs)
            c.crashing = true;
        const qint64 hold = m_config.hold.sampleNs(m_rng);
        const qint64 refreshNs = m_config.refreshIntervalMs * msNs;
        if (hold > refreshNs)
            c.refreshTimer->start(delayMs(refreshNs));
        schedule(i, hold, c.crashing ? &LoadTestWorker::vanish : &LoadTestWorker::endHold);
        return;
    }
    case AcquireResult::Status::Busy: {
        m_counters->busy.fetch_add(1);
        if (m_counters->stopping.load()) {
            finishClient(i);
            return;
        }
        c.state = State::Thinking;
        // A waiting acquire that came back Busy after waiting its time asks again at once; a store
        // that answered sooner (it does not wait, like the training scenarios) gets the back-off,
        // so it is not hammered in a tight loop.
        const bool waited = m_config.waitMs > 0 && received - c.sentNs >= m_config.waitMs * msNs / 2;
        if (waited)
            schedule(i, 0, &LoadTestWorker::beginAcquire);
        else
            pauseForRetry(i);
        return;
    }
    case AcquireResult::Status::Error:
        if (m_counters->stopping.load()) {
            finishClient(i); // cancelled waits end here
            return;
        }
        if (isFailoverInterruption(result.error)) {
            // The acquire may have run on the old master (and reached the new one): give back
            // whatever this holder may have, then ask again.
            m_counters->failoverInterruptions.fetch_add(1);
            c.state = State::Thinking;
            Grant maybe;
            maybe.ref = m_config.ref;
            maybe.holder = c.plan.holder;
            c.store->release(maybe, [this, i](const ReleaseResult &) {
                if (m_tearingDown)
                    return;
                schedule(i, m_config.retry.sampleNs(m_rng), &LoadTestWorker::beginAcquire);
            });
            return;
        }
        if (m_config.replicas > 0 && isReplicationRefusal(result.error)) {
            // The store gave the grant back: nothing is held. Ask again after a pause, as when busy.
            m_counters->replicationRefusals.fetch_add(1);
            c.state = State::Thinking;
            schedule(i, m_config.retry.sampleNs(m_rng), &LoadTestWorker::beginAcquire);
            return;
        }
        m_counters->errors.fetch_add(1);
        noteError(result.error);
        c.state = State::Thinking;
        schedule(i, std::max(errorBackoffNs, m_config.retry.sampleNs(m_rng)), &LoadTestWorker::beginAcquire);
        return;
    }
}

void LoadTestWorker::refresh(int i) {
    Client &c = m_clients[static_cast<size_t>(i)];
    if (c.state != State::Holding)
        return;
    const qint64 sent = m_counters->nowNs();
    const qint64 grantNs = c.grantNs;
    m_counters->refreshes.fetch_add(1);
    c.store->refresh(c.grant, m_config.ttlMs, [this, i, sent, grantNs](const RefreshResult &r) {
        if (m_tearingDown)
            return;
        Client &cc = m_clients[static_cast<size_t>(i)];
        if (cc.state != State::Holding || cc.grantNs != grantNs)
            return; // that hold is over already
        switch (r.status) {
        case RefreshResult::Status::Ok:
            cc.validUntilNs = std::max(cc.validUntilNs, sent + m_config.ttlMs * msNs - marginNs());
            if (r.expiresAtMs)
                cc.grant.expiresAtMs = r.expiresAtMs;
            cc.refreshTimer->start(delayMs(m_config.refreshIntervalMs * msNs));
            return;
        case RefreshResult::Status::Lost:
            // The lease is gone. When exactly is unknown; it held at least until validUntil and
            // until this refresh was sent, whichever came first.
            m_counters->lostRefreshes.fetch_add(1);
            cc.stepTimer->stop();
            closeInterval(i, std::min(sent, cc.validUntilNs), false);
            m_counters->holders.fetch_sub(1);
            cc.crashing = false;
            think(i);
            return;
        case RefreshResult::Status::Error:
            if (isFailoverInterruption(r.error)) {
                m_counters->failoverInterruptions.fetch_add(1);
            } else {
                m_counters->errors.fetch_add(1);
                noteError(r.error);
            }
            cc.refreshTimer->start(delayMs(m_config.refreshIntervalMs * msNs));
            return;
        }
    });
}

void LoadTestWorker::endHold(int i) {
    Client &c = m_clients[static_cast<size_t>(i)];
    if (c.state != State::Holding)
        return;
    c.stepTimer->stop();
    c.refreshTimer->stop();
    c.state = State::Releasing;
    const qint64 sent = m_counters->nowNs();
    // The interval ends when the release goes out, or earlier if the lease may have run out.
    closeInterval(i, std::min(sent, c.validUntilNs), false);
    m_counters->holders.fetch_sub(1);
    c.store->release(c.grant, [this, i, sent](const ReleaseResult &r) {
        if (m_tearingDown)
            return;
        releaseLatency.record(m_counters->nowNs() - sent);
        const auto next = [this, i] {
            m_clients[static_cast<size_t>(i)].pairBegun = false;
            const qint64 done = m_counters->pairsDone.fetch_add(1) + 1;
            if (m_config.ops > 0 && done == m_config.ops)
                Q_EMIT opsReached();
            think(i);
        };
        switch (r.status) {
        case ReleaseResult::Status::Ok:
            m_counters->releases.fetch_add(1);
            if (!m_hearsReleases)
                wakeOneRetrier(); // else the notification of this release does it

            break;
        case ReleaseResult::Status::NotHeld:
            m_counters->notHeld.fetch_add(1);
            break;
        case ReleaseResult::Status::Error:
            if (isFailoverInterruption(r.error)) {
                // It may not have run: release again on the new master (compare-and-act on the
                // same grant, so a release that did run just finds nothing), else the slot stays
                // taken until its lease ends and this client's next acquire finds itself holding.
                m_counters->failoverInterruptions.fetch_add(1);
                Client &cc = m_clients[static_cast<size_t>(i)];
                cc.store->release(cc.grant, [this, next](const ReleaseResult &) {
                    if (!m_tearingDown)
                        next();
                });
                return;
            }
            m_counters->errors.fetch_add(1);
            noteError(r.error);
            break;
        }
        next();
    });
}

void LoadTestWorker::pauseForRetry(int i) {
    Client &c = m_clients[static_cast<size_t>(i)];
    const qint64 pause = m_config.retry.sampleNs(m_rng);
    if (!m_wakeOnRelease || pause <= 0) {
        schedule(i, pause, &LoadTestWorker::beginAcquire);
        return;
    }
    c.retryPause = true;
    ++c.pauseSeq;
    if (m_retrySleepers.size() > 2 * m_clients.size() + 16) {
        // Pauses that ended by themselves leave their entries behind: drop them.
        std::erase_if(m_retrySleepers, [this](const std::pair<int, quint64> &e) {
            const Client &s = m_clients[static_cast<size_t>(e.first)];
            return !s.retryPause || s.pauseSeq != e.second;
        });
    }
    m_retrySleepers.emplace_back(i, c.pauseSeq);
    c.nextStep = &LoadTestWorker::beginAcquire;
    c.stepTimer->start(delayMs(pause));
}

// A release freed a slot: on a kind that tells its clients so, a retrying client listening to that
// notification asks again now rather than at the end of its pause. The client that has paused
// longest goes. The release may come from any worker or process (the store's notification), or,
// with a store that has none, from this worker's own clients.
void LoadTestWorker::wakeOneRetrier() {
    if (!m_wakeOnRelease || m_counters->stopping.load())
        return;
    while (!m_retrySleepers.empty()) {
        const auto [i, seq] = m_retrySleepers.front();
        m_retrySleepers.pop_front();
        Client &c = m_clients[static_cast<size_t>(i)];
        if (!c.retryPause || c.pauseSeq != seq || c.state != State::Thinking)
            continue;
        c.stepTimer->stop();
        m_counters->retryWakes.fetch_add(1);
        schedule(i, 0, &LoadTestWorker::beginAcquire);
        return;
    }
}

void LoadTestWorker::vanish(int i) {
    Client &c = m_clients[static_cast<size_t>(i)];
    if (c.state != State::Holding)
        return;
    // A crash: no more refreshes, no release. The slot stays taken until the layout reclaims it.
    c.stepTimer->stop();
    c.refreshTimer->stop();
    closeInterval(i, std::min(m_counters->nowNs(), c.validUntilNs), true);
    m_counters->holders.fetch_sub(1);
    m_counters->crashes.fetch_add(1);
    m_counters->crashedSlots.fetch_add(1);
    if (c.pairBegun) {
        c.pairBegun = false; // a crash does not finish its pair: another client does it
        m_counters->pairsBegun.fetch_sub(1);
    }
    c.crashed = true;
    crashedClients[i] = true;
    finishClient(i);
}

void LoadTestWorker::closeInterval(int i, qint64 endNs, bool crashed) {
    const Client &c = m_clients[static_cast<size_t>(i)];
    HoldInterval iv;
    iv.client = c.plan.id;
    iv.holder = c.grant.holder.isEmpty() ? c.plan.holder : c.grant.holder;
    iv.sentNs = c.sentNs;
    iv.startNs = c.grantNs;
    iv.endNs = endNs;
    iv.token = c.grant.token;
    iv.crashed = crashed;
    intervals.append(iv);
}

void LoadTestWorker::finishClient(int i) {
    Client &c = m_clients[static_cast<size_t>(i)];
    if (c.state == State::Done)
        return;
    c.stepTimer->stop();
    c.refreshTimer->stop();
    c.state = State::Done;
    ++m_done;
    checkDrained();
}

void LoadTestWorker::checkDrained() {
    if (m_drainedSent || !m_counters->stopping.load() || m_done < static_cast<int>(m_clients.size()))
        return;
    m_drainedSent = true;
    Q_EMIT drained(m_index);
}

void LoadTestWorker::stop() {
    for (int i = 0; i < static_cast<int>(m_clients.size()); ++i) {
        Client &c = m_clients[static_cast<size_t>(i)];
        switch (c.state) {
        case State::Idle:
        case State::Thinking:
            finishClient(i);
            break;
        case State::Holding:
            // Crashers that have not vanished yet release like everybody else: the run is over.
            endHold(i);
            break;
        case State::Acquiring:
            c.cancel.cancel(); // its callback finishes the client
            break;
        case State::Releasing:
        case State::Done:
            break;
        }
    }
    checkDrained();
}

void LoadTestWorker::tearDown(QThread *backTo) {
    m_tearingDown = true;
    for (Client &c : m_clients) {
        if (c.stepTimer)
            c.stepTimer->stop();
        if (c.refreshTimer)
            c.refreshTimer->stop();
    }
    // Stores die in the thread they lived in; their pending callbacks see m_tearingDown.
    m_stores.clear();
    for (Client &c : m_clients)
        c.store = nullptr;
    moveToThread(backTo);
    QThread::currentThread()->quit();
}

void LoadTestWorker::noteError(const QString &message) {
    if (errorSamples.size() >= maxErrorSamples || errorSamples.contains(message))
        return;
    errorSamples.append(message);
}

} // namespace semscope::core
