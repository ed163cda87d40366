#pragma once

#include "DiscoverySchedule.h"
#include "HolderEvent.h"

#include "core/Cancellation.h"
#include "core/SemaphoreChangeHints.h"
#include "core/SemaphoreStore.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QTimer>
#include <functional>
#include <optional>

namespace semscope::monitor {

class HistoryWorker;

struct WatchOptions {
    QString match = QStringLiteral("*"); // glob on names (DiscoverRequest::match)
    std::optional<core::Kind> kind;      // only this kind
    qint64 intervalMs = 1000;            // re-read of every semaphore (polled backends)
    // Rediscovery: at least this long between two (watch/serve: the read interval), longer when a
    // discovery costs the server more than discoveryBudget of its time (DiscoverySchedule), at most
    // discoveryMaxGapMs. 0: discover once.
    qint64 discoveryIntervalMs = 1000;
    double discoveryBudget = DiscoverySchedule::kDefaultBudget;
    qint64 discoveryMaxGapMs = DiscoverySchedule::kDefaultMaxGapMs;
    int maxInFlight = 8;      // snapshots outstanding at once: bounds the read cost
    int maxSemaphores = 1000; // watched at most (the first found); the rest is reported
    // Profiles of semaphores whose layout stores no limit (DiscoverRequest::known).
    QList<core::SemaphoreRef> known;
    // Non-empty: watch exactly these semaphores and never discover (the GUI's starred ones).
    QList<core::SemaphoreRef> only;
    // Optional: which discovered semaphores to watch (e.g. `--match` on names or keys); all if unset.
    std::function<bool(const core::DiscoveredSemaphore &)> accept;
    // Optional: the profile of a discovered semaphore (core::ProfileStore::resolve); `known` if unset.
    std::function<core::SemaphoreProfile(const core::SemaphoreRef &)> resolveProfile;
};

// Watches one store on its own schedule and turns what it reads into events (SnapshotDiff): the one
// event source behind `watch`, `serve --metrics`, the History tab and the desktop notifications.
// - Discovery runs at start and then as often as its cost allows (DiscoverySchedule: every
//   discoveryIntervalMs on a small keyspace, less often on a large one); semaphores it no longer
//   finds are read one last time (so their holders' departures are reported) and then reported
//   `disappeared`. discoveryScheduled() says how often and why when that changes.
// - Every watched semaphore is re-read every intervalMs, at most maxInFlight reads at a time; a read
//   still outstanding is never issued again (a slow server gets fewer reads, not a queue).
// - Where the store pushes changes (SemaphoreStore::canWatch: Consul blocking queries), those
//   replace polling for that semaphore.
// - readSoon() asks for an early re-read (a Redis keyspace notification, an operator action).
// - With a history (HistoryWorker, on its own thread), holders without an acquire time get
//   firstSeenMs from it (so the stuck rule of core/StuckHolders survives restarts), what was seen is
//   recorded there, and events are appended to it; force-release marks there turn `released` into
//   `force-released`. A read's events come out once the history answered.
// Semaphores present at the first discovery (and every one in `only`) produce no `appeared` (they were there
// before watching started); their stale/over-limit/expired holders are still reported.
class SemaphoreWatcher : public QObject {
    Q_OBJECT
public:
    SemaphoreWatcher(core::SemaphoreStore &store, WatchOptions options, QObject *parent = nullptr);
    ~SemaphoreWatcher() override;

    const WatchOptions &options() const { return m_options; }
    // Not owned; must outlive the watcher (or be reset to nullptr). Every history access runs on the
    // worker's thread: a read's events come out once the history answered (in the order read).
    void setHistory(HistoryWorker *history) { m_history = history; }
    // Not owned (nullptr: none). The watcher tells it what it watches after every round and reads a
    // semaphore it names at once; the interval reads go on, since hints can be lost.
    void setChangeHints(core::SemaphoreChangeHints *hints);
    // The client clock (ms since the epoch); tests replace it.
    void setClock(std::function<qint64()> clock) { m_clock = std::move(clock); }

    void start();
    void stop();
    bool isRunning() const { return m_running; }

    // The latest snapshot of every watched semaphore (failed reads keep the previous one).
    QList<core::Snapshot> latest() const;
    QList<core::SemaphoreRef> watched() const;
    int roundsFinished() const { return m_rounds; }
    const DiscoverySchedule &discoverySchedule() const { return m_schedule; }

public:
    static constexpr qint64 kCoalesceMs = 100;

public Q_SLOTS:
    void readSoon(const core::SemaphoreRef &ref);
    void readAllSoon();
    // Re-runs discovery now (a new semaphore is expected).
    void discoverNow();
    // Re-runs discovery soon: events within kCoalesceMs make one discovery, and it starts no sooner
    // after the previous one than the budget allows (DiscoverySchedule::budgetGapMs). Hints call it
    // when a key that may be a new semaphore was written.
    void discoverSoon();

Q_SIGNALS:
    void events(const QList<semscope::monitor::HolderEvent> &events);
    // Every watched semaphore was read once more since the previous roundFinished().
    void roundFinished();
    void discoveryFinished(qint64 durationMs, bool ok, const QString &error);
    // How often new semaphores are looked for from now on, and why (DiscoverySchedule::explanation);
    // after the first discovery and whenever the gap changes by a factor of 2 or more.
    void discoveryScheduled(qint64 gapMs, const QString &why);
    // discoverSoon() brought the next discovery forward (a key that may be a new semaphore).
    void discoveryHinted(const QString &key);
    void readFailed(const semscope::core::SemaphoreRef &ref, const QString &error);
    // Discovery found more than maxSemaphores; only the first are watched.
    void truncated(int found, int watched);

private:
    struct Watched {
        core::SemaphoreRef ref;
        std::optional<core::Snapshot> last;
        bool inFlight = false;
        bool due = true;
        bool pushed = false;   // the store pushes its changes (no polling)
        bool leaving = false;  // discovery lost it: one last read, then `disappeared`
        bool baseline = false; // present at the first discovery: no `appeared`
    };

    void onTick();
    void issueReads();
    void read(const QString &key);
    // What the history adds to a read (computed on its thread).
    struct HistoryAnswer {
        std::optional<QHash<QString, qint64>> firstSeen; // unset: the history is off
        QHash<QString, QString> marks;                   // force-released holder -> who did it
    };
    void onSnapshot(const QString &key, core::Snapshot snapshot, bool pushed);
    void finishSnapshot(const QString &key, core::Snapshot snapshot, bool pushed, qint64 now,
                        const std::optional<QHash<QString, qint64>> &firstSeen,
                        const QHash<QString, QString> &marks);
    std::optional<QHash<QString, qint64>> localFirstSeen(const core::Snapshot &snapshot, qint64 nowMs);
    void onDiscovered(const core::DiscoverResult &result, qint64 durationMs, bool first);
    void finishRoundIfDone();
    void emitEvents(QList<HolderEvent> list);
    static QString keyOf(const core::SemaphoreRef &ref);

    core::SemaphoreStore &m_store;
    WatchOptions m_options;
    HistoryWorker *m_history = nullptr;
    QPointer<core::SemaphoreChangeHints> m_hints;
    QList<QMetaObject::Connection> m_hintsConnections;
    std::function<qint64()> m_clock;
    bool m_running = false;
    bool m_discovering = false;
    bool m_discoveredOnce = false;
    core::Cancellation m_cancel;
    QTimer m_tick;
    QTimer m_discoveryTimer;
    DiscoverySchedule m_schedule;
    qint64 m_toldGapMs = 0;         // the gap discoveryScheduled() last told
    QElapsedTimer m_sinceDiscovery; // since the last discovery answered
    bool m_discoverAgain = false;   // discoverSoon() while one ran: it may have scanned past the key
    QHash<QString, Watched> m_watched;
    QStringList m_order; // keys in discovery order, so reads are spread fairly
    int m_inFlight = 0;
    qsizetype m_cursor = 0; // where the next round-robin pass of issueReads() starts
    int m_rounds = 0;
    QSet<QString> m_roundPending;                          // keys still to be read in this round
    QHash<QString, QHash<QByteArray, qint64>> m_firstSeen; // without a history: this run's memory
    quint64 m_generation = 0;                              // answers from before a stop() are dropped
};

} // namespace semscope::monitor
