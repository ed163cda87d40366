#include "TrainingRunConfig.h"

#include "training/ScenarioRuns.h"

#include <QCoreApplication>
#include <cmath>

namespace semscope::model {

namespace {
QString tr(const char *text) {
    return QCoreApplication::translate("TrainingRunConfig", text);
}
} // namespace

core::LoadTestConfig trainingRunConfig(const redis::TrainingScenario &scenario, qint64 durationMs) {
    core::LoadTestConfig c =
        redis::scenarioConfig(scenario, QStringLiteral("semscope-training:") + scenario.name);
    c.durationMs = durationMs;
    return c;
}

QString describeTrainingRun(const redis::TrainingScenario &s, const core::LoadTestConfig &c) {
    QStringList parts;
    parts << (c.limit == 1 ? tr("limit 1 (a lock)") : tr("limit %1").arg(c.limit));
    parts << tr("%1 clients over %2 connections").arg(c.clients).arg(c.connections);
    parts << tr("hold %1").arg(c.hold.toString());
    if (s.raceWindowMs > 0)
        parts << tr("race window %1 ms").arg(s.raceWindowMs);
    if (c.skewMs > 0)
        parts << tr("clocks off by up to ±%1 s").arg(static_cast<double>(c.skewMs) / 1000.0);
    if (c.crashRate > 0)
        parts << tr("%1% of clients crash while holding").arg(std::lround(c.crashRate * 100));
    parts << tr("TTL %1 s").arg(static_cast<double>(c.ttlMs) / 1000.0);
    return parts.join(QStringLiteral(" · "));
}

} // namespace semscope::model
