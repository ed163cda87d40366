#pragma once

#include "core/loadtest/LoadTestReport.h"

#include <QWidget>

class QLabel;

namespace semscope::model {
class LoadTestSummaryModel;
}

namespace semscope::ui {

class LoadTestCharts;
class LoadTestSummaryTable;

// One run on screen: its verdict in one coloured line, the live charts and the summary table,
// either beside the charts (a single run) or below them (two runs side by side).
class LoadTestRunView : public QWidget {
    Q_OBJECT
public:
    enum class Arrangement { TableBeside, TableBelow };

    LoadTestRunView(Arrangement arrangement, QWidget *parent = nullptr);

    // For a run whose point is whether crashed holders' slots come back (not over-admissions).
    void setAboutLeaks(bool aboutLeaks) { m_aboutLeaks = aboutLeaks; }
    // A heading above the verdict ("Unsafe: the INCR-counter lock released with DEL"); hidden when empty.
    void setHeading(const QString &heading);

    void begin(const QString &label, qint64 plannedMs, int limit);
    void addSample(const core::LoadTestProgress &sample);
    void finish(const core::LoadTestReport &report);
    // Shows `message` where the verdict goes (a run that could not start).
    void showProblem(const QString &message);

    QLabel *verdictLabel() const { return m_verdict; }
    LoadTestCharts *charts() const { return m_charts; }
    LoadTestSummaryTable *summaryTable() const { return m_table; }
    model::LoadTestSummaryModel *summaryModel() const { return m_model; }

private:
    void setVerdict(const QString &text, int tone);

    bool m_aboutLeaks = false;
    QString m_label;
    QLabel *m_heading = nullptr;
    QLabel *m_verdict = nullptr;
    LoadTestCharts *m_charts = nullptr;
    model::LoadTestSummaryModel *m_model = nullptr;
    LoadTestSummaryTable *m_table = nullptr;
};

} // namespace semscope::ui
