#pragma once

#include "MetricsSnapshot.h"

#include <QObject>
#include <functional>

namespace semscope::monitor {

class SemaphoreWatcher;

// Keeps the exporter's MetricsSnapshot current from what a SemaphoreWatcher reports: the
// semaphores' values after every round, holder events and failures as counters, the duration of
// the latest discovery. snapshot() only copies what is already there — a scrape never reads a
// store; reads happen on the watcher's schedule.
class MetricsCollector : public QObject {
    Q_OBJECT
public:
    // `backend` and `endpoint` (without secrets) label every sample.
    MetricsCollector(SemaphoreWatcher &watcher, core::Backend backend, const QString &endpoint,
                     QObject *parent = nullptr);

    MetricsSnapshot snapshot() const { return m_snapshot; }
    // The client clock (ms since the epoch); tests replace it.
    void setClock(std::function<qint64()> clock) { m_clock = std::move(clock); }

Q_SIGNALS:
    // The semaphores' values were taken again (after a watcher round).
    void updated();

private:
    void takeRound();

    SemaphoreWatcher &m_watcher;
    MetricsSnapshot m_snapshot;
    std::function<qint64()> m_clock;
};

} // namespace semscope::monitor
