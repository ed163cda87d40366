#include "DiscoverySchedule.h"

#include "core/Duration.h"

#include <QtMath>
#include <algorithm>

namespace semscope::monitor {

DiscoverySchedule::DiscoverySchedule(qint64 intervalMs, double budget, qint64 maxGapMs)
    : m_intervalMs(qMax<qint64>(1, intervalMs))
    , m_budget(std::clamp(budget, 0.001, 1.0))
    , m_maxGapMs(qMax<qint64>(m_intervalMs, maxGapMs)) {}

void DiscoverySchedule::setIntervalMs(qint64 ms) {
    m_intervalMs = qMax<qint64>(1, ms);
    m_maxGapMs = qMax(m_maxGapMs, m_intervalMs);
}

void DiscoverySchedule::recordDiscovery(qint64 durationMs) {
    const double cost = double(qMax<qint64>(0, durationMs));
    // Smoothed, but a costlier discovery counts at once (the keyspace grew, the server is busy):
    // the budget is a ceiling, and only a cheaper one is taken in gradually.
    if (!m_measured || cost >= m_costMs)
        m_costMs = cost;
    else
        m_costMs = 0.7 * m_costMs + 0.3 * cost;
    m_measured = true;
}

qint64 DiscoverySchedule::nextDelayMs() const {
    // cost / (cost + gap) <= budget  <=>  gap >= cost * (1 / budget - 1)
    const double needed = m_costMs * (1.0 / m_budget - 1.0);
    const qint64 gap = needed >= double(m_maxGapMs) ? m_maxGapMs : qint64(qCeil(needed));
    return std::clamp(gap, m_intervalMs, m_maxGapMs);
}

qint64 DiscoverySchedule::budgetGapMs() const {
    if (!m_measured)
        return 0;
    const double needed = m_costMs * (1.0 / m_budget - 1.0);
    return needed >= double(m_maxGapMs) ? m_maxGapMs : qint64(qCeil(needed));
}

QString DiscoverySchedule::explanation() const {
    const qint64 delay = nextDelayMs();
    const QString budget = QStringLiteral("%1 %").arg(m_budget * 100, 0, 'g', 3);
    const QString cost =
        m_costMs < 1 ? QStringLiteral("<1 ms") : core::formatDurationMs(qint64(m_costMs + 0.5));
    const QString every = core::formatDurationMs(delay);
    if (!m_measured)
        return QStringLiteral("looking for new semaphores every %1 at most (budget %2 of the server's time)")
            .arg(every, budget);
    if (delay >= m_maxGapMs && delay > m_intervalMs)
        return QStringLiteral("looking for new semaphores every %1 (a scan costs ~%2: over a budget of %3 "
                              "even then, the longest gap)")
            .arg(every, cost, budget);
    if (delay > m_intervalMs)
        return QStringLiteral("looking for new semaphores every %1 (a scan costs ~%2, budget %3 of the "
                              "server's time; the interval is shorter)")
            .arg(every, cost, budget);
    return QStringLiteral("looking for new semaphores every %1 (a scan costs ~%2, budget %3)")
        .arg(every, cost, budget);
}

bool DiscoverySchedule::worthTelling(qint64 previousDelayMs, qint64 delayMs) {
    if (previousDelayMs <= 0)
        return true;
    return delayMs >= 2 * previousDelayMs || 2 * delayMs <= previousDelayMs;
}

} // namespace semscope::monitor
