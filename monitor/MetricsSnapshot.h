#pragma once

#include "core/Kind.h"
#include "core/SemaphoreTypes.h"

#include <QList>
#include <QMap>
#include <QString>
#include <optional>

namespace semscope::monitor {

// What the exporter says about one semaphore, taken from one snapshot when it was read (values,
// not references: a scrape renders these and never touches the store).
struct SemaphoreMetrics {
    core::Kind kind = core::Kind::Leased;
    QString name;
    std::optional<qint64> limit; // unset: the layout stores none and no profile gives one
    qint64 used = 0;             // permits taken by holders (live, expired-but-present, stale, over-limit)
    qint64 waiters = 0;
    // Holders whose owner is gone or overdue: expired-but-present, Consul session gone, a lease-less
    // `slots` holder watched longer than the stuck threshold (core/StuckHolders.h).
    qint64 staleHolders = 0;
    qint64 overLimitHolders = 0;
    std::optional<double> oldestHolderAgeSeconds; // unset: no holder, or none whose age is known
    std::optional<double> soonestExpirySeconds;   // unset: no holder with a lease; negative: overdue
};

// Everything one `/metrics` answer shows: the semaphores of the latest round and the counters kept
// since the exporter started.
struct MetricsSnapshot {
    core::Backend backend = core::Backend::Redis;
    QString endpoint; // already without secrets (core::redactedUrl)
    QList<SemaphoreMetrics> semaphores;
    QMap<QString, qint64> holderEvents; // event name ("acquired", ...) -> count since start
    qint64 scrapeErrors = 0;            // failed discoveries and failed semaphore reads since start
    std::optional<double> discoveryDurationSeconds; // of the latest discovery; unset before the first
};

// The metrics of one snapshot. `localNowMs` is this machine's clock at the time the snapshot was
// read: the clock Holder::firstSeenMs was taken with (server times use snapshot.serverNowMs).
SemaphoreMetrics semaphoreMetrics(const core::Snapshot &snapshot, qint64 localNowMs);

// "redis" / "consul", the `backend` label.
QString backendLabel(core::Backend backend);

} // namespace semscope::monitor
