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

private:
    void append(const model::HistorySeries::Sample &sample);
    void rescale();

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
};

} // namespace semscope::ui
