#include "MetricsSnapshot.h"

#include <algorithm>

namespace semscope::monitor {

QString backendLabel(core::Backend backend) {
    return backend == core::Backend::Consul ? QStringLiteral("consul") : QStringLiteral("redis");
}

SemaphoreMetrics semaphoreMetrics(const core::Snapshot &snapshot, qint64 localNowMs) {
    SemaphoreMetrics m;
    m.kind = snapshot.ref.kind;
    m.name = snapshot.ref.name;
    m.limit = snapshot.limit;
    m.used = snapshot.usedCount();
    m.waiters = snapshot.countInState(core::HolderState::Waiting);
    m.staleHolders = snapshot.countInState(core::HolderState::Stale) +
                     snapshot.countInState(core::HolderState::ExpiredPresent);
    m.overLimitHolders = snapshot.countInState(core::HolderState::OverLimit);

    std::optional<qint64> oldestMs;
    for (const core::Holder &h : snapshot.holders) {
        if (!h.occupiesSlot())
            continue;
        // The layout's own acquire time (server clock) where it keeps one; otherwise how long
        // semscope has watched the holder (local clock, possibly carried over from the history).
        std::optional<qint64> age;
        if (h.acquiredAtMs && snapshot.serverNowMs > 0)
            age = snapshot.serverNowMs - *h.acquiredAtMs;
        else if (h.firstSeenMs)
            age = localNowMs - *h.firstSeenMs;
        if (age)
            oldestMs = std::max(oldestMs.value_or(0), std::max<qint64>(*age, 0));
    }
    if (oldestMs)
        m.oldestHolderAgeSeconds = double(*oldestMs) / 1000.0;
    if (const std::optional<qint64> soonest = snapshot.soonestExpiryMs(); soonest && snapshot.serverNowMs > 0)
        m.soonestExpirySeconds = double(*soonest - snapshot.serverNowMs) / 1000.0;
    return m;
}

} // namespace semscope::monitor
