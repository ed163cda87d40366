#pragma once

#include "core/loadtest/LoadTestReport.h"

#include <QPointer>
#include <QWidget>

class QChart;
class QChartView;
class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace semscope::ui {

// The live charts of one load-test run, against seconds since the run began: throughput
// (pairs/s), acquire-wait percentiles (p50/p90/p99), and holders against the limit with every
// over-admission marked by a red point.
class LoadTestCharts : public QWidget {
    Q_OBJECT
public:
    explicit LoadTestCharts(QWidget *parent = nullptr);

    // Empties the charts for a new run; `plannedMs` (0: unknown) sets the time axis up front.
    void reset(qint64 plannedMs, int limit);
    void addSample(const core::LoadTestProgress &sample);
    // Replaces the marks seen live with the exact over-admissions of the final report.
    void showReport(const core::LoadTestReport &report);

    QLineSeries *throughputSeries() const { return m_pairs; }
    QLineSeries *p99Series() const { return m_p99; }
    QLineSeries *holdersSeries() const { return m_holders; }
    QScatterSeries *overAdmissionSeries() const { return m_over; }
    QLineSeries *limitSeries() const { return m_limit; }
    QLineSeries *crashedSlotsSeries() const { return m_crashed; }
    QValueAxis *throughputAxis() const { return m_pairsY; }
    QValueAxis *latencyAxis() const { return m_latencyY; }
    QValueAxis *holdersAxis() const { return m_holdersY; }

    // Two runs shown side by side (training: unsafe beside atomic) compare at a glance only on the
    // same scales: from now on each value axis of either spans what both runs reached.
    void shareScalesWith(LoadTestCharts *other);
    // Holders vs limit on top: where a run shows whether it was safe, the chart that says so is the
    // one that must stay in view when the room runs short (a training column on a projector, zoomed).
    void putHoldersFirst();

private:
    // One chart and what its axes show; the ticks are chosen for the room the plot has.
    struct Panel {
        QChartView *view = nullptr;
        QValueAxis *x = nullptr;
        QValueAxis *y = nullptr;
        bool wholeNumbers = false; // y counts clients: whole ticks only
        double top = 0.0;          // the highest y value to show
        bool operator==(const Panel &other) const { return view == other.view; }
    };
    QChartView *addPanel(const QString &title, QValueAxis *y, const QList<QLineSeries *> &series,
                         bool wholeNumbers);
    void fitTimeTicks();
    void fitValueTicks(const Panel &panel);
    int valuePieces(const Panel &panel) const;
    void showOverAdmissionLegend();
    void setTop(QValueAxis *y, double top);
    // The tops this run's own values ask for, and the ones shown (the partner's taken in).
    void applyTops();
    double ownTop(int panel) const;
    void setTimeRange(double seconds);
    void setLimitLine(int limit);

    QList<Panel> m_panels;
    double m_timeEnd = 1.0;
    QChartView *m_throughputView = nullptr;
    QChartView *m_latencyView = nullptr;
    QChartView *m_holdersView = nullptr;
    QLineSeries *m_pairs = nullptr;
    QLineSeries *m_p50 = nullptr;
    QLineSeries *m_p90 = nullptr;
    QLineSeries *m_p99 = nullptr;
    QLineSeries *m_holders = nullptr;
    QLineSeries *m_limit = nullptr;
    QScatterSeries *m_over = nullptr;
    QLineSeries *m_crashed = nullptr;
    QPointer<LoadTestCharts> m_partner;
    QValueAxis *m_pairsY = nullptr;
    QValueAxis *m_latencyY = nullptr;
    QValueAxis *m_holdersY = nullptr;
    double m_plannedSeconds = 0.0;
    double m_lastSeconds = 0.0;
    qint64 m_lastOverAdmissions = 0;
    int m_limitValue = 0;
    double m_maxPairs = 0.0;
    double m_maxLatency = 0.0;
    int m_maxHolders = 0;
    int m_maxCrashed = 0;
};

} // namespace semscope::ui
