#include "HistoryArchive.h"

#include <algorithm>

namespace semscope::model {

HistoryArchive::HistoryArchive(int maxSeries)
    : m_maxSeries(std::max(1, maxSeries)) {}

void HistoryArchive::store(const QString &key, const QList<HistorySeries::Sample> &samples) {
    m_order.removeOne(key);
    if (samples.isEmpty()) {
        m_series.remove(key);
        return;
    }
    m_series.insert(key, samples);
    m_order.append(key);
    while (m_order.size() > m_maxSeries)
        m_series.remove(m_order.takeFirst());
}

QList<HistorySeries::Sample> HistoryArchive::take(const QString &key) {
    m_order.removeOne(key);
    return m_series.take(key);
}

} // namespace semscope::model
