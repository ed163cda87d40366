#pragma once

#include <QtGlobal>
#include <array>

namespace semscope::core {

// A log-bucketed latency histogram in the spirit of HdrHistogram: values in nanoseconds, every
// bucket at most 1/64 (~1.6 %) wide relative to its value, constant memory, O(1) record and cheap
// merging, so each worker thread keeps its own and the engine adds them up. Percentiles report the
// highest value of the bucket they fall in (never below the true value), capped at the exact max.
class LatencyHistogram {
public:
    static constexpr int subBucketBits = 6;
    static constexpr int subBuckets = 1 << subBucketBits;             // 64 per power of two
    static constexpr int linearLimit = 2 * subBuckets;                // 0..127 ns recorded exactly
    static constexpr int bucketCount = linearLimit + 56 * subBuckets; // up to 2^63 - 1 ns

    void record(qint64 ns);
    void merge(const LatencyHistogram &other);
    void clear();

    qint64 count() const { return m_count; }
    qint64 minNs() const { return m_count ? m_min : 0; }
    qint64 maxNs() const { return m_count ? m_max : 0; }
    double meanNs() const {
        return m_count ? static_cast<double>(m_sum) / static_cast<double>(m_count) : 0.0;
    }
    // percentile in [0, 100]; 0 for an empty histogram.
    qint64 percentileNs(double percentile) const;
    double percentileMs(double percentile) const {
        return static_cast<double>(percentileNs(percentile)) / 1e6;
    }
    double maxMs() const { return static_cast<double>(maxNs()) / 1e6; }

    // Exposed for tests: bucket of a value and the highest value that bucket holds.
    static int bucketOf(qint64 ns);
    static qint64 highestInBucket(int bucket);
    static qint64 lowestInBucket(int bucket);

private:
    std::array<qint64, bucketCount> m_buckets{};
    qint64 m_count = 0;
    qint64 m_min = 0;
    qint64 m_max = 0;
    // Sums of nanoseconds overflow only after ~292 years of recorded latency.
    qint64 m_sum = 0;
};

} // namespace semscope::core
