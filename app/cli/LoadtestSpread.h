#pragma once

#include "core/SemaphoreStore.h"
#include "core/loadtest/LoadTestReport.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

// `loadtest --semaphores K`: one run per semaphore, all at once, reported per place (the store's
// locationOf(): a Cluster master, the one server of a standalone) and in total.
namespace semscope::cli {

// K names for the semaphores of a spread run: NAME-1, NAME-2, ... as they come, except that a name
// whose place already has its share is skipped, so that `places` (a Cluster's masters) get K/N
// each (the first K mod N one more). Empty `places`: NAME-1..NAME-K.
QStringList spreadSemaphoreNames(const core::SemaphoreStore &store, const core::SemaphoreRef &base, int count,
                                 const QStringList &places);

// One run of a spread load test and the place its semaphore lives.
struct SpreadRun {
    core::LoadTestReport report;
    QString place;
};

// {"semaphores", "pairs_per_s", "grants", "errors", "over_admissions", "token_violations",
//  "failover_interruptions", "ok", "safe", "nodes": [{"node", "semaphores", "pairs_per_s",
//  "grants", "errors", "over_admissions"}], "runs": [each run's report, with "node"]}
QJsonObject spreadReportJson(const QList<SpreadRun> &runs);
// The totals, a table per node and a line per semaphore.
QString spreadReportText(const QList<SpreadRun> &runs);

} // namespace semscope::cli
