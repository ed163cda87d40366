#include "LoadTestExport.h"

#include "training/ScenarioRuns.h"

#include <QJsonDocument>
#include <QSaveFile>

namespace semscope::model {

QByteArray loadTestJson(const QList<core::LoadTestReport> &reports, const redis::TrainingScenario *scenario) {
    QJsonObject o;
    if (scenario)
        o = redis::scenarioReportJson(*scenario, reports.value(0), reports.value(1));
    else
        o = reports.value(0).toJson();
    return QJsonDocument(o).toJson(QJsonDocument::Indented);
}

QByteArray loadTestCsv(const QList<core::LoadTestReport> &reports) {
    QString out = core::LoadTestReport::csvHeader();
    for (const core::LoadTestReport &r : reports)
        out += r.timelineCsv();
    return out.toUtf8();
}

QString writeExportFile(const QString &path, const QByteArray &data) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
    file.write(data);
    if (!file.commit())
        return QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
    return {};
}

} // namespace semscope::model
