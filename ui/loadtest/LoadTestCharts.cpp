#include "LoadTestCharts.h"

#include "ui/ChartStyle.h"

#include <QChart>
#include <QChartView>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace semscope::ui {

namespace {
const QColor kRed(0xc6, 0x28, 0x28);

// Room above the highest value so that a line at the top stays readable.
double headroom(double v) {
    return v <= 0.0 ? 1.0 : v * 1.15;
}

// A round step (1, 2 or 5 times a power of ten) that cuts [0, top] into at most `ticks` pieces.
double niceStep(double top, int ticks) {
    const double raw = std::max(top, 1e-9) / ticks;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0})
        if (m * magnitude >= raw)
            return m * magnitude;
    return 10.0 * magnitude;
}

// How many pieces an axis of `length` can be cut into with a label of `extent` at each cut and
// some room between them.
int piecesThatFit(double length, double extent) {
    return std::max(1, int(length / (extent * 1.7)));
}

void setTicks(QValueAxis *axis, double step, double max) {
    if (axis->tickType() != QValueAxis::TicksDynamic || axis->tickAnchor() != 0.0) {
        axis->setTickType(QValueAxis::TicksDynamic);
        axis->setTickAnchor(0);
    }
    if (axis->tickInterval() != step)
        axis->setTickInterval(step);
    if (axis->min() != 0.0 || axis->max() != max)
        axis->setRange(0, max);
}

QValueAxis *valueAxis(const QString &title, const QString &format) {
    auto *axis = new QValueAxis;
    axis->setTitleText(title);
    axis->setLabelFormat(format);
    axis->setRange(0, 1);
    return axis;
}

// As short as its texts allow, in the font it has now (View > Zoom grows it): the title, the time
// labels and a plot with room for a few value labels and the value axis' title. Any shorter and
// QtCharts cuts every label to "...". An explicit minimum, since QChartView sets one of its own
// (the chart's) that would win over a hint.
class CompactChartView : public QChartView {
public:
    CompactChartView(QChart *chart, QWidget *parent)
        : QChartView(chart, parent) {
        fitMinimum();
    }
    // No taller than that unless there is room to spare (the layouts' stretch gives it).
    QSize sizeHint() const override { return minimumSize(); }

protected:
    void changeEvent(QEvent *event) override {
        if (event->type() == QEvent::FontChange)
            fitMinimum();
        QChartView::changeEvent(event);
    }

private:
    void fitMinimum() {
        const QFontMetrics fm(font());
        setMinimumSize(fm.averageCharWidth() * 32, fm.lineSpacing() * 8);
    }
};
} // namespace

LoadTestCharts::LoadTestCharts(QWidget *parent)
    : QWidget(parent) {
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);

    m_pairs = new QLineSeries;
    m_pairs->setName(tr("pairs/s"));
    m_pairsY = valueAxis(tr("pairs/s"), QStringLiteral("%.0f"));
    m_throughputView =
        addPanel(tr("Throughput: acquire+release pairs per second"), m_pairsY, {m_pairs}, true);
    m_throughputView->setObjectName(QStringLiteral("throughputChart"));

    m_p50 = new QLineSeries;
    m_p50->setName(tr("p50"));
    m_p90 = new QLineSeries;
    m_p90->setName(tr("p90"));
    m_p99 = new QLineSeries;
    m_p99->setName(tr("p99"));
    m_latencyY = valueAxis(tr("ms"), QStringLiteral("%.4g"));
    m_latencyView =
        addPanel(tr("Acquire wait (want → hold), percentiles"), m_latencyY, {m_p50, m_p90, m_p99}, false);
    m_latencyView->setObjectName(QStringLiteral("latencyChart"));

    m_holders = new QLineSeries;
    m_holders->setName(tr("holders"));
    m_limit = new QLineSeries;
    m_limit->setName(tr("limit"));
    QPen limitPen(kRed);
    limitPen.setStyle(Qt::DashLine);
    limitPen.setWidth(2);
    m_limit->setPen(limitPen);
    m_holdersY = valueAxis(tr("clients"), QStringLiteral("%d"));
    // The limit first, so that the holders' line is drawn over it: a run that stays at its limit
    // shows its holders, not just the dashes.
    // The one definition of an over-admission the verdict counts too (SafetyChecker): a stretch of
    // time with more holders than the limit, marked where it begins. Said in the title, which has
    // the room a legend entry has not.
    m_holdersView = addPanel(tr("Holders vs limit (red dot: a stretch above it begins)"), m_holdersY,
                             {m_limit, m_holders}, true);
    m_holdersView->setObjectName(QStringLiteral("holdersChart"));
    m_holdersView->setToolTip(
        tr("An over-admission is a stretch of time during which more clients held the semaphore than "
           "its limit allows; a red dot marks where each one begins, and the verdict counts them. A run "
           "above its limit from start to end is one over-admission: the verdict says how long."));
    // Slots that crashed clients took and nobody has been seen to get back: a leak shows here while
    // the holders' line drops to 0. Shown once a client crashed.
    m_crashed = new QLineSeries;
    m_crashed->setName(tr("held by crashed"));
    QPen crashedPen(QColor(0xef, 0x6c, 0x00));
    crashedPen.setWidth(2);
    crashedPen.setStyle(Qt::DotLine);
    m_crashed->setPen(crashedPen);
    m_holdersView->chart()->addSeries(m_crashed);
    m_crashed->attachAxis(m_panels.constLast().x);
    m_crashed->attachAxis(m_holdersY);
    m_crashed->setVisible(false);
    m_over = new QScatterSeries;
    m_over->setName(tr("over-admission"));
    m_over->setColor(kRed);
    m_over->setBorderColor(kRed.darker(130));
    m_over->setMarkerSize(9);
    QChart *holders = m_holdersView->chart();
    holders->addSeries(m_over);
    m_over->attachAxis(m_panels.constLast().x);
    m_over->attachAxis(m_holdersY);

    for (QChartView *view : {m_throughputView, m_latencyView, m_holdersView})
        layout->addWidget(view, 1);
    fitTimeTicks();
    for (const Panel &panel : std::as_const(m_panels))
        fitValueTicks(panel);
    reset(0, 1);
}

QChartView *LoadTestCharts::addPanel(const QString &title, QValueAxis *y, const QList<QLineSeries *> &series,
                                     bool wholeNumbers) {
    auto *chart = new QChart;
    chart->setTitle(title);
    chart->setMargins(QMargins(2, 2, 2, 2));
    chart->legend()->setAlignment(Qt::AlignRight);
    // The unit on each label rather than in an axis title: a line less for a short chart.
    auto *x = valueAxis(QString(), QStringLiteral("%g s"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (QLineSeries *s : series) {
        chart->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
    }
    auto *view = new CompactChartView(chart, this);
    view->setRenderHint(QPainter::Antialiasing);
    followPaletteAndFont(view);
    const qsizetype index = m_panels.size();
    m_panels.append({view, x, y, wholeNumbers, 1.0});
    // Labels that fit the plot as it is now: fewer on a narrow or short chart, not cut ones.
    connect(chart, &QChart::plotAreaChanged, this, [this, index] {
        fitTimeTicks();
        fitValueTicks(m_panels.at(index));
        if (m_partner && index < m_partner->m_panels.size())
            m_partner->fitValueTicks(m_partner->m_panels.at(index));
    });
    return view;
}

void LoadTestCharts::fitTimeTicks() {
    // One time grid for the three charts, as fine as the narrowest plot can label.
    double narrowest = 0.0;
    for (const Panel &panel : std::as_const(m_panels)) {
        const double width = panel.view->chart()->plotArea().width();
        if (width > 0.0 && (narrowest == 0.0 || width < narrowest))
            narrowest = width;
    }
    const QFontMetricsF fm(m_panels.constFirst().x->labelsFont());
    const int pieces =
        narrowest > 0.0 ? piecesThatFit(narrowest, fm.horizontalAdvance(QStringLiteral("88.5 s"))) : 8;
    for (const Panel &panel : std::as_const(m_panels))
        setTicks(panel.x, niceStep(m_timeEnd, pieces), m_timeEnd);
}

int LoadTestCharts::valuePieces(const Panel &panel) const {
    const double height = panel.view->chart()->plotArea().height();
    const QFontMetricsF fm(panel.y->labelsFont());
    return height > 0.0 ? std::min(5, piecesThatFit(height, fm.height())) : 3;
}

void LoadTestCharts::fitValueTicks(const Panel &panel) {
    int pieces = valuePieces(panel);
    // Paired: the grid of the shorter plot for both, so that both axes also end at the same value
    // (the top is rounded up to a whole step).
    const qsizetype index = m_panels.indexOf(panel);
    if (m_partner && index >= 0 && index < m_partner->m_panels.size())
        pieces = std::min(pieces, m_partner->valuePieces(m_partner->m_panels.at(index)));
    double step = niceStep(panel.top, pieces);
    if (panel.wholeNumbers)
        step = std::max(1.0, step);
    setTicks(panel.y, step, std::ceil(panel.top / step) * step);
}

void LoadTestCharts::setTop(QValueAxis *y, double top) {
    for (Panel &panel : m_panels) {
        if (panel.y == y && panel.top != top) {
            panel.top = top;
            fitValueTicks(panel);
        }
    }
}

void LoadTestCharts::shareScalesWith(LoadTestCharts *other) {
    if (!other || other == this)
        return;
    m_partner = other;
    other->m_partner = this;
    applyTops();
}

void LoadTestCharts::putHoldersFirst() {
    auto *box = qobject_cast<QBoxLayout *>(layout());
    if (!box || box->indexOf(m_holdersView) == 0)
        return;
    box->removeWidget(m_holdersView);
    box->insertWidget(0, m_holdersView, 1);
}

double LoadTestCharts::ownTop(int panel) const {
    switch (panel) {
    case 0:
        return headroom(m_maxPairs);
    case 1:
        return headroom(m_maxLatency);
    default:
        // Whole clients, one more than the most there were, so the limit line never sits on the edge.
        return std::max({m_maxHolders, m_maxCrashed, m_limitValue}) + 1;
    }
}

void LoadTestCharts::applyTops() {
    for (LoadTestCharts *charts : {this, m_partner.data()}) {
        if (!charts)
            continue;
        for (int i = 0; i < charts->m_panels.size(); ++i) {
            double top = charts->ownTop(i);
            if (charts->m_partner)
                top = std::max(top, charts->m_partner->ownTop(i));
            charts->setTop(charts->m_panels.at(i).y, top);
        }
    }
}

void LoadTestCharts::reset(qint64 plannedMs, int limit) {
    for (QLineSeries *s : {m_pairs, m_p50, m_p90, m_p99, m_holders, m_limit, m_crashed})
        s->clear();
    m_crashed->setVisible(false);
    m_maxCrashed = 0;
    m_over->clear();
    showOverAdmissionLegend();
    m_plannedSeconds = static_cast<double>(plannedMs) / 1000.0;
    m_lastSeconds = 0.0;
    m_lastOverAdmissions = 0;
    m_maxPairs = m_maxLatency = 0.0;
    m_maxHolders = 0;
    m_limitValue = limit;
    setTimeRange(0.0);
    setLimitLine(limit);
}

void LoadTestCharts::setTimeRange(double seconds) {
    const double end = std::max({seconds, m_plannedSeconds, 1.0});
    if (end != m_timeEnd) {
        m_timeEnd = end;
        fitTimeTicks();
    }
    if (m_limit->count() == 2)
        m_limit->replace(1, QPointF(end, m_limitValue));
}

void LoadTestCharts::setLimitLine(int limit) {
    m_limitValue = limit;
    m_limit->clear();
    m_limit->append(0, limit);
    m_limit->append(m_timeEnd, limit);
    applyTops();
}

void LoadTestCharts::addSample(const core::LoadTestProgress &p) {
    const double t = static_cast<double>(p.elapsedMs) / 1000.0;
    m_lastSeconds = t;
    m_pairs->append(t, p.pairsPerSecond);
    m_p50->append(t, p.acquireP50Ms);
    m_p90->append(t, p.acquireP90Ms);
    m_p99->append(t, p.acquireP99Ms);
    m_holders->append(t, p.holders);
    if (p.crashes > 0 && !m_crashed->isVisible()) {
        m_crashed->append(0, 0);
        m_crashed->setVisible(true);
    }
    if (m_crashed->isVisible())
        m_crashed->append(t, p.crashedSlots);
    m_maxCrashed = std::max(m_maxCrashed, p.crashedSlots);
    if (p.limit != m_limitValue)
        setLimitLine(p.limit);
    // An over-admission seen since the last sample: mark it where the holders line is, at least
    // just above the limit (the sample itself may have caught the count back within it).
    if (p.overAdmissions > m_lastOverAdmissions) {
        m_over->append(t, std::max(p.holders, p.limit + 1));
        showOverAdmissionLegend();
    }
    m_lastOverAdmissions = p.overAdmissions;

    m_maxPairs = std::max(m_maxPairs, p.pairsPerSecond);
    m_maxLatency = std::max(m_maxLatency, p.acquireP99Ms);
    m_maxHolders = std::max({m_maxHolders, p.holders, p.maxHolders});
    applyTops();
    setTimeRange(t);
}

void LoadTestCharts::showOverAdmissionLegend() {
    // The marker in the legend only once there is a mark: a safe run's chart has a line less to
    // read, and a short one (a zoomed projector) keeps its entries whole.
    for (QLegendMarker *marker : m_holdersView->chart()->legend()->markers(m_over))
        marker->setVisible(m_over->count() > 0);
}

void LoadTestCharts::showReport(const core::LoadTestReport &report) {
    m_over->clear();
    for (const core::OverAdmission &e : report.safety.episodes)
        m_over->append(static_cast<double>(e.atNs) / 1e9, e.maxHolders);
    showOverAdmissionLegend();
    m_maxHolders = std::max(m_maxHolders, report.safety.maxConcurrentHolders);
    if (report.config.limit != m_limitValue)
        setLimitLine(report.config.limit);
    applyTops();
    setTimeRange(m_lastSeconds);
}

} // namespace semscope::ui
