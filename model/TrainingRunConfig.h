#pragma once

#include "core/loadtest/LoadTestConfig.h"
#include "redis/training/TrainingScenarios.h"

namespace semscope::model {

// How the GUI runs a training scenario: 50 clients over 4 connections holding 1–5 ms, the shape
// under which every unsafe design shows its flaw within seconds, with the scenario's own limit,
// race window, clock skew and crashes. A leak scenario gets a short TTL (2 s) so that the atomic
// side's crashed slots visibly come back within the run.
core::LoadTestConfig trainingRunConfig(const redis::TrainingScenario &scenario, qint64 durationMs);

// One line saying how the run is set up, for the operator.
QString describeTrainingRun(const redis::TrainingScenario &scenario, const core::LoadTestConfig &config);

} // namespace semscope::model
