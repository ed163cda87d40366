#include "SharedSnapshotReads.h"

#include <QElapsedTimer>
#include <QPointer>

namespace semscope::model {

using core::Snapshot;

namespace {
qint64 monotonicMs() {
    static QElapsedTimer clock = [] {
        QElapsedTimer t;
        t.start();
        return t;
    }();
    return clock.elapsed();
}
} // namespace

SharedSnapshotReads::SharedSnapshotReads(Issue issue, Clock clock, QObject *parent)
    : QObject(parent)
    , m_issue(std::move(issue))
    , m_clock(clock ? std::move(clock) : Clock(monotonicMs)) {}

QString SharedSnapshotReads::keyOf(const core::SemaphoreRef &ref) {
    // The profile decides how a layout is read (limit, timeout, outer lock), so askers with different
    // profiles do not share an answer. A score unit that discovery guessed is the one the store
    // guesses itself from the same scores when told Auto: the semaphore list (whose refs carry
    // discovery's guesses) and the watcher (whose refs come from the settings) share their reads.
    const core::SemaphoreProfile &p = ref.profile;
    const QChar sep(0x1f);
    const int unit = int(p.unitInferred ? core::ScoreUnit::Auto : p.scoreUnit);
    return core::kindName(ref.kind) + sep + ref.name + sep +
           (p.limit ? QString::number(*p.limit) : QString()) + sep +
           (p.timeoutMs ? QString::number(*p.timeoutMs) : QString()) + sep + QString::number(unit) + sep +
           p.outerLockKey;
}

void SharedSnapshotReads::read(const core::SemaphoreRef &ref, qint64 maxAgeMs, core::Callback<Snapshot> done,
                               const void *asker) {
    const qint64 now = m_clock();
    dropOldAnswers(now);
    const QString key = keyOf(ref);
    Entry &e = m_entries[key];
    e.ref = ref;
    const bool shareable = maxAgeMs > 0;
    // An asker's own last read is as old as its interval when it asks on its timer: not shared back,
    // or a watcher alone would read every other interval. Asked again soon after (a rescan right
    // after the timer), it is.
    const bool ownLastRead = asker && asker == e.lastSentBy && now - e.lastIssuedAt > maxAgeMs / 2;
    if (shareable && e.last && !ownLastRead && e.lastSeq >= e.changedBefore &&
        now - e.lastIssuedAt <= maxAgeMs) {
        Snapshot s = *e.last;
        // The server's clock went on since the answer came: countdowns (ServerClock::sync) and
        // expiry checks take the snapshot's server time as "now".
        if (s.serverNowMs > 0)
            s.serverNowMs += now - e.lastAnsweredAt;
        QMetaObject::invokeMethod(
            this, [done = std::move(done), s = std::move(s)] { done(s); }, Qt::QueuedConnection);
        return;
    }
    if (e.inFlight) {
        if (shareable && e.inFlightSeq >= e.changedBefore)
            e.waiting << std::move(done);
        else
            e.next << std::move(done);
        return;
    }
    e.waiting << std::move(done);
    issue(key, e, asker);
}

quint64 SharedSnapshotReads::readsIssued(const core::SemaphoreRef &ref) const {
    return m_issuedPerSemaphore.value(core::kindName(ref.kind) + QChar(0x1f) + ref.name);
}

void SharedSnapshotReads::changed(const core::SemaphoreRef &ref) {
    // Every profile's entry of this semaphore.
    for (auto it = m_entries.begin(); it != m_entries.end(); ++it)
        if (it->ref == ref)
            it->changedBefore = m_seq + 1;
}

void SharedSnapshotReads::issue(const QString &key, Entry &e, const void *asker) {
    e.inFlight = true;
    e.inFlightSentBy = asker;
    e.inFlightSeq = ++m_seq;
    e.inFlightIssuedAt = m_clock();
    ++m_issued;
    ++m_issuedPerSemaphore[core::kindName(e.ref.kind) + QChar(0x1f) + e.ref.name];
    QPointer<SharedSnapshotReads> self(this);
    const quint64 seq = e.inFlightSeq;
    m_issue(e.ref, [self, key, seq](Snapshot s) {
        if (self)
            self->answered(key, seq, s);
    });
}

void SharedSnapshotReads::answered(const QString &key, quint64 seq, const Snapshot &snapshot) {
    auto it = m_entries.find(key);
    if (it == m_entries.end() || !it->inFlight || it->inFlightSeq != seq)
        return;
    Entry &e = *it;
    e.inFlight = false;
    e.last = snapshot;
    e.lastSeq = seq;
    e.lastIssuedAt = e.inFlightIssuedAt;
    e.lastAnsweredAt = m_clock();
    e.lastSentBy = e.inFlightSentBy;
    const QList<core::Callback<Snapshot>> waiting = std::exchange(e.waiting, {});
    if (!e.next.isEmpty()) {
        e.waiting = std::exchange(e.next, {});
        issue(key, e, nullptr); // for several askers: anyone may share it
    }
    // Last: a callback may ask again (and may find the read just issued).
    for (const auto &done : waiting)
        done(snapshot);
}

void SharedSnapshotReads::dropOldAnswers(qint64 now) {
    if (now - m_lastSweep < kKeepMs / 6)
        return;
    m_lastSweep = now;
    for (auto it = m_entries.begin(); it != m_entries.end();) {
        if (!it->inFlight && now - it->lastIssuedAt > kKeepMs)
            it = m_entries.erase(it);
        else
            ++it;
    }
}

} // namespace semscope::model
