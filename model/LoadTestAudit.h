#pragma once

#include "AuditLog.h"
#include "ConnectionConfig.h"
#include "core/loadtest/LoadTestReport.h"

namespace semscope::model {

// The audit record of one load-test or training run (`action` "load-test" or "training"): a run
// writes to the semaphore like any operator, so it is logged like one — connection, semaphore,
// the run's set-up as what was decided on, and its outcome: "ok", "over-admitted" or "failed".
AuditEntry loadTestAuditEntry(const ConnectionConfig &config, const core::LoadTestReport &report,
                              const QString &action);

} // namespace semscope::model
