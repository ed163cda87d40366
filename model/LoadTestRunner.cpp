#include "LoadTestRunner.h"

#include "core/audit/LoadTestAudit.h"
#include "redis/RedisSemaphoreStore.h"

namespace semscope::model {

LoadTestRunner::LoadTestRunner(QObject *parent)
    : QObject(parent) {}

LoadTestRunner::~LoadTestRunner() {
    ++m_generation; // a reset reply arriving while the store goes away finds nobody to call
    m_resetStore.reset();
}

QList<core::LoadTestReport> LoadTestRunner::reports() const {
    QList<core::LoadTestReport> list;
    for (const auto &engine : m_engines)
        list << (engine->isFinished() ? engine->report() : core::LoadTestReport());
    return list;
}

void LoadTestRunner::start(const QList<redis::PlannedRun> &runs) {
    if (m_running)
        return;
    ++m_generation;
    m_cancelled = false;
    m_scratch.reset(); // a plain load test: its keys are the operator's to keep
    m_labels.clear();
    for (const redis::PlannedRun &run : runs)
        m_labels << run.label;
    Q_EMIT started(m_labels);
    launch(runs);
}

void LoadTestRunner::startScenario(const redis::TrainingScenario &scenario, const core::LoadTestConfig &base,
                                   const redis::ConnectionSettings &settings, int raceWindowMs) {
    if (m_running)
        return;
    const int generation = ++m_generation;
    m_cancelled = false;
    m_running = true;
    m_engines.clear();
    const QList<redis::PlannedRun> runs = redis::scenarioRuns(scenario, base, settings, raceWindowMs);
    m_labels.clear();
    for (const redis::PlannedRun &run : runs)
        m_labels << run.label;
    Q_EMIT started(m_labels);

    // The reset goes over a connection of its own in this thread: asynchronous like every other
    // store call, and gone again before the runs start.
    m_scratch = Scratch{&scenario, base.ref.name, settings};
    m_resetStore = std::make_unique<redis::RedisSemaphoreStore>(settings);
    redis::resetScenarioSemaphores(*m_resetStore, scenario, base.ref.name,
                                   [this, generation, runs](const QString &error) {
                                       if (generation != m_generation)
                                           return;
                                       // Called from inside the store's reply handling: let it finish before
                                       // it goes.
                                       if (m_resetStore)
                                           m_resetStore.release()->deleteLater();
                                       if (!error.isEmpty() || m_cancelled) {
                                           // Nothing ran: nothing of the runs to remove.
                                           m_scratch.reset();
                                           m_running = false;
                                           if (!error.isEmpty())
                                               Q_EMIT failed(error);
                                           Q_EMIT finished();
                                           return;
                                       }
                                       launch(runs);
                                   });
}

void LoadTestRunner::launch(const QList<redis::PlannedRun> &runs) {
    m_running = true;
    m_engines.clear();
    for (int i = 0; i < runs.size(); ++i) {
        auto engine = std::make_unique<core::LoadTestEngine>(runs[i].config, runs[i].factory);
        engine->setLabel(runs[i].label);
        connect(engine.get(), &core::LoadTestEngine::progress, this,
                [this, i](const core::LoadTestProgress &p) { Q_EMIT progress(i, p); });
        connect(engine.get(), &core::LoadTestEngine::finished, this,
                [this, i](const core::LoadTestReport &r) {
                    if (m_audit)
                        m_audit->append(core::loadTestAuditEntry(m_auditConfig.auditLabel(),
                                                                 environmentName(m_auditConfig.environment),
                                                                 r, m_auditAction));
                    Q_EMIT runFinished(i, r);
                    onRunFinished();
                });
        m_engines.push_back(std::move(engine));
    }
    for (const auto &engine : m_engines)
        engine->start();
}

void LoadTestRunner::onRunFinished() {
    for (const auto &engine : m_engines)
        if (!engine->isFinished())
            return;
    if (m_scratch) {
        removeScratchKeys();
        return;
    }
    m_running = false;
    Q_EMIT finished();
}

void LoadTestRunner::removeScratchKeys() {
    const Scratch scratch = *m_scratch;
    m_scratch.reset();
    const int generation = m_generation;
    // Its own connection, like the reset before the runs: the engines' clients are gone by now.
    m_resetStore = std::make_unique<redis::RedisSemaphoreStore>(scratch.settings);
    const QString endpoint = m_resetStore->endpoint();
    redis::resetScenarioSemaphores(
        *m_resetStore, *scratch.scenario, scratch.name, [this, generation, endpoint](const QString &error) {
            if (generation != m_generation)
                return;
            if (m_resetStore)
                m_resetStore.release()->deleteLater(); // we are inside its reply handling
            m_running = false;
            if (!error.isEmpty())
                Q_EMIT keysLeft(tr("%1: the training run's keys were left: %2").arg(endpoint, error));
            Q_EMIT finished();
        });
}

void LoadTestRunner::setAudit(core::AuditLog *log, const ConnectionConfig &config, const QString &action) {
    m_audit = log;
    m_auditConfig = config;
    m_auditAction = action;
}

void LoadTestRunner::cancel() {
    if (!m_running)
        return;
    m_cancelled = true;
    for (const auto &engine : m_engines)
        engine->cancel();
}

} // namespace semscope::model
