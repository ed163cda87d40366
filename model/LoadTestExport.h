#pragma once

#include "core/loadtest/LoadTestReport.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace semscope::redis {
struct TrainingScenario;
}

namespace semscope::model {

// What the load-test page exports, in the same shapes as `semscope-cli loadtest`: JSON is one
// report (a plain run) or the scenario object with "unsafe" and "atomic"; CSV is the timeline of
// every run, one row per sample, the run named in the first column.
QByteArray loadTestJson(const QList<core::LoadTestReport> &reports, const redis::TrainingScenario *scenario);
QByteArray loadTestCsv(const QList<core::LoadTestReport> &reports);

// Writes `data` to `path` through a temporary file, so a failed export never leaves half a file.
// Empty on success, otherwise why not.
QString writeExportFile(const QString &path, const QByteArray &data);

} // namespace semscope::model
