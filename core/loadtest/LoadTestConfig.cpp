#include "LoadTestConfig.h"

#include <QRandomGenerator>
#include <QThread>
#include <algorithm>

namespace semscope::core {

bool LoadTestConfig::kindHasWaitQueue(Kind kind) {
    // The layouts whose Redis side implements WaitQueueKind (checked against it in
    // tst_loadtest_redis, so that the two cannot drift apart).
    return kind == Kind::Leased;
}

qint64 LoadTestConfig::recommendedWaitMs(Kind kind) {
    return kindHasWaitQueue(kind) ? 10'000 : 0;
}

bool LoadTestConfig::kindNotifiesReleases(Kind kind) {
    return kindHasWaitQueue(kind);
}

QString LoadTestConfig::acquireModeName() const {
    return waits() ? QStringLiteral("wait") : QStringLiteral("retry");
}

qint64 LoadTestConfig::effectiveRefreshIntervalMs() const {
    if (refreshIntervalMs > 0)
        return refreshIntervalMs;
    return std::max<qint64>(1, ttlMs / 3);
}

int LoadTestConfig::effectiveThreads() const {
    if (threads > 0)
        return std::clamp(threads, 1, std::max(1, connections));
    return std::clamp(QThread::idealThreadCount(), 1, std::max(1, connections));
}

LoadTestConfig LoadTestConfig::normalized() const {
    LoadTestConfig c = *this;
    c.ref.profile.limit = c.limit;
    if (!c.ref.profile.timeoutMs)
        c.ref.profile.timeoutMs = c.ttlMs;
    c.connections = std::clamp(c.connections, 1, std::max(1, c.clients));
    c.threads = c.effectiveThreads();
    c.refreshIntervalMs = c.effectiveRefreshIntervalMs();
    if (c.seed == 0)
        c.seed = QRandomGenerator::global()->generate64() | 1;
    if (c.holderPrefix.isEmpty())
        c.holderPrefix = QStringLiteral("lt-%1").arg(QRandomGenerator::global()->generate() & 0xffffff, 6, 16,
                                                     QLatin1Char('0'));
    return c;
}

QString LoadTestConfig::validate() const {
    if (ref.name.isEmpty())
        return QStringLiteral("a semaphore name is required");
    if (limit < 1)
        return QStringLiteral("limit must be at least 1");
    if (clients < 1 || clients > 100'000)
        return QStringLiteral("clients must be between 1 and 100000");
    if (connections < 1)
        return QStringLiteral("connections must be at least 1");
    if (ttlMs < 1)
        return QStringLiteral("ttl must be positive");
    if (ops <= 0 && durationMs <= 0)
        return QStringLiteral("give a positive duration or operation count");
    if (crashRate < 0.0 || crashRate > 1.0)
        return QStringLiteral("crash rate must be between 0 and 1");
    if (crashWindowMs < 0)
        return QStringLiteral("crash window must not be negative");
    if (skewMs < 0)
        return QStringLiteral("skew must not be negative");
    if (waitMs < 0)
        return QStringLiteral("wait must not be negative");
    if (replicas < 0)
        return QStringLiteral("replicas must not be negative");
    return {};
}

} // namespace semscope::core
