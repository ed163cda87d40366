#pragma once

#include "TrainingScenarios.h"
#include "core/loadtest/LoadTestConfig.h"
#include "core/loadtest/LoadTestReport.h"
#include "core/loadtest/LoadTestWorker.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <functional>

namespace semscope::redis {

class RedisSemaphoreStore;

// One load-test run ready for a core::LoadTestEngine: what to run, what to call it in reports and
// where its stores come from.
struct PlannedRun {
    core::LoadTestConfig config;
    QString label;
    core::StoreFactory factory;
};

// The scratch semaphores a scenario writes, so that it never touches the semaphore it is named after.
QString scenarioUnsafeName(const QString &name);
QString scenarioAtomicName(const QString &name);

// The scenario's own defaults (TrainingScenario::defaults) on semaphore `name`.
core::LoadTestConfig scenarioConfig(const TrainingScenario &scenario, const QString &name);

// The two runs of a scenario over one Redis server: [0] the seed's unsafe sequence on
// NAME-unsafe (labelled with the scenario's name), [1] the atomic counterpart kind on NAME-atomic
// (labelled with the kind's name). `base` is used as it is (scenarioConfig() gives the defaults).
// raceWindowMs < 0: the scenario's own.
QList<PlannedRun> scenarioRuns(const TrainingScenario &scenario, const core::LoadTestConfig &base,
                               const ConnectionSettings &settings, int raceWindowMs = -1);

// Deletes the keys of both scratch semaphores of `name`, so that leftovers of an earlier run (leaked
// slots, a stored limit) do not decide the outcome. `done` gets an empty string when that worked.
void resetScenarioSemaphores(RedisSemaphoreStore &store, const TrainingScenario &scenario,
                             const QString &name, std::function<void(const QString &error)> done);

// The JSON both the CLI (--json) and the GUI's export write for a scenario: its name, title and
// explanation, and the two reports under scenarioUnsafeSide() and scenarioAtomicSide().
QJsonObject scenarioReportJson(const TrainingScenario &scenario, const core::LoadTestReport &unsafe,
                               const core::LoadTestReport &atomic);

} // namespace semscope::redis
