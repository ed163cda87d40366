#pragma once

#include "monitor/HistoryStore.h"

#include <QHash>
#include <QSet>

namespace semscope::model {

// The semaphores one connection has seen (the history's seen_semaphores, loaded once and kept up to
// date by every complete scan), and which of them the list keeps while their keys are gone. A
// layout whose keys Redis deletes when empty (a ZSET with no members, a lock between holders) has
// no keys between holders: without this it dropped out of the list at some scans and came back at
// others. Kept "empty since <last seen>" until the operator forgets it or it stays empty past
// the retention the operator sets (View → Keep empty semaphores listed…).
class SeenSemaphores {
public:
    static constexpr qint64 kDefaultRetentionMs = 24LL * 3600 * 1000;

    // 0: an empty semaphore is dropped at the first scan that misses it (the old behaviour).
    void setRetentionMs(qint64 ms) { m_retentionMs = qMax<qint64>(0, ms); }
    qint64 retentionMs() const { return m_retentionMs; }

    // What the history knew when the connection opened; merged with what scans saw meanwhile.
    void load(const QList<monitor::SeenSemaphore> &seen);

    struct Outcome {
        QList<monitor::SeenSemaphore> empty; // seen before, missing now, within the retention
        QList<core::SemaphoreRef> expired;   // missing for longer than the retention: forget them
    };
    // A complete scan found `present` at `nowMs`.
    Outcome afterScan(const QList<core::SemaphoreRef> &present, qint64 nowMs);
    // Whether a semaphore last seen at `lastSeenMs` has been empty too long at `nowMs`.
    bool expired(qint64 lastSeenMs, qint64 nowMs) const { return nowMs - lastSeenMs > m_retentionMs; }
    void forget(const core::SemaphoreRef &ref);
    bool contains(const core::SemaphoreRef &ref) const;

private:
    // Forgotten in this session: an answer of the history read before the Forget does not bring
    // them back (a scan that finds them does).
    QSet<QString> m_forgotten;
    static QString keyOf(const core::SemaphoreRef &ref);

    qint64 m_retentionMs = kDefaultRetentionMs;
    QHash<QString, monitor::SeenSemaphore> m_seen;
};

} // namespace semscope::model
