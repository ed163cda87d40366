#pragma once

#include <QObject>
#include <QTimer>

namespace semscope::test {

// The process's resident memory (RSS, from /proc/self/statm) above where it stood when the probe
// was made: sampled every few milliseconds while the event loop runs, so a reply that grows and
// is freed again still shows at its peak. An upper bound on what the code under test allocated
// (other threads and the allocator's caches count too), good for "bounded", not for exact sizes.
class MemoryProbe : public QObject {
public:
    MemoryProbe();
    qint64 peakGrowthBytes();

    static qint64 residentBytes();

private:
    void sample();

    qint64 m_start;
    qint64 m_peak;
    QTimer m_timer;
};

} // namespace semscope::test
