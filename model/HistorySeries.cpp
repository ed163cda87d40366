#include "HistorySeries.h"

#include <algorithm>

namespace semscope::model {

using namespace semscope::core;

namespace {
// A holder that released and re-acquired between two reads comes back with a new token: that is a
// release and an acquisition, so the token is part of the identity.
// Hashed, not copied: with 10,000 holders a set of id copies per read costs milliseconds, and a
// rare collision only miscounts one point of a rate chart.
size_t identity(const Holder &h) {
    const size_t id = h.rawId.isEmpty() ? qHash(h.id) : qHash(h.rawId);
    return h.token ? qHashMulti(0, id, *h.token) : id;
}
} // namespace

const QList<int> &HistorySeries::ttlBucketEdgesSeconds() {
    static const QList<int> edges{5, 15, 30, 60, 300};
    return edges;
}

QStringList HistorySeries::ttlBucketLabels() {
    QStringList labels{QStringLiteral("expired")};
    int previous = 0;
    for (int edge : ttlBucketEdgesSeconds()) {
        labels << QStringLiteral("%1–%2 s").arg(previous).arg(edge);
        previous = edge;
    }
    labels << QStringLiteral("> %1 s").arg(previous);
    return labels;
}

QList<int> HistorySeries::ttlHistogram(const Snapshot &snapshot, qint64 serverNowMs, int *noTtlCount) {
    const auto &edges = ttlBucketEdgesSeconds();
    QList<int> buckets(edges.size() + 2, 0);
    int noTtl = 0;
    for (const Holder &h : snapshot.holders) {
        if (!h.occupiesSlot())
            continue;
        const auto ttl = h.ttlMs(serverNowMs);
        if (!ttl) {
            ++noTtl;
            continue;
        }
        if (*ttl <= 0) {
            ++buckets[0];
            continue;
        }
        int bucket = int(edges.size()) + 1;
        for (int i = 0; i < edges.size(); ++i) {
            if (*ttl < qint64(edges.at(i)) * 1000) {
                bucket = i + 1;
                break;
            }
        }
        ++buckets[bucket];
    }
    if (noTtlCount)
        *noTtlCount = noTtl;
    return buckets;
}

HistorySeries::HistorySeries(int capacity, QObject *parent)
    : QObject(parent)
    , m_capacity(std::max(2, capacity)) {}

void HistorySeries::addSnapshot(const Snapshot &snapshot, qint64 localTimeMs) {
    // A sorted array of identities, compared with the previous read's in one merge: with 10,000
    // holders that is a few times cheaper than building a hash set and probing it both ways.
    QList<size_t> holders;
    holders.reserve(snapshot.holders.size());
    for (const Holder &h : snapshot.holders) {
        if (h.occupiesSlot())
            holders.append(identity(h));
    }
    std::sort(holders.begin(), holders.end());
    holders.erase(std::unique(holders.begin(), holders.end()), holders.end());
    Sample s;
    s.timeMs = localTimeMs;
    s.used = snapshot.usedCount();
    s.limit = snapshot.limit;
    if (m_hasPrevious && localTimeMs > m_previousTimeMs) {
        const double seconds = double(localTimeMs - m_previousTimeMs) / 1000.0;
        int acquired = 0;
        int released = 0;
        auto now = holders.cbegin();
        auto before = m_previousHolders.cbegin();
        while (now != holders.cend() || before != m_previousHolders.cend()) {
            if (before == m_previousHolders.cend() || (now != holders.cend() && *now < *before)) {
                ++acquired;
                ++now;
            } else if (now == holders.cend() || *before < *now) {
                ++released;
                ++before;
            } else {
                ++now;
                ++before;
            }
        }
        s.acquisitionsPerSecond = acquired / seconds;
        s.releasesPerSecond = released / seconds;
    }
    m_previousHolders = std::move(holders);
    m_previousTimeMs = localTimeMs;
    m_hasPrevious = true;
    m_samples.append(s);
    while (m_samples.size() > m_capacity)
        m_samples.removeFirst();
    Q_EMIT sampleAdded(s);
}

void HistorySeries::restore(QList<Sample> samples) {
    if (samples.size() > m_capacity)
        samples.remove(0, samples.size() - m_capacity);
    m_samples = std::move(samples);
    m_previousHolders.clear();
    m_hasPrevious = false;
    Q_EMIT cleared(); // the charts rebuild from samples()
}

void HistorySeries::clear() {
    m_samples.clear();
    m_previousHolders.clear();
    m_hasPrevious = false;
    Q_EMIT cleared();
}

} // namespace semscope::model
