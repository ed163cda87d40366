#include "LatencyHistogram.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace semscope::core {

int LatencyHistogram::bucketOf(qint64 ns) {
    if (ns < 0)
        ns = 0;
    const auto v = static_cast<quint64>(ns);
    if (v < static_cast<quint64>(linearLimit))
        return static_cast<int>(v);
    const int msb = 63 - std::countl_zero(v);     // >= 7
    const int shift = msb - subBucketBits;        // >= 1
    const int top = static_cast<int>(v >> shift); // in [64, 127]
    return linearLimit + (shift - 1) * subBuckets + (top - subBuckets);
}

qint64 LatencyHistogram::lowestInBucket(int bucket) {
    if (bucket < linearLimit)
        return bucket;
    const int shift = (bucket - linearLimit) / subBuckets + 1;
    const qint64 top = (bucket - linearLimit) % subBuckets + subBuckets;
    return top << shift;
}

qint64 LatencyHistogram::highestInBucket(int bucket) {
    if (bucket < linearLimit)
        return bucket;
    const int shift = (bucket - linearLimit) / subBuckets + 1;
    const qint64 top = (bucket - linearLimit) % subBuckets + subBuckets;
    // top + 1 may reach 128 << 56 = 2^63 for the last bucket: compute without overflowing.
    return (top << shift) + ((qint64(1) << shift) - 1);
}

void LatencyHistogram::record(qint64 ns) {
    if (ns < 0)
        ns = 0;
    ++m_buckets[static_cast<size_t>(bucketOf(ns))];
    if (m_count == 0) {
        m_min = ns;
        m_max = ns;
    } else {
        m_min = std::min(m_min, ns);
        m_max = std::max(m_max, ns);
    }
    ++m_count;
    m_sum += ns;
}

void LatencyHistogram::merge(const LatencyHistogram &other) {
    if (other.m_count == 0)
        return;
    for (size_t i = 0; i < m_buckets.size(); ++i)
        m_buckets[i] += other.m_buckets[i];
    if (m_count == 0) {
        m_min = other.m_min;
        m_max = other.m_max;
    } else {
        m_min = std::min(m_min, other.m_min);
        m_max = std::max(m_max, other.m_max);
    }
    m_count += other.m_count;
    m_sum += other.m_sum;
}

void LatencyHistogram::clear() {
    *this = LatencyHistogram();
}

qint64 LatencyHistogram::percentileNs(double percentile) const {
    if (m_count == 0)
        return 0;
    percentile = std::clamp(percentile, 0.0, 100.0);
    // The rank of the value asked for (1-based); p0 is the minimum.
    auto rank = static_cast<qint64>(std::ceil(percentile / 100.0 * static_cast<double>(m_count)));
    rank = std::clamp<qint64>(rank, 1, m_count);
    qint64 seen = 0;
    for (int i = 0; i < bucketCount; ++i) {
        seen += m_buckets[static_cast<size_t>(i)];
        if (seen >= rank)
            return std::clamp(highestInBucket(i), m_min, m_max);
    }
    return m_max;
}

} // namespace semscope::core
