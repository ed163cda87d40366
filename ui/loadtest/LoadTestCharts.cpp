#include "LoadTestCharts.h"

#include "ui/ChartStyle.h"

#include <QChart>
#include <QChartView>
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

// Whole clients: ticks on whole numbers only, about five of them, so the limit line sits on a label.
void setClientRange(QValueAxis *axis, int top) {
    axis->setRange(0, top);
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    axis->setTickInterval(std::max(1, (top + 4) / 5));
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

// Round numbers on the axis (0, 2000, 4000 rather than 0, 1267, 2534), few enough to fit a short
// chart.
void setNiceRange(QValueAxis *axis, double top, int ticks = 3) {
    const double step = niceStep(headroom(top), ticks);
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    axis->setTickInterval(step);
    axis->setRange(0, std::ceil(headroom(top) / step) * step);
}

QValueAxis *valueAxis(const QString &title, const QString &format) {
    auto *axis = new QValueAxis;
    axis->setTitleText(title);
    axis->setLabelFormat(format);
    axis->setRange(0, 1);
    return axis;
}
} // namespace

LoadTestCharts::LoadTestCharts(QWidget *parent)
    : QWidget(parent) {
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);

    auto makeChart = [this, layout](const QString &title, QValueAxis *y, QList<QLineSeries *> series) {
        auto *chart = new QChart;
        chart->setTitle(title);
        chart->setMargins(QMargins(2, 2, 2, 2));
        chart->legend()->setAlignment(Qt::AlignRight);
        auto *x = valueAxis(tr("seconds"), QStringLiteral("%g"));
        m_timeAxes << x;
        chart->addAxis(x, Qt::AlignBottom);
        chart->addAxis(y, Qt::AlignLeft);
        for (QLineSeries *s : series) {
            chart->addSeries(s);
            s->attachAxis(x);
            s->attachAxis(y);
        }
        auto *view = new QChartView(chart, this);
        view->setRenderHint(QPainter::Antialiasing);
        // Three of them, the training text and the summary still fit a 1280x720 projector.
        view->setMinimumHeight(80);
        followPaletteAndFont(view);
        layout->addWidget(view, 1);
        return view;
    };

    m_pairs = new QLineSeries;
    m_pairs->setName(tr("pairs/s"));
    m_pairsY = valueAxis(tr("pairs/s"), QStringLiteral("%.0f"));
    m_throughputView = makeChart(tr("Throughput: acquire+release pairs per second"), m_pairsY, {m_pairs});
    m_throughputView->setObjectName(QStringLiteral("throughputChart"));

    m_p50 = new QLineSeries;
    m_p50->setName(tr("p50"));
    m_p90 = new QLineSeries;
    m_p90->setName(tr("p90"));
    m_p99 = new QLineSeries;
    m_p99->setName(tr("p99"));
    m_latencyY = valueAxis(tr("ms"), QStringLiteral("%.4g"));
    m_latencyView =
        makeChart(tr("Acquire wait (want → hold), percentiles"), m_latencyY, {m_p50, m_p90, m_p99});
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
    m_holdersView = makeChart(tr("Holders vs limit (red: more holders than the limit)"), m_holdersY,
                              {m_holders, m_limit});
    m_holdersView->setObjectName(QStringLiteral("holdersChart"));
    m_over = new QScatterSeries;
    m_over->setName(tr("over-admission"));
    m_over->setColor(kRed);
    m_over->setBorderColor(kRed.darker(130));
    m_over->setMarkerSize(9);
    QChart *holders = m_holdersView->chart();
    holders->addSeries(m_over);
    m_over->attachAxis(m_timeAxes.last());
    m_over->attachAxis(m_holdersY);

    reset(0, 1);
}

void LoadTestCharts::reset(qint64 plannedMs, int limit) {
    for (QLineSeries *s : {m_pairs, m_p50, m_p90, m_p99, m_holders, m_limit})
        s->clear();
    m_over->clear();
    m_plannedSeconds = static_cast<double>(plannedMs) / 1000.0;
    m_lastSeconds = 0.0;
    m_lastOverAdmissions = 0;
    m_maxPairs = m_maxLatency = 0.0;
    m_maxHolders = 0;
    m_limitValue = limit;
    setTimeRange(0.0);
    setLimitLine(limit);
    setNiceRange(m_pairsY, 0);
    setNiceRange(m_latencyY, 0);
}

void LoadTestCharts::setTimeRange(double seconds) {
    const double end = std::max({seconds, m_plannedSeconds, 1.0});
    const double step = niceStep(end, 8);
    for (QValueAxis *x : std::as_const(m_timeAxes)) {
        x->setTickType(QValueAxis::TicksDynamic);
        x->setTickAnchor(0);
        x->setTickInterval(step);
        x->setRange(0, end);
    }
    if (m_limit->count() == 2)
        m_limit->replace(1, QPointF(end, m_limitValue));
}

void LoadTestCharts::setLimitLine(int limit) {
    m_limitValue = limit;
    const double end = m_timeAxes.isEmpty() ? 1.0 : m_timeAxes.first()->max();
    m_limit->clear();
    m_limit->append(0, limit);
    m_limit->append(end, limit);
    setClientRange(m_holdersY, std::max(m_maxHolders, limit) + 1);
}

void LoadTestCharts::addSample(const core::LoadTestProgress &p) {
    const double t = static_cast<double>(p.elapsedMs) / 1000.0;
    m_lastSeconds = t;
    m_pairs->append(t, p.pairsPerSecond);
    m_p50->append(t, p.acquireP50Ms);
    m_p90->append(t, p.acquireP90Ms);
    m_p99->append(t, p.acquireP99Ms);
    m_holders->append(t, p.holders);
    if (p.limit != m_limitValue)
        setLimitLine(p.limit);
    // An over-admission seen since the last sample: mark it where the holders line is, at least
    // just above the limit (the sample itself may have caught the count back within it).
    if (p.overAdmissions > m_lastOverAdmissions)
        m_over->append(t, std::max(p.holders, p.limit + 1));
    m_lastOverAdmissions = p.overAdmissions;

    m_maxPairs = std::max(m_maxPairs, p.pairsPerSecond);
    m_maxLatency = std::max(m_maxLatency, p.acquireP99Ms);
    m_maxHolders = std::max({m_maxHolders, p.holders, p.maxHolders});
    setNiceRange(m_pairsY, m_maxPairs);
    setNiceRange(m_latencyY, m_maxLatency);
    setClientRange(m_holdersY, std::max(m_maxHolders, m_limitValue) + 1);
    setTimeRange(t);
}

void LoadTestCharts::showReport(const core::LoadTestReport &report) {
    m_over->clear();
    for (const core::OverAdmission &e : report.safety.episodes)
        m_over->append(static_cast<double>(e.atNs) / 1e9, e.maxHolders);
    m_maxHolders = std::max(m_maxHolders, report.safety.maxConcurrentHolders);
    if (report.config.limit != m_limitValue)
        setLimitLine(report.config.limit);
    setClientRange(m_holdersY, std::max(m_maxHolders, m_limitValue) + 1);
    setTimeRange(m_lastSeconds);
}

} // namespace semscope::ui
