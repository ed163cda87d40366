#include "MemoryProbe.h"

#include <QFile>
#include <unistd.h>

namespace semscope::test {

MemoryProbe::MemoryProbe()
    : m_start(residentBytes())
    , m_peak(m_start) {
    connect(&m_timer, &QTimer::timeout, this, &MemoryProbe::sample);
    m_timer.start(2);
}

qint64 MemoryProbe::peakGrowthBytes() {
    sample();
    return m_peak - m_start;
}

void MemoryProbe::sample() {
    m_peak = qMax(m_peak, residentBytes());
}

qint64 MemoryProbe::residentBytes() {
    QFile statm(QStringLiteral("/proc/self/statm"));
    if (!statm.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> fields = statm.readAll().split(' ');
    return fields.value(1).toLongLong() * sysconf(_SC_PAGESIZE);
}

} // namespace semscope::test
