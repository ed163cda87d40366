#pragma once

#include "core/loadtest/LoadTestConfig.h"
#include "training/TrainingScenarios.h"

namespace semscope::model {

// How the GUI runs a training scenario: the scenario's own defaults (the CLI's too), on the
// semaphore semscope-training:<scenario>, for `durationMs`.
core::LoadTestConfig trainingRunConfig(const redis::TrainingScenario &scenario, qint64 durationMs);

// One line saying how the run is set up, for the operator.
QString describeTrainingRun(const redis::TrainingScenario &scenario, const core::LoadTestConfig &config);

} // namespace semscope::model
