#include "SemaphoreWatcher.h"

#include "HistoryWorker.h"
#include "SeenHolders.h"
#include "SnapshotDiff.h"

#include "core/StuckHolders.h"

#include <QDateTime>
#include <QPointer>

namespace semscope::monitor {

using core::Holder;
using core::SemaphoreRef;
using core::Snapshot;

namespace {

// A snapshot that carries no reading at all: the store could not ask the server (its text is the
// first warning). Diffing it would report every holder released.
bool carriesNoReading(const Snapshot &s) {
    return s.serverNowMs <= 0 && !s.warnings.isEmpty() && s.holders.isEmpty();
}

} // namespace

SemaphoreWatcher::SemaphoreWatcher(core::SemaphoreStore &store, WatchOptions options, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_options(std::move(options))
    , m_clock([] { return QDateTime::currentMSecsSinceEpoch(); })
    , m_schedule(m_options.discoveryIntervalMs, m_options.discoveryBudget, m_options.discoveryMaxGapMs) {
    qRegisterMetaType<QList<HolderEvent>>();
    m_options.intervalMs = qMax<qint64>(10, m_options.intervalMs);
    m_options.maxInFlight = qMax(1, m_options.maxInFlight);
    m_tick.setInterval(int(m_options.intervalMs));
    connect(&m_tick, &QTimer::timeout, this, &SemaphoreWatcher::onTick);
    m_discoveryTimer.setSingleShot(true);
    connect(&m_discoveryTimer, &QTimer::timeout, this, &SemaphoreWatcher::discoverNow);
}

SemaphoreWatcher::~SemaphoreWatcher() {
    stop();
}

QString SemaphoreWatcher::keyOf(const SemaphoreRef &ref) {
    return core::kindName(ref.kind) + QLatin1Char('\x1f') + ref.name;
}

void SemaphoreWatcher::start() {
    if (m_running)
        return;
    m_running = true;
    ++m_generation;
    if (!m_options.only.isEmpty()) {
        for (const SemaphoreRef &ref : std::as_const(m_options.only)) {
            const QString key = keyOf(ref);
            if (m_watched.contains(key))
                continue;
            Watched w;
            w.ref = ref;
            w.baseline = true; // there before watching started: no `appeared`
            m_watched.insert(key, w);
            m_order << key;
        }
        m_discoveredOnce = true;
        m_roundPending = QSet<QString>(m_order.begin(), m_order.end());
        issueReads();
    } else {
        discoverNow();
    }
    m_tick.start();
}

void SemaphoreWatcher::stop() {
    if (!m_running)
        return;
    m_running = false;
    ++m_generation;
    m_cancel.cancel();
    m_tick.stop();
    m_discoveryTimer.stop();
    for (const Watched &w : std::as_const(m_watched))
        if (w.pushed)
            m_store.unwatch(w.ref);
    for (Watched &w : m_watched) {
        w.pushed = false;
        w.inFlight = false;
    }
    m_inFlight = 0;
    m_discovering = false;
    m_discoverAgain = false;
}

QList<Snapshot> SemaphoreWatcher::latest() const {
    QList<Snapshot> out;
    for (const QString &key : m_order) {
        const Watched &w = m_watched[key];
        if (w.last && !w.leaving)
            out << *w.last;
    }
    return out;
}

QList<SemaphoreRef> SemaphoreWatcher::watched() const {
    QList<SemaphoreRef> out;
    for (const QString &key : m_order)
        out << m_watched[key].ref;
    return out;
}

void SemaphoreWatcher::setChangeHints(core::SemaphoreChangeHints *hints) {
    for (const QMetaObject::Connection &c : std::as_const(m_hintsConnections))
        disconnect(c);
    m_hintsConnections.clear();
    m_hints = hints;
    if (!hints)
        return;
    m_hintsConnections << connect(hints, &core::SemaphoreChangeHints::changed, this,
                                  &SemaphoreWatcher::readSoon);
    // A watcher that discovers wants new keys' events too; one of a fixed list does not.
    const bool discovers = m_options.only.isEmpty() && m_options.discoveryIntervalMs > 0;
    hints->setNewKeysWanted(discovers);
    if (discovers)
        m_hintsConnections << connect(hints, &core::SemaphoreChangeHints::mayHaveAppeared, this,
                                      [this](const QString &key) {
                                          discoverSoon();
                                          Q_EMIT discoveryHinted(key);
                                      });
    // The semaphores and their keys as last read: discovery may have found more, a layout may have
    // grown a key.
    m_hintsConnections << connect(this, &SemaphoreWatcher::roundFinished, hints, [this] {
        if (m_hints)
            m_hints->followSemaphores(latest());
    });
    hints->followSemaphores(latest());
}

void SemaphoreWatcher::readSoon(const SemaphoreRef &ref) {
    auto it = m_watched.find(keyOf(ref));
    if (it == m_watched.end())
        return;
    it->due = true;
    issueReads();
}

void SemaphoreWatcher::readAllSoon() {
    for (Watched &w : m_watched)
        w.due = true;
    issueReads();
}

void SemaphoreWatcher::discoverSoon() {
    if (!m_running || !m_options.only.isEmpty() || m_options.discoveryIntervalMs <= 0)
        return;
    if (m_discovering) {
        m_discoverAgain = true; // the running scan may already be past the new key
        return;
    }
    qint64 delay = kCoalesceMs;
    if (m_sinceDiscovery.isValid())
        delay = qMax(delay, m_schedule.budgetGapMs() - m_sinceDiscovery.elapsed());
    if (!m_discoveryTimer.isActive() || m_discoveryTimer.remainingTime() > delay)
        m_discoveryTimer.start(int(qMin<qint64>(delay, INT_MAX)));
}

void SemaphoreWatcher::discoverNow() {
    if (!m_running || m_discovering || !m_options.only.isEmpty())
        return;
    m_discovering = true;
    m_cancel = core::Cancellation();
    core::DiscoverRequest request;
    request.match = m_options.match;
    request.kind = m_options.kind;
    request.known = m_options.known;
    QElapsedTimer timer;
    timer.start();
    const bool first = !m_discoveredOnce;
    QPointer<SemaphoreWatcher> self(this);
    const quint64 generation = m_generation;
    m_store.discover(
        request, m_cancel, [](const core::DiscoverProgress &) {},
        [self, generation, timer, first](const core::DiscoverResult &result) {
            if (!self || self->m_generation != generation)
                return;
            self->onDiscovered(result, timer.elapsed(), first);
        });
}

void SemaphoreWatcher::onDiscovered(const core::DiscoverResult &result, qint64 durationMs, bool first) {
    m_discovering = false;
    if (m_options.discoveryIntervalMs > 0) {
        // A failed discovery costs what it took as well (a timeout: the most).
        m_schedule.recordDiscovery(durationMs);
        const qint64 gap = m_schedule.nextDelayMs();
        m_discoveryTimer.start(int(qMin<qint64>(gap, INT_MAX)));
        if (DiscoverySchedule::worthTelling(m_toldGapMs, gap)) {
            m_toldGapMs = gap;
            Q_EMIT discoveryScheduled(gap, m_schedule.explanation());
        }
        m_sinceDiscovery.start();
        if (std::exchange(m_discoverAgain, false))
            discoverSoon();
    }
    if (!result.ok) {
        Q_EMIT discoveryFinished(durationMs, false, result.error);
        return;
    }
    m_discoveredOnce = true;
    QSet<QString> found;
    for (const core::DiscoveredSemaphore &d : result.semaphores) {
        if ((m_options.kind && d.ref.kind != *m_options.kind) || (m_options.accept && !m_options.accept(d)))
            continue;
        const QString key = keyOf(d.ref);
        found.insert(key);
        auto it = m_watched.find(key);
        if (it != m_watched.end()) {
            it->leaving = false;
            continue;
        }
        if (m_watched.size() >= m_options.maxSemaphores)
            continue;
        Watched w;
        w.ref = d.ref;
        // The store's discovery knows no profiles; take the operator's where one was given.
        if (m_options.resolveProfile) {
            w.ref.profile = m_options.resolveProfile(d.ref);
        } else {
            for (const SemaphoreRef &k : std::as_const(m_options.known))
                if (k == d.ref)
                    w.ref.profile = k.profile;
        }
        w.baseline = first;
        m_watched.insert(key, w);
        m_order << key;
        m_roundPending.insert(key);
    }
    const int matched = int(found.size());
    if (matched > m_options.maxSemaphores)
        Q_EMIT truncated(matched, m_options.maxSemaphores);
    for (auto it = m_watched.begin(); it != m_watched.end(); ++it) {
        if (!found.contains(it.key()) && !it->leaving) {
            it->leaving = true; // one last read reports its holders' departures, then it goes
            it->due = true;
        }
    }
    Q_EMIT discoveryFinished(durationMs, true, QString());
    issueReads();
    finishRoundIfDone();
}

void SemaphoreWatcher::onTick() {
    if (m_order.isEmpty() && m_discoveredOnce) {
        // Nothing to read: a round of nothing is still a round (the exporter's snapshot is current).
        ++m_rounds;
        Q_EMIT roundFinished();
        return;
    }
    for (auto it = m_watched.begin(); it != m_watched.end(); ++it) {
        if (!it->pushed)
            it->due = true;
    }
    if (m_roundPending.isEmpty()) {
        for (const QString &key : std::as_const(m_order))
            if (!m_watched[key].pushed || !m_watched[key].last)
                m_roundPending.insert(key);
    }
    issueReads();
}

void SemaphoreWatcher::issueReads() {
    if (!m_running || m_order.isEmpty())
        return;
    // Round robin from where the last read was issued: with more semaphores than reads in flight,
    // the first few must not be read again and again while the rest wait.
    const qsizetype n = m_order.size();
    for (qsizetype step = 0; step < n && m_inFlight < m_options.maxInFlight; ++step) {
        const qsizetype i = (m_cursor + step) % n;
        const QString key = m_order.at(i);
        Watched &w = m_watched[key];
        if (!w.due || w.inFlight)
            continue;
        read(key);
        m_cursor = (i + 1) % qMax<qsizetype>(1, m_order.size());
        if (m_order.size() != n)
            return; // read() may drop a semaphore; the next call starts afresh
    }
}

void SemaphoreWatcher::read(const QString &key) {
    Watched &w = m_watched[key];
    w.due = false;
    QPointer<SemaphoreWatcher> self(this);
    const quint64 generation = m_generation;
    if (m_store.canWatch() && !w.leaving) {
        // Blocking queries: the first answer comes at once, the next ones when something changes.
        // Neither the in-flight bound nor the tick applies to them: they cost nothing while idle.
        if (w.pushed)
            return;
        w.pushed = true;
        m_store.watch(w.ref, [self, generation, key](Snapshot s) {
            if (self && self->m_generation == generation)
                self->onSnapshot(key, std::move(s), true);
        });
        return;
    }
    // In flight until its history step is done as well: a semaphore whose history lags is not read
    // again meanwhile, so a locked history file cannot pile up reads.
    w.inFlight = true;
    ++m_inFlight;
    m_store.snapshot(w.ref, [self, generation, key](Snapshot s) {
        if (self && self->m_generation == generation)
            self->onSnapshot(key, std::move(s), false);
    });
}

void SemaphoreWatcher::onSnapshot(const QString &key, Snapshot snapshot, bool pushed) {
    auto it = m_watched.find(key);
    if (it == m_watched.end())
        return;
    const qint64 now = m_clock();
    if (!m_history) {
        finishSnapshot(key, std::move(snapshot), pushed, now, localFirstSeen(snapshot, now), {});
        return;
    }
    // The history's part (when holders were first seen, force-release marks) runs on its own
    // thread; the rest continues when it answers. Its answers come in the order asked, so the
    // events of a semaphore keep their order.
    const bool reading = !carriesNoReading(snapshot);
    const QString endpoint = m_store.endpoint();
    const SemaphoreRef seenRef = snapshot.ref;
    const SemaphoreRef marksRef = it->ref;
    const QStringList ids = reading ? holdersWithoutTime(snapshot) : QStringList();
    // Marks are written before the force-release itself, so they are there by the time the holder
    // is seen gone; the window covers missed reads and a slow server.
    const qint64 since = now - qMax<qint64>(60000, 10 * m_options.intervalMs);
    const quint64 generation = m_generation;
    m_history->run(
        [reading, endpoint, seenRef, marksRef, ids, now, since](HistoryStore &history) {
            HistoryAnswer answer;
            if (reading && history.isAvailable())
                answer.firstSeen = history.recordSeen(endpoint, seenRef, ids, now);
            if (reading)
                answer.marks = history.forceReleasedSince(endpoint, marksRef, since);
            return answer;
        },
        this,
        [this, generation, key, snapshot = std::move(snapshot), pushed, now](HistoryAnswer answer) mutable {
            if (generation != m_generation)
                return; // stopped meanwhile: as for a read's answer
            // A history that is off: this run's memory, as without one.
            const auto firstSeen = answer.firstSeen ? answer.firstSeen : localFirstSeen(snapshot, now);
            finishSnapshot(key, std::move(snapshot), pushed, now, firstSeen, answer.marks);
        });
}

void SemaphoreWatcher::finishSnapshot(const QString &key, Snapshot snapshot, bool pushed, qint64 now,
                                      const std::optional<QHash<QString, qint64>> &firstSeen,
                                      const QHash<QString, QString> &marks) {
    auto it = m_watched.find(key);
    if (it == m_watched.end())
        return;
    if ((!pushed || it->leaving) && it->inFlight) {
        // A leaving semaphore may be erased below by a pushed answer while its last read is out.
        it->inFlight = false;
        --m_inFlight;
    }
    m_roundPending.remove(key);
    if (carriesNoReading(snapshot)) {
        Q_EMIT readFailed(it->ref, snapshot.warnings.constFirst());
        if (it->leaving) {
            // It is gone (or the server is): say so once rather than keep asking.
            const SemaphoreRef ref = it->ref;
            if (it->pushed)
                m_store.unwatch(ref);
            m_watched.erase(it);
            m_order.removeAll(key);
            emitEvents({disappearedEvent(ref, now)});
        }
        finishRoundIfDone();
        if (!pushed)
            issueReads();
        return;
    }
    if (firstSeen) {
        for (Holder &h : snapshot.holders)
            if (!h.acquiredAtMs && !h.firstSeenMs && firstSeen->contains(h.id))
                h.firstSeenMs = firstSeen->value(h.id);
    }
    core::markStuckHolders(snapshot, now);

    // Marks only matter for holders seen before (a first read has nobody to lose).
    const QHash<QString, QString> forced = it->last ? marks : QHash<QString, QString>();
    const QStringList forcedIds = forced.keys();
    QList<HolderEvent> list = diffSnapshots(it->last ? &*it->last : nullptr, snapshot, now,
                                            QSet<QString>(forcedIds.begin(), forcedIds.end()));
    if (!it->last && it->baseline)
        list.removeIf([](const HolderEvent &e) { return e.event == events::Appeared; });
    for (HolderEvent &e : list)
        if (e.event == events::ForceReleased && !forced.value(e.holder).isEmpty())
            e.details = QStringLiteral("force-released by %1").arg(forced.value(e.holder));
    const bool leaving = it->leaving;
    const SemaphoreRef ref = it->ref;
    if (leaving) {
        if (it->pushed)
            m_store.unwatch(ref);
        m_watched.erase(it);
        m_order.removeAll(key);
        list << disappearedEvent(ref, now);
    } else {
        it->last = std::move(snapshot);
        it->pushed = pushed || it->pushed;
    }
    emitEvents(std::move(list));
    finishRoundIfDone();
    if (!pushed)
        issueReads();
}

std::optional<QHash<QString, qint64>> SemaphoreWatcher::localFirstSeen(const Snapshot &snapshot,
                                                                       qint64 nowMs) {
    if (carriesNoReading(snapshot))
        return std::nullopt;
    // No history: this run's memory (the GUI's behaviour before the history). Departed holders are
    // forgotten, so a holder that comes back starts again.
    QHash<QByteArray, qint64> &mine = m_firstSeen[keyOf(snapshot.ref)];
    QHash<QByteArray, qint64> next;
    QHash<QString, qint64> out;
    for (const Holder &h : snapshot.holders) {
        if (h.acquiredAtMs || h.firstSeenMs || !h.occupiesSlot())
            continue;
        const QByteArray id = h.id.toUtf8();
        const qint64 seen = mine.value(id, nowMs);
        next.insert(id, seen);
        out.insert(h.id, seen);
    }
    mine = next;
    return out;
}

void SemaphoreWatcher::emitEvents(QList<HolderEvent> list) {
    if (list.isEmpty())
        return;
    if (m_history)
        m_history->record(m_store.endpoint(), list); // queued: written on the history's thread
    Q_EMIT events(list);
}

void SemaphoreWatcher::finishRoundIfDone() {
    if (!m_running || !m_discoveredOnce || !m_roundPending.isEmpty())
        return;
    ++m_rounds;
    // The next round starts with the next tick (or, for pushed semaphores, the next change).
    for (const QString &key : std::as_const(m_order))
        if (!m_watched[key].pushed)
            m_roundPending.insert(key);
    Q_EMIT roundFinished();
}

} // namespace semscope::monitor
