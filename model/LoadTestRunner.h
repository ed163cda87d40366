#pragma once

#include "ConnectionConfig.h"
#include "core/audit/AuditLog.h"
#include "core/loadtest/LoadTestEngine.h"
#include "training/ScenarioRuns.h"

#include <QObject>
#include <memory>
#include <optional>
#include <vector>

namespace semscope::redis {
class RedisSemaphoreStore;
}

namespace semscope::model {

// Runs one or more load tests at the same time (a plain run, or a training scenario's unsafe and
// atomic runs side by side) and reports each run's samples and report by its index. Nothing here
// waits: a scenario first resets its scratch semaphores with one asynchronous DEL, then every
// engine starts; cancel() asks the engines to stop and finished() follows when they have.
class LoadTestRunner : public QObject {
    Q_OBJECT
public:
    explicit LoadTestRunner(QObject *parent = nullptr);
    ~LoadTestRunner() override;

    void start(const QList<redis::PlannedRun> &runs);
    void startScenario(const redis::TrainingScenario &scenario, const core::LoadTestConfig &base,
                       const redis::ConnectionSettings &settings, int raceWindowMs = -1);
    void cancel();
    // Every finished run is written to `log` (not owned; nullptr: none) as `action` ("load-test",
    // "training") on `config`'s connection: a run writes like any operator does.
    void setAudit(core::AuditLog *log, const ConnectionConfig &config, const QString &action);

    bool isRunning() const { return m_running; }
    QStringList labels() const { return m_labels; }
    // Reports of the runs that have finished, in run order (empty entries for the others).
    QList<core::LoadTestReport> reports() const;

Q_SIGNALS:
    void started(const QStringList &labels);
    void progress(int run, const semscope::core::LoadTestProgress &sample);
    void runFinished(int run, const semscope::core::LoadTestReport &report);
    // Every run is done; also after failed().
    void finished();
    // The runs could not start (the scenario's reset failed); finished() follows.
    void failed(const QString &message);
    // A scenario's scratch keys could not be deleted after its runs (finished or stopped); finished()
    // follows. `message` names the server and why.
    void keysLeft(const QString &message);

private:
    void launch(const QList<redis::PlannedRun> &runs);
    void onRunFinished();
    // A scenario's runs leave nothing behind: its scratch semaphores go again once every engine has
    // stopped (finished, stopped, or stopped for a quit), then finished() is emitted.
    void removeScratchKeys();

    std::vector<std::unique_ptr<core::LoadTestEngine>> m_engines;
    std::unique_ptr<redis::RedisSemaphoreStore> m_resetStore;
    struct Scratch {
        const redis::TrainingScenario *scenario = nullptr; // static (redis::trainingScenarios())
        QString name;
        redis::ConnectionSettings settings;
    };
    std::optional<Scratch> m_scratch; // the scenario whose scratch keys are deleted after its runs
    QStringList m_labels;
    core::AuditLog *m_audit = nullptr;
    ConnectionConfig m_auditConfig;
    QString m_auditAction;
    bool m_running = false;
    bool m_cancelled = false;
    int m_generation = 0; // callbacks of an earlier start() are ignored
};

} // namespace semscope::model
