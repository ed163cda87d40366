#pragma once

#include "core/loadtest/LoadTestReport.h"

#include <QPointer>
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

    // Two runs compared side by side: the same scales on every chart, and the summary tables
    // (same figures, same rows) scroll together, so a row reads across both.
    void pairWith(LoadTestRunView *other);

    QLabel *verdictLabel() const { return m_verdict; }
    LoadTestCharts *charts() const { return m_charts; }
    LoadTestSummaryTable *summaryTable() const { return m_table; }
    model::LoadTestSummaryModel *summaryModel() const { return m_model; }

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void setVerdict(const QString &text, int tone);
    // Paired: heading and verdict as tall as the partner's, so the two columns' charts start level.
    void alignWithPartner();
    void alignNow();
    bool m_alignQueued = false;

    bool m_aboutLeaks = false;
    int m_tone = 0;
    QString m_headingText;
    QPointer<LoadTestRunView> m_partner;
    QString m_label;
    QLabel *m_heading = nullptr;
    QLabel *m_verdict = nullptr;
    LoadTestCharts *m_charts = nullptr;
    model::LoadTestSummaryModel *m_model = nullptr;
    LoadTestSummaryTable *m_table = nullptr;
};

} // namespace semscope::ui
