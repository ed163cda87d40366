#pragma once

#include "model/ConnectionController.h"
#include "model/HistoryArchive.h"
#include "model/OperatorActions.h"
#include "model/SeenSemaphores.h"
#include "model/SemaphoreFilterProxy.h"
#include "model/SemaphoreListModel.h"
#include "monitor/DiscoverySchedule.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QTimer>
#include <optional>

namespace semscope::monitor {
class HistoryWorker;
}

namespace semscope::model {

// Everything the desktop app keeps per open connection: the controller (store on its worker thread),
// the operator actions with their guards, and the list of semaphores found there. The list's
// summaries are re-read every few seconds so "stale only" and "expiring within" stay true.
class ConnectionSession : public QObject {
    Q_OBJECT
public:
    ConnectionSession(const ConnectionConfig &config, core::StoreFactory factory, core::AuditLog *audit,
                      QObject *parent = nullptr);
    ~ConnectionSession() override;

    ConnectionController controller;
    OperatorActions actions;
    SemaphoreListModel list;
    SemaphoreFilterProxy proxy;

    const ConnectionConfig &config() const { return controller.config(); }
    // "<name> · <address>: <message>", the address said once (the message may already name it).
    QString located(const QString &message) const;
    bool isDiscovering() const { return m_discovering; }
    // How far the running (or last) scan got, as its last discoveryProgress() said; scanned < 0
    // before its first page. The window shows it when the connection is selected mid-scan.
    struct ScanProgress {
        qint64 scanned = -1;
        qint64 total = 0;
        int found = 0;
        // DiscoverProgress::scannedAreMatches: `scanned` counts the keys a Discover keys glob kept,
        // so it is no share of `total`.
        bool matchedOnly = false;
        double walked = -1; // DiscoverProgress::walked: the share of the keyspace walked, -1 unknown
    };
    ScanProgress scanProgress() const { return m_scanProgress; }
    // "12 keys scanned", or "12 keys matched" for a scan that reports only the keys that matched.
    static QString scannedKeysText(qint64 keys, bool matchedOnly);

    // Scans for semaphores; progress(scanned, total) as pages come in. Replaces a running scan.
    void discover() { startDiscovery(false); }
    // The running (or last) scan is the periodic one the session started itself: the window shows
    // no progress bar for it, and reports only a failure.
    bool isBackgroundDiscovery() const { return m_background; }
    // New keys show up without Ctrl+R: after a scan the session scans again after at least `ms` (the
    // list's refresh by default), longer when scans cost the server more than its budget
    // (monitor::DiscoverySchedule, shared with `watch` and `serve`): a big keyspace is scanned less
    // often. 0 turns it off.
    void setRediscoverInterval(int ms);
    static constexpr int kDefaultRediscoverMs = 3000;
    // How often new semaphores are looked for and why, for the operator (empty until the first
    // scan, and while the periodic scan is off).
    QString discoveryNote() const;
    // Ends the running scan at once (discoveryFinished with cancelled = true), even while the
    // server has not answered; what was found so far stays listed.
    void cancelDiscovery();
    // Re-reads the summary of every listed semaphore (at most kMaxSummaries per round).
    void refreshSummaries();
    void setSummaryInterval(int ms) { m_summaryTimer.setInterval(ms); }
    // Resolves profiles (limit/timeout of layouts that do not store them) before a read.
    std::function<core::SemaphoreRef(const core::SemaphoreRef &)> resolveProfile;
    // Semaphores the operator gave a profile on this connection: discovery lists them even when
    // their keys alone do not say what they are (an idle Redisson semaphore is a bare integer).
    std::function<QList<core::SemaphoreRef>()> knownSemaphores;
    // Keys the operator opened by name (ConnectionConfig::pinned, read afresh on every scan): always
    // listed, whatever a scan finds.
    std::function<QList<core::SemaphoreRef>()> pinnedSemaphores;
    // Lists the pinned keys now (after the operator pinned one).
    void listPinned();

    // The shared history keeps which semaphores this endpoint had (issue 31 item 3): one seen before
    // stays listed as "empty since …" after a scan that misses it. Loads what the history knew.
    void setHistory(monitor::HistoryWorker *history);
    // How long an empty semaphore stays listed; 0: dropped at the first scan that misses it. Rows
    // empty for longer go at once.
    void setEmptyRetentionMs(qint64 ms);
    qint64 emptyRetentionMs() const { return m_seen.retentionMs(); }
    // Right-click → Forget: off the list and out of the history's seen semaphores (a pinned key is
    // unpinned by the window, which owns the connection's profile). False when it was not listed.
    bool forget(const core::SemaphoreRef &ref);

    // Fills Holder::firstSeenMs (local clock) of holders the layout gives no acquire time, from when
    // this session first saw each one, so a `slots` holder's age survives switching pages; then
    // marks the ones watched past the stuck threshold (core/StuckHolders) as stale.
    void stampFirstSeen(core::Snapshot &snapshot);

    static constexpr int kMaxSummaries = 500;

    // The semaphore the page last showed for this connection: selecting the connection again shows
    // it again, and the page never keeps showing another connection's semaphore.
    std::optional<core::SemaphoreRef> shownSemaphore;
    // The charts of the semaphores looked at on this connection, kept for the session (bounded).
    HistoryArchive chartHistory;
    static QString historyKey(const core::SemaphoreRef &ref);

Q_SIGNALS:
    void discoveryStarted();
    void discoveryProgress(qint64 scanned, qint64 total, int found);
    void discoveryFinished(bool ok, bool cancelled, const QString &message);
    // discoveryNote() changed (the gap between periodic scans moved by a factor of 2 or more).
    void discoveryScheduled(qint64 gapMs, const QString &why);

private:
    void startDiscovery(bool background);
    // After a complete scan that found `present`: the seen store learns them, the missing ones seen
    // before are kept as empty, those empty past the retention go.
    void keepSeen(const QList<core::SemaphoreRef> &present);
    void applySeen(const QList<core::SemaphoreRef> &present, qint64 nowMs);
    // Drops rows empty for longer than the retention.
    void dropExpiredEmpty();

    monitor::HistoryWorker *m_history = nullptr;
    SeenSemaphores m_seen;
    // What the last complete scan found, for the history's answer when it comes after that scan.
    std::optional<QList<core::SemaphoreRef>> m_lastPresent;
    qint64 m_lastSeenWriteMs = -1;
    static constexpr qint64 kSeenWriteEveryMs = 60000;

    core::Cancellation m_cancel;
    bool m_discovering = false;
    quint64 m_discoveryRound = 0; // answers of an older round are dropped
    int m_found = 0;
    int m_summariesInFlight = 0;
    QTimer m_summaryTimer;
    ScanProgress m_scanProgress;
    QTimer m_rediscoverTimer;
    int m_rediscoverMs = kDefaultRediscoverMs;
    monitor::DiscoverySchedule m_schedule{kDefaultRediscoverMs};
    QElapsedTimer m_discoveryClock; // the running scan's duration: its cost for the schedule
    qint64 m_toldGapMs = 0;
    bool m_background = false;
    QHash<QString, QHash<QByteArray, qint64>> m_firstSeen; // semaphore -> holder -> first seen
};

} // namespace semscope::model
