#pragma once

#include "core/SemaphoreStore.h"

#include <QHash>
#include <QObject>
#include <functional>
#include <optional>

namespace semscope::model {

// One read of a semaphore serves everyone who shows it. The semaphore list, the page, the ★ watcher,
// the history and holder search all ask a connection for snapshots on their own timers; without
// this, a watched semaphore on the page was read three times a second, and a 10,000-holder one
// piled requests up on the connection.
// - A read still in flight is never issued again: whoever asks meanwhile gets its answer.
// - An answer younger than the asker's maxAgeMs (its refresh interval) is handed out again instead
//   of reading, unless that asker sent it itself more than half its interval ago: its own last read
//   is one of its intervals old when it asks on its timer. So periodic askers take turns: whoever
//   comes first in an interval reads, the others share it, and the semaphore is read once per
//   interval whatever their phases.
// - maxAgeMs 0 asks for a read issued after the call (an operator's explicit refresh); changed()
//   says the semaphore changed (a write from here, a keyspace notification), so nothing read
//   before it is handed out again.
// Answers always come later (queued), never from inside read(). An answer handed out again has its
// server time moved on by the time since it came, so countdowns stay right.
class SharedSnapshotReads : public QObject {
    Q_OBJECT
public:
    // Issues one read on the connection; its callback must be called exactly once.
    using Issue = std::function<void(const core::SemaphoreRef &, core::Callback<core::Snapshot>)>;
    using Clock = std::function<qint64()>; // monotonic milliseconds

    explicit SharedSnapshotReads(Issue issue, Clock clock = {}, QObject *parent = nullptr);

    // `asker` identifies who asks (the page, the list, the watcher; nullptr: nobody in particular).
    void read(const core::SemaphoreRef &ref, qint64 maxAgeMs, core::Callback<core::Snapshot> done,
              const void *asker = nullptr);
    void changed(const core::SemaphoreRef &ref);

    // Reads issued on the connection so far (for tests and benchmarks).
    quint64 readsIssued() const { return m_issued; }
    quint64 readsIssued(const core::SemaphoreRef &ref) const; // of one semaphore, any profile
    // Answers older than this are dropped from memory (a 10,000-holder snapshot is megabytes).
    static constexpr qint64 kKeepMs = 60 * 1000;

private:
    struct Entry {
        core::SemaphoreRef ref;
        std::optional<core::Snapshot> last;
        quint64 lastSeq = 0;
        qint64 lastIssuedAt = 0;   // its age counts from when it was sent
        qint64 lastAnsweredAt = 0; // its server time is advanced by the time since it came
        const void *lastSentBy = nullptr;
        bool inFlight = false;
        const void *inFlightSentBy = nullptr;
        quint64 inFlightSeq = 0;
        qint64 inFlightIssuedAt = 0;
        quint64 changedBefore = 0; // reads with a lower sequence number predate the last change
        QList<core::Callback<core::Snapshot>> waiting; // get the read in flight
        QList<core::Callback<core::Snapshot>> next;    // need a read issued after the one in flight
    };

    static QString keyOf(const core::SemaphoreRef &ref);
    void issue(const QString &key, Entry &entry, const void *asker);
    void answered(const QString &key, quint64 seq, const core::Snapshot &snapshot);
    void dropOldAnswers(qint64 now);

    Issue m_issue;
    Clock m_clock;
    QHash<QString, Entry> m_entries;
    quint64 m_seq = 0;
    quint64 m_issued = 0;
    QHash<QString, quint64> m_issuedPerSemaphore;
    qint64 m_lastSweep = 0;
};

} // namespace semscope::model
