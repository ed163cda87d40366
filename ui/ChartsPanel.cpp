#include "ChartsPanel.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QLineSeries>
#include <QValueAxis>

namespace semscope::ui {

namespace {
QChartView *viewFor(QChart *chart, QWidget *parent) {
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
    auto *view = new QChartView(chart, parent);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(220);
    return view;
}

QDateTimeAxis *timeAxis() {
    auto *axis = new QDateTimeAxis;
    axis->setFormat(QStringLiteral("HH:mm:ss"));
    axis->setTickCount(5);
    return axis;
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
    usage->addSeries(m_used);
    usage->addSeries(m_limit);
    m_usageX = timeAxis();
    m_usageY = new QValueAxis;
    m_usageY->setLabelFormat(QStringLiteral("%d"));
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
    m_rateY->setLabelFormat(QStringLiteral("%.1f"));
    rate->addAxis(m_rateX, Qt::AlignBottom);
    rate->addAxis(m_rateY, Qt::AlignLeft);
    for (auto *s : {m_acquired, m_released}) {
        s->attachAxis(m_rateX);
        s->attachAxis(m_rateY);
    }
    addTab(viewFor(rate, this), tr("Acquire / release rate"));

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
    m_ttlY->setLabelFormat(QStringLiteral("%d"));
    m_ttlChart->addAxis(cats, Qt::AlignBottom);
    m_ttlChart->addAxis(m_ttlY, Qt::AlignLeft);
    bars->attachAxis(cats);
    bars->attachAxis(m_ttlY);
    m_ttlChart->legend()->hide();
    addTab(viewFor(m_ttlChart, this), tr("TTL distribution"));

    connect(history, &model::HistorySeries::sampleAdded, this, &ChartsPanel::append);
    connect(history, &model::HistorySeries::cleared, this, &ChartsPanel::rebuild);
    rebuild();
}

void ChartsPanel::rebuild() {
    QList<QPointF> used, limit, acquired, released;
    for (const auto &s : m_history->samples()) {
        used.append(QPointF(s.timeMs, s.used));
        if (s.limit)
            limit.append(QPointF(s.timeMs, *s.limit));
        acquired.append(QPointF(s.timeMs, s.acquisitionsPerSecond));
        released.append(QPointF(s.timeMs, s.releasesPerSecond));
    }
    m_used->replace(used);
    m_limit->replace(limit);
    m_acquired->replace(acquired);
    m_released->replace(released);
    rescale();
}

void ChartsPanel::append(const model::HistorySeries::Sample &s) {
    // Keep the chart as long as the history: drop points the history dropped.
    const int cap = m_history->capacity();
    auto push = [cap](QLineSeries *series, QPointF p) {
        series->append(p);
        if (series->count() > cap)
            series->removePoints(0, series->count() - cap);
    };
    push(m_used, QPointF(s.timeMs, s.used));
    if (s.limit)
        push(m_limit, QPointF(s.timeMs, *s.limit));
    push(m_acquired, QPointF(s.timeMs, s.acquisitionsPerSecond));
    push(m_released, QPointF(s.timeMs, s.releasesPerSecond));
    rescale();
}

void ChartsPanel::rescale() {
    const auto &samples = m_history->samples();
    const qint64 now = samples.isEmpty() ? QDateTime::currentMSecsSinceEpoch() : samples.last().timeMs;
    const qint64 first = samples.isEmpty() ? now - 60000 : std::min(samples.first().timeMs, now - 60000);
    for (auto *axis : {m_usageX, m_rateX})
        axis->setRange(QDateTime::fromMSecsSinceEpoch(first), QDateTime::fromMSecsSinceEpoch(now));
    double maxUsed = 1;
    double maxRate = 1;
    for (const auto &s : samples) {
        maxUsed = std::max({maxUsed, double(s.used), s.limit ? double(*s.limit) : 0.0});
        maxRate = std::max({maxRate, s.acquisitionsPerSecond, s.releasesPerSecond});
    }
    // Whole-number ticks for small counts, so the axis never shows "0, 0, 1, 2".
    const double usageTop = std::ceil(maxUsed * 1.2);
    m_usageY->setRange(0, usageTop);
    m_usageY->setTickCount(usageTop <= 10 ? int(usageTop) + 1 : 6);
    m_rateY->setRange(0, std::ceil(maxRate * 1.2 * 10) / 10);
}

void ChartsPanel::setTtlHistogram(const QList<int> &buckets, int noTtl) {
    int maxCount = 1;
    for (int i = 0; i < buckets.size() && i < m_ttlSet->count(); ++i) {
        m_ttlSet->replace(i, buckets.at(i));
        maxCount = std::max(maxCount, buckets.at(i));
    }
    const double ttlTop = std::ceil(maxCount * 1.2);
    m_ttlY->setRange(0, ttlTop);
    m_ttlY->setTickCount(ttlTop <= 10 ? int(ttlTop) + 1 : 6);
    m_ttlChart->setTitle(noTtl > 0 ? tr("Remaining TTL of current holders (%1 without TTL)").arg(noTtl)
                                   : tr("Remaining TTL of current holders"));
}

} // namespace semscope::ui
