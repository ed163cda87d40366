#pragma once

#include "HolderEvent.h"

#include <QHash>
#include <QList>
#include <QSet>
#include <QString>
#include <optional>

class QSqlError;

namespace semscope::monitor {

// One hold of a slot as the history knows it: from when semscope first saw the holder until it
// was last seen (ended: seen gone).
struct HoldRecord {
    QString holder;
    qint64 firstSeenMs = 0;
    qint64 lastSeenMs = 0;
    std::optional<qint64> endedMs; // unset while it still holds
};

// A semaphore semscope found on an endpoint: when it was first and last found with keys. The list
// keeps one whose keys are gone as "empty since <lastSeenMs>" (issue 31 item 3).
struct SeenSemaphore {
    core::SemaphoreRef ref;
    qint64 firstSeenMs = 0;
    qint64 lastSeenMs = 0;
};

// What semscope has seen, kept across runs and shared by the app and every CLI command: one SQLite
// database (Qt's QSQLITE driver) in WAL mode with a busy timeout, so several processes read and
// write it at once. It holds
// - holds: when each holder was first and last seen, per endpoint and semaphore, so the age of a
//   holder whose layout records no time (`slots`) survives restarts and a one-shot `show`;
// - events: what watchers derived (SnapshotDiff), for the GUI's History tab;
// - seen semaphores: which semaphores a scan found on each endpoint and when last, so one whose
//   keys Redis deleted (a ZSET with no members) stays listed, also after a restart;
// - force-release marks: which holders a semscope operator removed, so a watcher in another process
//   calls their disappearance `force-released` rather than `released`.
// Retention: rows older than maxAge are dropped and the file is kept under maxBytes (oldest events
// first). A file that cannot be opened, is not a database, is damaged or stays locked gives one
// warning() and the store turns itself off: every call then does nothing and returns empty results.
// One object per thread (a QSqlDatabase connection belongs to the thread that opened it).
class HistoryStore {
public:
    static constexpr qint64 kDefaultMaxAgeMs = 30LL * 24 * 3600 * 1000;
    static constexpr qint64 kDefaultMaxBytes = 100LL * 1024 * 1024;
    static constexpr int kBusyTimeoutMs = 5000;

    // `path` empty: defaultPath(). Retention from QSettings (retentionFromSettings()). A GUI thread
    // passes a short busy timeout: events whose write waits too long for another process are kept
    // in memory (pendingEvents()) and written with the next record(), rather than freeze the window.
    explicit HistoryStore(QString path = {}, int busyTimeoutMs = kBusyTimeoutMs);
    ~HistoryStore();
    HistoryStore(const HistoryStore &) = delete;
    HistoryStore &operator=(const HistoryStore &) = delete;

    // $SEMSCOPE_HISTORY if set, else <GenericDataLocation>/semscope/history.sqlite (one file for the
    // app and the CLI, whose AppDataLocations differ).
    static QString defaultPath();
    // Keys history/maxAgeDays (default 30) and history/maxMegabytes (default 100) of the app's
    // settings file (semscope/semscope), read by the CLI too.
    static std::pair<qint64, qint64> retentionFromSettings();

    QString path() const { return m_path; }
    bool isAvailable() const { return m_available; }
    // Why the history is off ("history file … is damaged: …; continuing without history"); empty
    // while it works.
    QString warning() const { return m_warning; }

    void setRetention(qint64 maxAgeMs, qint64 maxBytes);
    qint64 maxAgeMs() const { return m_maxAgeMs; }
    qint64 maxBytes() const { return m_maxBytes; }
    // Applies retention now (also done on open and at most once a minute while recording).
    void prune(qint64 nowMs);

    // Appends events seen on `endpoint`, after any kept from an earlier write that failed (file busy
    // past the timeout, disk full): those are retried first, so nothing is lost while the trouble
    // passes. At most kMaxPendingEvents are kept (the oldest go first, with a warning). False if the
    // history is off or the events are still pending; record({}) only retries.
    bool record(const QString &endpoint, const QList<HolderEvent> &events);
    static constexpr int kMaxPendingEvents = 10000;
    int pendingEvents() const;

    // Records that `holders` (ids) hold `ref` on `endpoint` now; holds of this semaphore not in the
    // list end. Returns when each listed holder was first seen (now for new ones).
    QHash<QString, qint64> recordSeen(const QString &endpoint, const core::SemaphoreRef &ref,
                                      const QStringList &holders, qint64 nowMs);
    std::optional<qint64> firstSeen(const QString &endpoint, const core::SemaphoreRef &ref,
                                    const QString &holder) const;
    // Holds of `ref` that overlap [sinceMs, now], newest first, at most `limit`.
    QList<HoldRecord> holds(const QString &endpoint, const core::SemaphoreRef &ref, qint64 sinceMs,
                            int limit = 1000) const;

    // Events of `ref` at or after sinceMs, newest first, at most `limit`.
    QList<HolderEvent> events(const QString &endpoint, const core::SemaphoreRef &ref, qint64 sinceMs,
                              int limit = 1000) const;

    // A semscope operator is about to force-release `holder` (marked before the write so a watcher
    // never sees the holder gone without the mark); `origin` says who ("semscope-cli pid 42 on host").
    // Returns the mark's id for clearForceRelease() when the force-release did not happen.
    std::optional<qint64> markForceRelease(const QString &endpoint, const core::SemaphoreRef &ref,
                                           const QString &holder, const QString &origin, qint64 nowMs);
    void clearForceRelease(qint64 markId);
    // After the force-release that markForceRelease() returned `mark` for: a holder not removed
    // loses its mark; one removed without a mark (the file busy past the timeout: the write is not
    // held back for the history's sake) gives what the operator is told. Empty otherwise.
    QString settleForceRelease(const std::optional<qint64> &mark, bool removed);
    // The origin this process writes in its marks: "<program> (user@host, pid N)".
    static QString originOfThisProcess(const QString &program);
    // Holders of `ref` force-released at or after sinceMs, with the origin of each mark.
    QHash<QString, QString> forceReleasedSince(const QString &endpoint, const core::SemaphoreRef &ref,
                                               qint64 sinceMs) const;

    // A scan found `refs` on `endpoint` now: first seen (new ones) and last seen are set.
    void recordSemaphoresSeen(const QString &endpoint, const QList<core::SemaphoreRef> &refs, qint64 nowMs);
    // Every semaphore found on `endpoint` and not forgotten, oldest first.
    QList<SeenSemaphore> seenSemaphores(const QString &endpoint) const;
    // The operator removed it from the list (Forget), or it stayed empty past the retention.
    void forgetSemaphore(const QString &endpoint, const core::SemaphoreRef &ref);

private:
    bool open();
    void disable(const QString &what, const QString &error) const;
    void noteReadError(const QSqlError &error) const;
    bool exec(const QString &sql);
    bool write(const QString &endpoint, const QList<HolderEvent> &events);

    QString m_path;
    int m_busyTimeoutMs;
    QString m_connectionName;
    // mutable: a read that finds the file damaged turns the history off.
    mutable QString m_warning;
    mutable bool m_available = false;
    qint64 m_maxAgeMs = kDefaultMaxAgeMs;
    qint64 m_maxBytes = kDefaultMaxBytes;
    qint64 m_lastPruneMs = 0;
    // Events not written yet, per endpoint in the order they came.
    QList<std::pair<QString, QList<HolderEvent>>> m_pending;
};

} // namespace semscope::monitor
