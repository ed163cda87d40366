#pragma once

#include "core/SemaphoreTypes.h"

#include <QList>
#include <QObject>
#include <QSet>

namespace semscope::model {

// The recent history of one semaphore, one sample per snapshot, for the charts: slots used against
// the limit, and acquisitions/releases per second worked out from which holders came and went
// between two reads. Holds at most `capacity` samples (oldest dropped).
class HistorySeries : public QObject {
    Q_OBJECT
public:
    struct Sample {
        qint64 timeMs = 0; // local clock, when the snapshot arrived
        qint64 used = 0;
        std::optional<qint64> limit;
        double acquisitionsPerSecond = 0;
        double releasesPerSecond = 0;
    };

    // TTL bucket edges in seconds; the histogram has edges.size() + 2 buckets: expired, one per
    // range below each edge, above the last edge.
    static const QList<int> &ttlBucketEdgesSeconds();
    static QStringList ttlBucketLabels();
    // Counts of holders per TTL bucket; holders without TTL are not counted (see noTtlCount).
    static QList<int> ttlHistogram(const core::Snapshot &snapshot, qint64 serverNowMs,
                                   int *noTtlCount = nullptr);

    explicit HistorySeries(int capacity = 600, QObject *parent = nullptr);

    void addSnapshot(const core::Snapshot &snapshot, qint64 localTimeMs);
    void clear();
    // Shows `samples` again (a semaphore looked at earlier: HistoryArchive), trimmed to the
    // capacity. The next read starts a new rate interval: the holders seen between then and now
    // are unknown, so no acquisitions or releases are made up for the gap.
    void restore(QList<Sample> samples);
    const QList<Sample> &samples() const { return m_samples; }
    int capacity() const { return m_capacity; }

Q_SIGNALS:
    void sampleAdded(const semscope::model::HistorySeries::Sample &sample);
    void cleared();

private:
    int m_capacity;
    QList<Sample> m_samples;
    QList<size_t> m_previousHolders; // identities of the last read, sorted
    qint64 m_previousTimeMs = 0;
    bool m_hasPrevious = false;
};

} // namespace semscope::model
