#include "ConnectionSession.h"

#include "core/CountText.h"
#include "core/StuckHolders.h"
#include "monitor/HistoryWorker.h"

#include <QDateTime>

namespace semscope::model {

using namespace semscope::core;

ConnectionSession::ConnectionSession(const ConnectionConfig &config, core::StoreFactory factory,
                                     core::AuditLog *audit, QObject *parent)
    : QObject(parent)
    , controller(config, std::move(factory))
    , actions(&controller, audit) {
    proxy.setSourceModel(&list);
    m_summaryTimer.setInterval(3000);
    connect(&m_summaryTimer, &QTimer::timeout, this, &ConnectionSession::refreshSummaries);
    m_rediscoverTimer.setSingleShot(true);
    m_rediscoverTimer.setInterval(m_rediscoverMs);
    connect(&m_rediscoverTimer, &QTimer::timeout, this, [this] {
        if (!m_discovering)
            startDiscovery(true);
    });
}

void ConnectionSession::setRediscoverInterval(int ms) {
    m_rediscoverMs = ms;
    if (ms <= 0) {
        m_rediscoverTimer.stop();
        return;
    }
    m_schedule.setIntervalMs(ms);
    m_rediscoverTimer.setInterval(int(qMin<qint64>(m_schedule.nextDelayMs(), INT_MAX)));
}

QString ConnectionSession::discoveryNote() const {
    if (m_rediscoverMs <= 0 || !m_schedule.hasMeasured())
        return {};
    return m_schedule.explanation();
}

ConnectionSession::~ConnectionSession() {
    m_cancel.cancel();
}

QString ConnectionSession::located(const QString &message) const {
    return QStringLiteral("%1 · %2").arg(config().name, atEndpoint(config().endpoint(), message));
}

void ConnectionSession::startDiscovery(bool background) {
    if (m_discovering) {
        // A new scan replaces the running one without announcing a cancellation.
        m_cancel.cancel();
        ++m_discoveryRound;
    }
    m_discovering = true;
    m_background = background;
    m_rediscoverTimer.stop();
    m_found = 0;
    m_scanProgress = {};
    m_discoveryClock.start();
    const quint64 round = ++m_discoveryRound;
    Q_EMIT discoveryStarted();
    DiscoverRequest request;
    const QString match = config().discoverMatch;
    request.match = match.isEmpty() && config().backend == Backend::Redis ? QStringLiteral("*") : match;
    if (knownSemaphores)
        request.known = knownSemaphores();
    listPinned();
    m_cancel = controller.discover(
        request, this,
        [this, round](DiscoverProgress p) {
            if (!m_discovering || round != m_discoveryRound)
                return;
            list.addDiscovered(p.found);
            m_found += int(p.found.size());
            m_scanProgress = {p.scannedKeys, p.totalKeys, m_found, p.scannedAreMatches, p.walked};
            Q_EMIT discoveryProgress(p.scannedKeys, p.totalKeys, m_found);
        },
        [this, round](DiscoverResult r) {
            if (round != m_discoveryRound)
                return; // cancelled or replaced: its answer came too late to matter
            m_discovering = false;
            list.addDiscovered(r.semaphores);
            if (r.ok && !r.cancelled) {
                QList<SemaphoreRef> refs;
                for (const auto &d : r.semaphores)
                    refs.append(d.ref);
                listPinned();
                keepSeen(refs);
                list.retainOnly(refs);
            }
            refreshSummaries();
            m_summaryTimer.start();
            if (r.ok && m_rediscoverMs > 0) {
                m_schedule.recordDiscovery(m_discoveryClock.elapsed());
                const qint64 gap = m_schedule.nextDelayMs();
                m_rediscoverTimer.start(int(qMin<qint64>(gap, INT_MAX)));
                if (monitor::DiscoverySchedule::worthTelling(m_toldGapMs, gap)) {
                    m_toldGapMs = gap;
                    Q_EMIT discoveryScheduled(gap, m_schedule.explanation());
                }
            }
            Q_EMIT discoveryFinished(
                r.ok, r.cancelled,
                // What the list shows now (it also keeps the semaphores known from profiles).
                r.ok ? tr("%1 listed, %2")
                           .arg(core::countText(list.rowCount(), tr("semaphore"), tr("semaphores")),
                                scannedKeysText(r.scannedKeys, r.scannedAreMatches))
                     : r.error);
        });
}

void ConnectionSession::listPinned() {
    if (pinnedSemaphores)
        list.addPinned(pinnedSemaphores());
}

void ConnectionSession::setHistory(monitor::HistoryWorker *history) {
    m_history = history;
    if (!m_history)
        return;
    m_history->seenSemaphores(config().endpoint(), this, [this](QList<monitor::SeenSemaphore> seen) {
        m_seen.load(seen);
        // A scan that finished before the history answered missed them: they are listed now, not
        // only after the next scan.
        if (m_lastPresent)
            applySeen(*m_lastPresent, QDateTime::currentMSecsSinceEpoch());
    });
}

void ConnectionSession::setEmptyRetentionMs(qint64 ms) {
    m_seen.setRetentionMs(ms);
    dropExpiredEmpty();
}

void ConnectionSession::keepSeen(const QList<SemaphoreRef> &present) {
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    // New ones go to the history at once; all of them at most once a minute ("empty since" shows
    // minutes), not a write to a file shared with every CLI run at each scan.
    QList<SemaphoreRef> fresh;
    for (const SemaphoreRef &ref : present) {
        if (!m_seen.contains(ref))
            fresh << ref;
    }
    const bool due = m_lastSeenWriteMs < 0 || now - m_lastSeenWriteMs >= kSeenWriteEveryMs;
    if (m_history && (due || !fresh.isEmpty())) {
        m_history->recordSemaphoresSeen(config().endpoint(), due ? present : fresh, now);
        if (due)
            m_lastSeenWriteMs = now;
    }
    m_lastPresent = present;
    applySeen(present, now);
}

void ConnectionSession::applySeen(const QList<SemaphoreRef> &present, qint64 now) {
    const SeenSemaphores::Outcome outcome = m_seen.afterScan(present, now);
    for (const monitor::SeenSemaphore &empty : outcome.empty)
        list.markEmpty(empty.ref, empty.lastSeenMs);
    for (const SemaphoreRef &gone : outcome.expired) {
        const int row = list.rowOf(gone);
        if (row >= 0 && !list.isPinned(row))
            list.remove(gone);
        if (m_history)
            m_history->forgetSemaphore(config().endpoint(), gone);
    }
}

void ConnectionSession::dropExpiredEmpty() {
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (const SemaphoreRef &ref : list.refs()) {
        const int row = list.rowOf(ref);
        const auto since = list.emptySinceMs(row);
        if (since && m_seen.expired(*since, now) && !list.isPinned(row)) {
            list.remove(ref);
            m_seen.forget(ref);
            if (m_history)
                m_history->forgetSemaphore(config().endpoint(), ref);
        }
    }
}

bool ConnectionSession::forget(const SemaphoreRef &ref) {
    m_seen.forget(ref);
    if (m_history)
        m_history->forgetSemaphore(config().endpoint(), ref);
    return list.remove(ref);
}

void ConnectionSession::cancelDiscovery() {
    if (!m_discovering)
        return;
    // The scan may be waiting on a slow or stuck server: the operator gets control back now, the
    // list keeps what was found so far, and the scan's late answer is dropped.
    m_cancel.cancel();
    m_discovering = false;
    ++m_discoveryRound;
    refreshSummaries();
    m_summaryTimer.start();
    Q_EMIT discoveryFinished(false, true, tr("cancelled"));
}

void ConnectionSession::refreshSummaries() {
    // A slow server must not pile up reads: the next round waits until this one is answered.
    if (m_summariesInFlight > 0)
        return;
    const auto refs = list.refs();
    for (int i = 0; i < refs.size() && i < kMaxSummaries; ++i) {
        const SemaphoreRef ref = resolveProfile ? resolveProfile(refs.at(i)) : refs.at(i);
        ++m_summariesInFlight;
        // Shared with the page and the watcher when one of them read it this round.
        controller.snapshot(
            ref, this,
            [this](Snapshot s) {
                --m_summariesInFlight;
                stampFirstSeen(s);
                if (list.rowOf(s.ref) >= 0)
                    list.updateSnapshot(s);
            },
            m_summaryTimer.interval());
    }
}

void ConnectionSession::stampFirstSeen(Snapshot &snapshot) {
    const QString key = kindName(snapshot.ref.kind) + QLatin1Char('\x1f') + snapshot.ref.name;
    const QHash<QByteArray, qint64> previous = m_firstSeen.value(key);
    QHash<QByteArray, qint64> current; // holders that left are forgotten, so this stays bounded
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (Holder &h : snapshot.holders) {
        // Only holders whose layout gives no acquire time need remembering; skipping the others
        // keeps a read of 10,000 leased holders from building a 10,000-entry table each second.
        if (h.acquiredAtMs)
            continue;
        const QByteArray id = h.rawId.isEmpty() ? h.id.toUtf8() : h.rawId;
        const qint64 seen = h.firstSeenMs ? *h.firstSeenMs : previous.value(id, now);
        current.insert(id, seen);
        if (!h.firstSeenMs && !h.acquiredAtMs)
            h.firstSeenMs = seen;
    }
    m_firstSeen.insert(key, current);
    markStuckHolders(snapshot, now);
}

QString ConnectionSession::historyKey(const core::SemaphoreRef &ref) {
    return core::kindName(ref.kind) + QLatin1Char('\x1f') + ref.name;
}

QString ConnectionSession::scannedKeysText(qint64 keys, bool matchedOnly) {
    return matchedOnly ? core::countText(keys, tr("key matched"), tr("keys matched"))
                       : core::countText(keys, tr("key scanned"), tr("keys scanned"));
}

} // namespace semscope::model
