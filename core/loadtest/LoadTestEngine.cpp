#include "LoadTestEngine.h"

#include "core/Kind.h"

#include <QRandomGenerator>
#include <QThread>
#include <algorithm>
#include <limits>
#include <random>

namespace semscope::core {

namespace {
constexpr qint64 msNs = 1'000'000;
// Tearing a worker down only destroys its stores; if that takes longer, something is wedged and
// leaking the thread is better than hanging the caller for ever.
constexpr int tearDownWaitMs = 30'000;
} // namespace

LoadTestEngine::LoadTestEngine(LoadTestConfig config, StoreFactory factory, QObject *parent)
    : QObject(parent)
    , m_config(config.normalized())
    , m_factory(std::move(factory)) {
    qRegisterMetaType<LoadTestProgress>();
    qRegisterMetaType<LoadTestReport>();
    m_label = kindName(m_config.ref.kind);
    m_sampleTimer.setInterval(progressIntervalMs);
    connect(&m_sampleTimer, &QTimer::timeout, this, &LoadTestEngine::takeSample);
    m_endTimer.setSingleShot(true);
    m_endTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_endTimer, &QTimer::timeout, this, [this] { endRun(false); });
    m_drainTimer.setSingleShot(true);
    connect(&m_drainTimer, &QTimer::timeout, this, &LoadTestEngine::collect);
    m_probeTimer.setSingleShot(true);
    connect(&m_probeTimer, &QTimer::timeout, this, [this] { onLimitProbed(-1); });
}

LoadTestEngine::~LoadTestEngine() {
    if (m_collector) {
        // Mid-collection: the workers are already told to stop; the collector joins them.
        m_collector->wait();
    } else if (m_phase != Phase::Idle && m_phase != Phase::Done) {
        // Destroyed mid-run: stop the workers without waiting for clients to release.
        m_counters.stopping.store(true);
        for (size_t i = 0; i < m_workers.size(); ++i)
            QMetaObject::invokeMethod(
                m_workers[i], [w = m_workers[i], back = QThread::currentThread()] { w->tearDown(back); },
                Qt::QueuedConnection);
        for (QThread *t : m_threads)
            t->wait(tearDownWaitMs);
    }
    deleteStoppedWorkers();
}

void LoadTestEngine::deleteStoppedWorkers() {
    for (size_t i = 0; i < m_threads.size(); ++i) {
        if (m_threads[i]->isFinished()) {
            delete m_workers[i];
            delete m_threads[i];
        }
    }
    m_workers.clear();
    m_threads.clear();
}

std::vector<LoadTestWorker::ClientPlan> LoadTestEngine::planClients() const {
    std::mt19937_64 rng(m_config.seed);
    std::vector<LoadTestWorker::ClientPlan> plans(static_cast<size_t>(m_config.clients));
    for (int i = 0; i < m_config.clients; ++i) {
        auto &p = plans[static_cast<size_t>(i)];
        p.id = i;
        p.holder = QStringLiteral("%1-c%2").arg(m_config.holderPrefix).arg(i);
        if (m_config.skewMs > 0)
            p.skewMs = std::uniform_int_distribution<qint64>(-m_config.skewMs, m_config.skewMs)(rng);
    }
    // Crashers: a fixed share, picked at random. Each crashes while holding its first grant after a
    // random moment early in the run, so the rest of the run shows recovery.
    const int crashers = static_cast<int>(std::lround(m_config.crashRate * m_config.clients));
    std::vector<int> order(static_cast<size_t>(m_config.clients));
    for (int i = 0; i < m_config.clients; ++i)
        order[static_cast<size_t>(i)] = i;
    std::shuffle(order.begin(), order.end(), rng);
    for (int k = 0; k < crashers; ++k) {
        auto &p = plans[static_cast<size_t>(order[static_cast<size_t>(k)])];
        p.crasher = true;
        const qint64 window = m_config.crashWindowMs > 0 ? m_config.crashWindowMs
                              : m_config.ops <= 0        ? m_config.durationMs / 2
                                                         : 0;
        if (window > 0)
            p.crashAfterNs = std::uniform_int_distribution<qint64>(0, window * msNs)(rng);
    }
    return plans;
}

void LoadTestEngine::start() {
    if (m_phase != Phase::Idle)
        return;
    m_report = LoadTestReport();
    m_report.config = m_config;
    m_report.label = m_label;
    if (const QString problem = m_config.validate(); !problem.isEmpty()) {
        fail(problem);
        return;
    }
    if (!m_factory) {
        fail(QStringLiteral("no store to run against"));
        return;
    }

    const int threads = m_config.threads;
    const auto plans = planClients();
    // Store s serves clients s, s + C, s + 2C, ...; worker w owns stores w, w + T, w + 2T, ...
    std::vector<std::vector<LoadTestWorker::ClientPlan>> perWorker(static_cast<size_t>(threads));
    std::vector<int> storesPerWorker(static_cast<size_t>(threads), 0);
    for (int s = 0; s < m_config.connections; ++s)
        ++storesPerWorker[static_cast<size_t>(s % threads)];
    for (const auto &p : plans) {
        const int store = p.id % m_config.connections;
        perWorker[static_cast<size_t>(store % threads)].push_back(p);
    }

    m_phase = Phase::SettingUp;
    for (int w = 0; w < threads; ++w) {
        auto *thread = new QThread;
        thread->setObjectName(QStringLiteral("loadtest-%1").arg(w));
        auto *worker = new LoadTestWorker(w, m_config, m_factory, perWorker[static_cast<size_t>(w)],
                                          storesPerWorker[static_cast<size_t>(w)], &m_counters);
        worker->moveToThread(thread);
        connect(worker, &LoadTestWorker::ready, this, &LoadTestEngine::onWorkerReady);
        connect(worker, &LoadTestWorker::limitSet, this, &LoadTestEngine::onLimitSet);
        connect(worker, &LoadTestWorker::limitProbed, this, &LoadTestEngine::onLimitProbed);
        connect(worker, &LoadTestWorker::drained, this, &LoadTestEngine::onWorkerDrained);
        connect(worker, &LoadTestWorker::opsReached, this, [this] { endRun(false); });
        m_threads.push_back(thread);
        m_workers.push_back(worker);
        thread->start();
        QMetaObject::invokeMethod(worker, &LoadTestWorker::setUp, Qt::QueuedConnection);
    }
}

void LoadTestEngine::onWorkerReady(int, const QString &error) {
    if (m_phase != Phase::SettingUp)
        return;
    if (!error.isEmpty() && m_setupError.isEmpty())
        m_setupError = error;
    if (++m_readyCount < static_cast<int>(m_workers.size()))
        return;
    if (!m_setupError.isEmpty()) {
        m_report.error = m_setupError;
        m_counters.stopping.store(true);
        collect();
        return;
    }
    if (m_cancelled) {
        m_counters.stopping.store(true);
        collect();
        return;
    }
    if (m_config.setLimitFirst) {
        m_phase = Phase::SettingLimit;
        const int limit = m_config.limit;
        QMetaObject::invokeMethod(
            m_workers.front(), [w = m_workers.front(), limit] { w->setLimit(limit); }, Qt::QueuedConnection);
        return;
    }
    probeLimit();
}

void LoadTestEngine::onLimitSet(const QString &error) {
    if (m_phase != Phase::SettingLimit)
        return;
    if (!error.isEmpty()) {
        m_report.error = QStringLiteral("setting the limit failed: ") + error;
        m_counters.stopping.store(true);
        collect();
        return;
    }
    if (m_cancelled) {
        m_counters.stopping.store(true);
        collect();
        return;
    }
    probeLimit();
}

// Safety is judged against the limit the semaphore really enforces: a semaphore that stores its
// limit (leased, an initialised slots layout) and was created earlier with another one keeps it.
void LoadTestEngine::probeLimit() {
    m_phase = Phase::Probing;
    QMetaObject::invokeMethod(m_workers.front(), &LoadTestWorker::probeLimit, Qt::QueuedConnection);
    m_probeTimer.start(10'000);
}

void LoadTestEngine::onLimitProbed(qint64 storedLimit) {
    if (m_phase != Phase::Probing)
        return;
    m_probeTimer.stop();
    if (storedLimit > 0 && storedLimit != m_config.limit) {
        m_report.notes << QStringLiteral(
                              "the semaphore stores a limit of %1, not the %2 asked for; judged against %1")
                              .arg(storedLimit)
                              .arg(m_config.limit);
        m_config.limit = static_cast<int>(std::min<qint64>(storedLimit, std::numeric_limits<int>::max()));
        m_report.config.limit = m_config.limit;
    }
    if (m_cancelled) {
        m_counters.stopping.store(true);
        collect();
        return;
    }
    beginRun();
}

void LoadTestEngine::beginRun() {
    m_phase = Phase::Running;
    m_counters.origin = std::chrono::steady_clock::now();
    m_goNs = 0;
    m_lastSampleNs = 0;
    for (LoadTestWorker *w : m_workers)
        QMetaObject::invokeMethod(w, &LoadTestWorker::go, Qt::QueuedConnection);
    m_sampleTimer.start();
    if (m_config.ops <= 0)
        m_endTimer.start(static_cast<int>(std::min<qint64>(m_config.durationMs, 24LL * 3600 * 1000)));
}

void LoadTestEngine::cancel() {
    m_cancelled = true;
    if (m_phase == Phase::Running)
        endRun(true);
}

void LoadTestEngine::endRun(bool cancelled) {
    if (m_phase != Phase::Running)
        return;
    m_stopNs = m_counters.nowNs();
    m_grantsAtStop = m_counters.grants.load();
    m_counters.stopping.store(true);
    m_report.cancelled = cancelled;
    m_endTimer.stop();
    takeSample();
    m_sampleTimer.stop();
    m_phase = Phase::Draining;
    for (LoadTestWorker *w : m_workers)
        QMetaObject::invokeMethod(w, &LoadTestWorker::stop, Qt::QueuedConnection);
    m_drainTimer.start(static_cast<int>(std::clamp<qint64>(m_config.drainTimeoutMs, 1, 24LL * 3600 * 1000)));
}

void LoadTestEngine::onWorkerDrained(int) {
    if (m_phase != Phase::Draining)
        return;
    if (++m_drainedCount >= static_cast<int>(m_workers.size()))
        collect();
}

void LoadTestEngine::takeSample() {
    const qint64 now = m_counters.nowNs();
    LatencyHistogram window;
    for (LoadTestWorker *w : m_workers) {
        std::lock_guard lock(w->statsMutex);
        window.merge(w->waitWindow);
        w->waitWindow.clear();
    }
    LoadTestProgress p;
    p.elapsedMs = now / msNs;
    p.windowMs = (now - m_lastSampleNs) / msNs;
    const qint64 grants = m_counters.grants.load();
    if (now > m_lastSampleNs)
        p.pairsPerSecond = static_cast<double>(grants - m_lastSampleGrants) * 1e9 /
                           static_cast<double>(now - m_lastSampleNs);
    p.acquireP50Ms = window.percentileMs(50);
    p.acquireP90Ms = window.percentileMs(90);
    p.acquireP99Ms = window.percentileMs(99);
    p.acquireMaxMs = window.maxMs();
    p.grants = grants;
    p.attempts = m_counters.attempts.load();
    p.busyReplies = m_counters.busy.load();
    p.errors = m_counters.errors.load();
    p.refusedGrants = m_counters.replicationRefusals.load();
    p.crashes = m_counters.crashes.load();
    p.crashedSlots = m_counters.crashedSlots.load();
    p.holders = m_counters.holders.load();
    p.maxHolders = m_counters.maxHolders.load();
    p.limit = m_config.limit;
    p.overAdmissions = m_counters.liveOverAdmissions.load();
    if (grants > m_lastSampleGrants || m_lastGrantNs < 0) {
        m_lastGrantNs = now;
        m_errorsAtLastGrant = p.errors + p.refusedGrants;
    }
    m_lastSampleNs = now;
    m_lastSampleGrants = grants;
    m_report.timeline.append(p);
    Q_EMIT progress(p);
    // Nobody granted for the give-up time, and operations failed meanwhile: the server is gone.
    // (Clients may spend most of that time waiting on calls that fail only at their timeout.)
    if (m_phase == Phase::Running && !m_counters.stopping.load() && m_config.ops > 0 &&
        p.errors + p.refusedGrants > m_errorsAtLastGrant &&
        now - m_lastGrantNs >= m_config.stallTimeoutMs * msNs) {
        m_report.error = QStringLiteral("nobody was granted for %1 s while operations failed: the server "
                                        "is unavailable; stopped before %2 operations")
                             .arg(m_config.stallTimeoutMs / 1000.0)
                             .arg(m_config.ops);
        endRun(false);
    }
}

void LoadTestEngine::collect() {
    if (m_phase == Phase::Done || m_phase == Phase::Collecting)
        return;
    m_drainTimer.stop();
    m_probeTimer.stop();
    m_sampleTimer.stop();
    m_endTimer.stop();
    const qint64 endNs = m_counters.nowNs();
    const bool drainedCleanly =
        m_phase == Phase::Draining && m_drainedCount >= static_cast<int>(m_workers.size());
    const bool ran = m_phase == Phase::Draining;
    m_phase = Phase::Collecting;

    for (LoadTestWorker *w : m_workers)
        QMetaObject::invokeMethod(
            w, [w, back = thread()] { w->tearDown(back); }, Qt::QueuedConnection);
    // Joining the worker threads and checking every recorded hold interval take a while after a
    // long run (a million intervals to sort): a thread of their own does it, so the thread that
    // drives the engine — the GUI's — never waits. Nothing touches the workers meanwhile.
    m_collector.reset(
        QThread::create([this, endNs, ran, drainedCleanly] { summarize(endNs, ran, drainedCleanly); }));
    m_collector->setObjectName(QStringLiteral("loadtest-collect"));
    connect(m_collector.get(), &QThread::finished, this, &LoadTestEngine::publish);
    m_collector->start();
}

void LoadTestEngine::summarize(qint64 endNs, bool ran, bool drainedCleanly) {
    bool allStopped = true;
    for (QThread *t : m_threads)
        allStopped = t->wait(tearDownWaitMs) && allStopped;

    LoadTestReport &r = m_report;
    r.cancelled = r.cancelled || m_cancelled;
    r.ok = ran && r.error.isEmpty();
    if (!allStopped) {
        r.ok = false;
        r.error = QStringLiteral("a worker thread did not stop; its results are missing");
    } else {
        SafetyChecker safety(m_config.limit);
        QList<qint64> fairGrants;
        QList<HoldInterval> all;
        for (LoadTestWorker *w : m_workers) {
            if (r.endpoint.isEmpty())
                r.endpoint = w->endpoint;
            r.acquireWait.merge(w->acquireWait);
            r.acquireLatency.merge(w->acquireLatency);
            r.releaseLatency.merge(w->releaseLatency);
            all.append(w->intervals);
            r.longestWaitNs = std::max(r.longestWaitNs, w->longestWaitNs);
            for (qsizetype i = 0; i < w->grantsPerClient.size(); ++i)
                if (!w->crashedClients[i])
                    fairGrants.append(w->grantsPerClient[i]);
            for (const QString &e : std::as_const(w->errorSamples))
                if (r.errorSamples.size() < 5 && !r.errorSamples.contains(e))
                    r.errorSamples.append(e);
        }
        safety.add(all);
        r.safety = safety.check();
        r.recovery = analyzeCrashRecovery(all, m_config.limit, endNs);
        r.fairness = summarizeFairness(fairGrants);
    }
    if (ran && !drainedCleanly && r.error.isEmpty())
        r.errorSamples.append(QStringLiteral("some clients did not finish within the drain timeout"));

    r.elapsedMs = (m_stopNs - m_goNs) / msNs;
    r.grants = ran ? m_grantsAtStop : 0;
    r.releases = m_counters.releases.load();
    r.attempts = m_counters.attempts.load();
    r.busyReplies = m_counters.busy.load();
    r.errors = m_counters.errors.load();
    r.refreshes = m_counters.refreshes.load();
    r.lostRefreshes = m_counters.lostRefreshes.load();
    r.failoverInterruptions = m_counters.failoverInterruptions.load();
    r.refusedGrants = m_counters.replicationRefusals.load();
    r.notHeldReleases = m_counters.notHeld.load();
    r.retryWakes = m_counters.retryWakes.load();
    if (m_stopNs > m_goNs)
        r.pairsPerSecond = static_cast<double>(r.grants) * 1e9 / static_cast<double>(m_stopNs - m_goNs);
    const qint64 allGrants = m_counters.grants.load();
    r.attemptsPerGrant =
        allGrants > 0 ? static_cast<double>(r.attempts) / static_cast<double>(allGrants) : 0.0;
}

void LoadTestEngine::publish() {
    m_collector->wait();
    m_collector.reset();
    deleteStoppedWorkers();
    m_phase = Phase::Done;
    Q_EMIT finished(m_report);
}

void LoadTestEngine::fail(const QString &error) {
    m_phase = Phase::Done;
    m_report.ok = false;
    m_report.error = error;
    // Let the caller connect to finished() after start() returned.
    QMetaObject::invokeMethod(
        this, [this] { Q_EMIT finished(m_report); }, Qt::QueuedConnection);
}

} // namespace semscope::core
