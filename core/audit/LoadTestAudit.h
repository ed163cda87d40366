#pragma once

#include "AuditLog.h"
#include "core/loadtest/LoadTestReport.h"

namespace semscope::core {

// The audit record of one load-test or training run (`action` "load-test" or "training"): a run
// writes to the semaphore like any operator, so it is logged like one — connection, semaphore,
// the run's set-up as what was decided on, and its outcome: "ok", "over-admitted" or "failed".
// `connection` names the connection as the operator knows it (name and endpoint, no secrets);
// `environment` is empty where the caller has none (the CLI).
AuditEntry loadTestAuditEntry(const QString &connection, const QString &environment,
                              const LoadTestReport &report, const QString &action);

} // namespace semscope::core
