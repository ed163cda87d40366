#include "ChartsPanel.h"

#include "ChartStyle.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QLineSeries>
#include <QValueAxis>
#include <cmath>

namespace semscope::ui {

namespace {
QChartView *viewFor(QChart *chart, QWidget *parent) {
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
    auto *view = new QChartView(chart, parent);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(220);
    followPaletteAndFont(view);
    return view;
}

QDateTimeAxis *timeAxis() {
    auto *axis = new QDateTimeAxis;
    axis->setFormat(QStringLiteral("HH:mm:ss"));
    axis->setTickCount(5);
    return axis;
}

// A round step (1, 2 or 5 times a power of ten) giving about `ticks` intervals up to `max`.
double niceStep(double max, int ticks) {
    const double raw = std::max(max, 1e-9) / ticks;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0}) {
        if (raw <= m * magnitude)
            return m * magnitude;
    }
    return 10 * magnitude;
}

// Ticks at whole multiples of a round step from 0: counts never show "0, 0.8, 1.6".
void setNiceRange(QValueAxis *axis, double max, bool integers) {
    double step = niceStep(max * 1.1, 5);
    if (integers)
        step = std::max(1.0, std::round(step));
    const double top = std::max(step, std::ceil(max * 1.1 / step) * step);
    if (axis->tickType() == QValueAxis::TicksDynamic && axis->tickInterval() == step && axis->max() == top)
        return;
    // The axis lays out a label per tick at every change: going from 0..4 by 1 to 0..12000 by
    // 2000, setting the range first would briefly ask for 12,000 labels. Widen the step first when
    // it grows, narrow it last when it shrinks.
    axis->setTickAnchor(0);
    if (step > axis->tickInterval()) {
        axis->setTickInterval(step);
        axis->setTickType(QValueAxis::TicksDynamic);
        axis->setRange(0, top);
    } else {
        axis->setRange(0, top);
        axis->setTickInterval(step);
        axis->setTickType(QValueAxis::TicksDynamic);
    }
    axis->setLabelFormat(integers || step >= 1 ? QStringLiteral("%.0f")
                         : step >= 0.1         ? QStringLiteral("%.1f")
                                               : QStringLiteral("%.2f"));
}
} // namespace

ChartsPanel::ChartsPanel(model::HistorySeries *history, QWidget *parent)
    : QTabWidget(parent)
    , m_history(history) {
    setObjectName(QStringLiteral("charts"));

    auto *usage = new QChart;
    usage->setTitle(tr("Slots used vs limit"));
    m_used = new QLineSeries;
    m_used->setName(tr("used"));
    m_limit = new QLineSeries;
    m_limit->setName(tr("limit"));
    QPen limitPen(QColor(0xc6, 0x28, 0x28));
    limitPen.setStyle(Qt::DashLine);
    limitPen.setWidth(2);
    m_limit->setPen(limitPen);
    // A full semaphore has both lines at one height: "used" is drawn wider and first, the dashed
    // limit over it, so each shows through the other (the used colour between red dashes) and "at
    // the limit" reads at a glance.
    usage->addSeries(m_used);
    QPen usedPen = m_used->pen(); // the theme's colour, known once the series is in the chart
    usedPen.setWidth(4);
    m_used->setPen(usedPen);
    usage->addSeries(m_limit);
    m_usageX = timeAxis();
    m_usageY = new QValueAxis;
    usage->addAxis(m_usageX, Qt::AlignBottom);
    usage->addAxis(m_usageY, Qt::AlignLeft);
    for (auto *s : {m_used, m_limit}) {
        s->attachAxis(m_usageX);
        s->attachAxis(m_usageY);
    }
    addTab(viewFor(usage, this), tr("Used / limit"));

    auto *rate = new QChart;
    rate->setTitle(tr("Acquisitions and releases per second"));
    m_acquired = new QLineSeries;
    m_acquired->setName(tr("acquired/s"));
    m_released = new QLineSeries;
    m_released->setName(tr("released/s"));
    rate->addSeries(m_acquired);
    rate->addSeries(m_released);
    m_rateX = timeAxis();
    m_rateY = new QValueAxis;
    rate->addAxis(m_rateX, Qt::AlignBottom);
    rate->addAxis(m_rateY, Qt::AlignLeft);
    for (auto *s : {m_acquired, m_released}) {
        s->attachAxis(m_rateX);
        s->attachAxis(m_rateY);
    }
    m_rateTab = addTab(viewFor(rate, this), tr("Acquire / release rate"));

    m_ttlChart = new QChart;
    m_ttlChart->setTitle(tr("Remaining TTL of current holders"));
    auto *bars = new QBarSeries;
    m_ttlSet = new QBarSet(tr("holders"));
    m_ttlSet->setColor(QColor(0x3f, 0x6f, 0xb5));
    const QStringList labels = model::HistorySeries::ttlBucketLabels();
    for (int i = 0; i < labels.size(); ++i)
        m_ttlSet->append(0);
    bars->append(m_ttlSet);
    m_ttlChart->addSeries(bars);
    auto *cats = new QBarCategoryAxis;
    cats->append(labels);
    m_ttlY = new QValueAxis;
    setNiceRange(m_ttlY, 1, true);
    m_ttlChart->addAxis(cats, Qt::AlignBottom);
    m_ttlChart->addAxis(m_ttlY, Qt::AlignLeft);
    bars->attachAxis(cats);
    bars->attachAxis(m_ttlY);
    m_ttlChart->legend()->hide();
    m_ttlTab = addTab(viewFor(m_ttlChart, this), tr("TTL distribution"));

    connect(this, &QTabWidget::currentChanged, this, &ChartsPanel::catchUp);
    connect(history, &model::HistorySeries::sampleAdded, this, &ChartsPanel::append);
    connect(history, &model::HistorySeries::cleared, this, &ChartsPanel::rebuild);
    rebuild();
}

void ChartsPanel::rebuild() {
    m_nowMs = 0;
    m_used->clear();
    m_limit->clear();
    m_acquired->clear();
    m_released->clear();
    m_rateStale = false;
    const auto &samples = m_history->samples();
    for (int i = 0; i < samples.size(); ++i)
        addPoints(samples.at(i), i > 0 ? &samples.at(i - 1) : nullptr);
    addNowPoints(samples.isEmpty() ? QDateTime::currentMSecsSinceEpoch() : samples.last().timeMs);
    rescale();
}

void ChartsPanel::addPoints(const model::HistorySeries::Sample &s,
                            const model::HistorySeries::Sample *previous) {
    // Counts change in steps at the moment a read saw them change: draw them as steps, not as
    // slopes that suggest values nobody observed.
    if (previous) {
        m_used->append(QPointF(s.timeMs, previous->used));
        if (previous->limit && s.limit)
            m_limit->append(QPointF(s.timeMs, *previous->limit));
    }
    m_used->append(QPointF(s.timeMs, s.used));
    if (s.limit)
        m_limit->append(QPointF(s.timeMs, *s.limit));
    // The rate chart is filled when it is on show; otherwise it is filled at once when opened.
    if (currentIndex() == m_rateTab) {
        m_acquired->append(QPointF(s.timeMs, s.acquisitionsPerSecond));
        m_released->append(QPointF(s.timeMs, s.releasesPerSecond));
    } else {
        m_rateStale = true;
    }
}

void ChartsPanel::addNowPoints(qint64 nowMs) {
    // The last value still holds now: a Consul watch reports only changes, and a single read
    // would otherwise be a lone invisible point.
    const auto &samples = m_history->samples();
    m_hasNowPoints = !samples.isEmpty();
    if (!m_hasNowPoints)
        return;
    const auto &last = samples.last();
    const qint64 t = std::max(nowMs, last.timeMs);
    m_used->append(QPointF(t, last.used));
    if (last.limit)
        m_limit->append(QPointF(t, *last.limit));
    m_nowHasLimit = last.limit.has_value();
}

void ChartsPanel::removeNowPoints() {
    if (!m_hasNowPoints)
        return;
    m_used->remove(m_used->count() - 1);
    if (m_nowHasLimit && m_limit->count() > 0)
        m_limit->remove(m_limit->count() - 1);
    m_hasNowPoints = false;
}

void ChartsPanel::append(const model::HistorySeries::Sample &s) {
    removeNowPoints();
    const auto &samples = m_history->samples();
    addPoints(s, samples.size() >= 2 ? &samples.at(samples.size() - 2) : nullptr);
    // Keep the chart as long as the history: drop points the history dropped (two per step).
    const int cap = m_history->capacity();
    for (QLineSeries *series : {m_used, m_limit}) {
        if (series->count() > 2 * cap)
            series->removePoints(0, series->count() - 2 * cap);
    }
    for (QLineSeries *series : {m_acquired, m_released}) {
        if (series->count() > cap)
            series->removePoints(0, series->count() - cap);
    }
    addNowPoints(s.timeMs);
    rescale();
}

void ChartsPanel::advanceTo(qint64 nowMs) {
    if (!m_hasNowPoints)
        return;
    const qreal t = qreal(std::max<qint64>(nowMs, m_history->samples().last().timeMs));
    m_used->replace(m_used->count() - 1, QPointF(t, m_used->at(m_used->count() - 1).y()));
    if (m_nowHasLimit)
        m_limit->replace(m_limit->count() - 1, QPointF(t, m_limit->at(m_limit->count() - 1).y()));
    m_nowMs = qint64(t);
    rescaleTime();
}

void ChartsPanel::rescaleTime() {
    const auto &samples = m_history->samples();
    const qint64 now =
        std::max(m_nowMs, samples.isEmpty() ? QDateTime::currentMSecsSinceEpoch() : samples.last().timeMs);
    // From the first read on (at least 10 s wide): a page opened a moment ago shows its few
    // seconds across the chart, not squeezed into the right edge of an empty minute.
    const qint64 first = samples.isEmpty() ? now - 60000 : std::min(samples.first().timeMs, now - 10000);
    // Only the chart on show: a time axis lays out its labels again at every range change, twice
    // a second and at every read. The other one catches up when its tab is opened.
    const QDateTime from = QDateTime::fromMSecsSinceEpoch(first);
    const QDateTime to = QDateTime::fromMSecsSinceEpoch(now);
    if (currentIndex() == m_rateTab)
        m_rateX->setRange(from, to);
    else
        m_usageX->setRange(from, to);
}

void ChartsPanel::rescale() {
    const auto &samples = m_history->samples();
    if (!samples.isEmpty())
        m_nowMs = std::max(m_nowMs, samples.last().timeMs);
    rescaleTime();
    double maxUsed = 1;
    double maxRate = 0.1;
    for (const auto &s : samples) {
        maxUsed = std::max({maxUsed, double(s.used), s.limit ? double(*s.limit) : 0.0});
        maxRate = std::max({maxRate, s.acquisitionsPerSecond, s.releasesPerSecond});
    }
    // The value axes of the chart on show; the other one's when its tab is opened.
    if (currentIndex() == m_rateTab)
        setNiceRange(m_rateY, maxRate, false);
    else
        setNiceRange(m_usageY, maxUsed, true);
    // A lone sample is a point, not a line: show it.
    const bool few = samples.size() < 3;
    for (QLineSeries *series : {m_used, m_limit, m_acquired, m_released})
        series->setPointsVisible(few);
}

void ChartsPanel::catchUp() {
    // A chart that was hidden skipped the reads since; bring it up to date in one go.
    if (m_rateStale && currentIndex() == m_rateTab) {
        QList<QPointF> acquired;
        QList<QPointF> released;
        for (const auto &sample : m_history->samples()) {
            acquired.append(QPointF(sample.timeMs, sample.acquisitionsPerSecond));
            released.append(QPointF(sample.timeMs, sample.releasesPerSecond));
        }
        m_acquired->replace(acquired);
        m_released->replace(released);
        m_rateStale = false;
    }
    if (m_ttlStale && currentIndex() == m_ttlTab)
        showTtlHistogram();
    rescale();
}

void ChartsPanel::setTtlHistogram(const QList<int> &buckets, int noTtl) {
    // Kept and drawn when the TTL tab is on show: a hidden bar chart still relays itself out.
    m_ttlBuckets = buckets;
    m_noTtl = noTtl;
    m_ttlStale = true;
    if (currentIndex() == m_ttlTab)
        showTtlHistogram();
}

void ChartsPanel::showTtlHistogram() {
    m_ttlStale = false;
    const QList<int> &buckets = m_ttlBuckets;
    const int noTtl = m_noTtl;
    int maxCount = 1;
    for (int i = 0; i < buckets.size() && i < m_ttlSet->count(); ++i) {
        if (m_ttlSet->at(i) != buckets.at(i))
            m_ttlSet->replace(i, buckets.at(i));
        maxCount = std::max(maxCount, buckets.at(i));
    }
    if (maxCount != m_ttlMax) {
        m_ttlMax = maxCount;
        setNiceRange(m_ttlY, maxCount, true);
    }
    const QString title = noTtl > 0 ? tr("Remaining TTL of current holders (%1 without TTL)").arg(noTtl)
                                    : tr("Remaining TTL of current holders");
    if (m_ttlChart->title() != title)
        m_ttlChart->setTitle(title);
}

} // namespace semscope::ui
