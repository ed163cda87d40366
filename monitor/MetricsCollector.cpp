#include "MetricsCollector.h"

#include "SemaphoreWatcher.h"

#include <QDateTime>

namespace semscope::monitor {

MetricsCollector::MetricsCollector(SemaphoreWatcher &watcher, core::Backend backend, const QString &endpoint,
                                   QObject *parent)
    : QObject(parent)
    , m_watcher(watcher)
    , m_clock([] { return QDateTime::currentMSecsSinceEpoch(); }) {
    m_snapshot.backend = backend;
    m_snapshot.endpoint = endpoint;
    connect(&watcher, &SemaphoreWatcher::roundFinished, this, &MetricsCollector::takeRound);
    connect(&watcher, &SemaphoreWatcher::events, this, [this](const QList<HolderEvent> &list) {
        for (const HolderEvent &e : list)
            ++m_snapshot.holderEvents[e.event];
    });
    connect(&watcher, &SemaphoreWatcher::readFailed, this, [this] { ++m_snapshot.scrapeErrors; });
    connect(&watcher, &SemaphoreWatcher::discoveryFinished, this,
            [this](qint64 durationMs, bool ok, const QString &) {
                m_snapshot.discoveryDurationSeconds = double(durationMs) / 1000.0;
                if (!ok)
                    ++m_snapshot.scrapeErrors;
            });
}

void MetricsCollector::takeRound() {
    const qint64 now = m_clock();
    QList<SemaphoreMetrics> semaphores;
    const QList<core::Snapshot> latest = m_watcher.latest();
    semaphores.reserve(latest.size());
    for (const core::Snapshot &s : latest)
        semaphores << semaphoreMetrics(s, now);
    m_snapshot.semaphores = std::move(semaphores);
    Q_EMIT updated();
}

} // namespace semscope::monitor
