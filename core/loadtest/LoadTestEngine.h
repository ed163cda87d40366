#pragma once

#include "LoadTestConfig.h"
#include "LoadTestReport.h"
#include "LoadTestWorker.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <memory>
#include <vector>

class QThread;

namespace semscope::core {

// Runs one load test: virtual clients spread over `connections` stores (made by `factory`, one
// per connection, inside the worker thread that uses it, so the factory must be callable from any
// thread) and `threads` worker threads, each with its own event loop. The engine itself lives in
// the caller's thread and never blocks it, the end of a run included (joining the workers and
// judging every recorded interval happen on a thread of their own): progress() about every
// 250 ms, finished() once with the full report. cancel() ends the run early (the report says so).
class LoadTestEngine : public QObject {
    Q_OBJECT
public:
    static constexpr int progressIntervalMs = 250;

    LoadTestEngine(LoadTestConfig config, StoreFactory factory, QObject *parent = nullptr);
    ~LoadTestEngine() override;

    // Names the run in reports ("leased", "fair-without-lock"); defaults to the kind's name.
    void setLabel(const QString &label) { m_label = label; }
    const LoadTestConfig &config() const { return m_config; }

    void start();
    void cancel();
    bool isRunning() const { return m_phase != Phase::Idle && m_phase != Phase::Done; }
    bool isFinished() const { return m_phase == Phase::Done; }
    const LoadTestReport &report() const { return m_report; }

Q_SIGNALS:
    void progress(const semscope::core::LoadTestProgress &sample);
    void finished(const semscope::core::LoadTestReport &report);

private:
    enum class Phase { Idle, SettingUp, SettingLimit, Probing, Running, Draining, Collecting, Done };

    void onWorkerReady(int index, const QString &error);
    void onLimitSet(const QString &error);
    void probeLimit();
    void onLimitProbed(qint64 storedLimit);
    void beginRun();
    void endRun(bool cancelled);
    void onWorkerDrained(int index);
    void takeSample();
    void collect();
    // On the collector thread: joins the worker threads and fills the report from their records.
    void summarize(qint64 endNs, bool ran, bool drainedCleanly);
    // Back on the engine's thread once the collector has finished.
    void publish();
    void deleteStoppedWorkers();
    void fail(const QString &error);
    std::vector<LoadTestWorker::ClientPlan> planClients() const;

    LoadTestConfig m_config;
    StoreFactory m_factory;
    QString m_label;
    Phase m_phase = Phase::Idle;
    bool m_cancelled = false;
    LoadTestCounters m_counters;
    std::vector<QThread *> m_threads;
    std::vector<LoadTestWorker *> m_workers;
    std::unique_ptr<QThread> m_collector;
    int m_readyCount = 0;
    int m_drainedCount = 0;
    QString m_setupError;
    QTimer m_sampleTimer;
    QTimer m_endTimer;   // duration
    QTimer m_drainTimer; // gives up on draining
    QTimer m_probeTimer; // gives up on reading the stored limit
    qint64 m_goNs = 0;
    qint64 m_stopNs = 0;
    qint64 m_lastSampleNs = 0;
    qint64 m_lastSampleGrants = 0;
    qint64 m_lastGrantNs = -1;      // the last sample that saw a new grant (or the first sample)
    qint64 m_errorsAtLastGrant = 0; // errors counted by then
    qint64 m_grantsAtStop = 0;
    LoadTestReport m_report;
};

} // namespace semscope::core
