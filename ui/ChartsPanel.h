#pragma once

#include "model/HistorySeries.h"

#include <QTabWidget>

class QBarSet;
class QBarCategoryAxis;
class QChart;
class QDateTimeAxis;
class QLineSeries;
class QValueAxis;

namespace semscope::ui {

// Three charts of one semaphore: slots used against the limit over time, acquisitions and releases
// per second, and how the remaining TTLs are spread right now.
class ChartsPanel : public QTabWidget {
    Q_OBJECT
public:
    ChartsPanel(model::HistorySeries *history, QWidget *parent = nullptr);

    void setTtlHistogram(const QList<int> &buckets, int noTtl);
    void rebuild();
    // Moves the right end of the charts (and the last value's line) to `nowMs`, local clock.
    void advanceTo(qint64 nowMs);

private:
    void append(const model::HistorySeries::Sample &sample);
    void addPoints(const model::HistorySeries::Sample &s, const model::HistorySeries::Sample *previous);
    void addNowPoints(qint64 nowMs);
    void removeNowPoints();
    void rescale();
    void rescaleTime();
    void catchUp();
    void showTtlHistogram();

    model::HistorySeries *m_history;
    QLineSeries *m_used;
    QLineSeries *m_limit;
    QDateTimeAxis *m_usageX;
    QValueAxis *m_usageY;
    QLineSeries *m_acquired;
    QLineSeries *m_released;
    QDateTimeAxis *m_rateX;
    QValueAxis *m_rateY;
    QBarSet *m_ttlSet;
    QValueAxis *m_ttlY;
    QChart *m_ttlChart;
    int m_rateTab = -1;
    int m_ttlTab = -1;
    bool m_rateStale = false;
    bool m_ttlStale = false;
    QList<int> m_ttlBuckets;
    int m_noTtl = 0;
    int m_ttlMax = 0;
    qint64 m_nowMs = 0;
    bool m_hasNowPoints = false;
    bool m_nowHasLimit = false;
};

} // namespace semscope::ui
