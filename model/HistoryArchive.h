#pragma once

#include "HistorySeries.h"

#include <QHash>
#include <QList>
#include <QString>

namespace semscope::model {

// The chart history of the semaphores an operator looked at on one connection, kept for the
// session: switching to another semaphore and back shows the earlier points again instead of a
// chart that starts over. Bounded: at most `maxSeries` semaphores (the ones looked at longest ago
// are dropped first), each at most its HistorySeries capacity, so a day of clicking through a
// thousand semaphores stays a few megabytes.
class HistoryArchive {
public:
    static constexpr int kDefaultMaxSeries = 32;
    explicit HistoryArchive(int maxSeries = kDefaultMaxSeries);

    // Keeps `samples` as the history of `key` (replacing what was kept); empty histories are not kept.
    void store(const QString &key, const QList<HistorySeries::Sample> &samples);
    // The kept history of `key`, removed from the archive (it goes back to the page on show); empty
    // when none is kept.
    QList<HistorySeries::Sample> take(const QString &key);
    bool contains(const QString &key) const { return m_series.contains(key); }
    int size() const { return int(m_series.size()); }
    int maxSeries() const { return m_maxSeries; }

private:
    int m_maxSeries;
    QHash<QString, QList<HistorySeries::Sample>> m_series;
    QList<QString> m_order; // least recently stored first
};

} // namespace semscope::model
