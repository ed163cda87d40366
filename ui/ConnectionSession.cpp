#include "ConnectionSession.h"

#include <QDateTime>

namespace semscope::ui {

using namespace semscope::core;

ConnectionSession::ConnectionSession(const model::ConnectionConfig &config, model::StoreFactory factory,
                                     model::AuditLog *audit, QObject *parent)
    : QObject(parent)
    , controller(config, std::move(factory))
    , actions(&controller, audit) {
    proxy.setSourceModel(&list);
    m_summaryTimer.setInterval(3000);
    connect(&m_summaryTimer, &QTimer::timeout, this, &ConnectionSession::refreshSummaries);
}

ConnectionSession::~ConnectionSession() {
    m_cancel.cancel();
}

void ConnectionSession::discover() {
    cancelDiscovery();
    m_discovering = true;
    m_found = 0;
    Q_EMIT discoveryStarted();
    DiscoverRequest request;
    const QString match = config().discoverMatch;
    request.match = match.isEmpty() && config().backend == Backend::Redis ? QStringLiteral("*") : match;
    m_cancel = controller.discover(
        request, this,
        [this](DiscoverProgress p) {
            if (!m_discovering)
                return;
            list.addDiscovered(p.found);
            m_found += int(p.found.size());
            Q_EMIT discoveryProgress(p.scannedKeys, p.totalKeys, m_found);
        },
        [this](DiscoverResult r) {
            m_discovering = false;
            list.addDiscovered(r.semaphores);
            if (r.ok && !r.cancelled) {
                QList<SemaphoreRef> refs;
                for (const auto &d : r.semaphores)
                    refs.append(d.ref);
                list.retainOnly(refs);
            }
            refreshSummaries();
            m_summaryTimer.start();
            Q_EMIT discoveryFinished(
                r.ok, r.cancelled,
                r.ok ? tr("%n semaphore(s) found in %1 keys", nullptr, int(r.semaphores.size()))
                           .arg(r.scannedKeys)
                     : r.error);
        });
}

void ConnectionSession::cancelDiscovery() {
    if (m_discovering)
        m_cancel.cancel();
}

void ConnectionSession::refreshSummaries() {
    // A slow server must not pile up reads: the next round waits until this one is answered.
    if (m_summariesInFlight > 0)
        return;
    const auto refs = list.refs();
    for (int i = 0; i < refs.size() && i < kMaxSummaries; ++i) {
        const SemaphoreRef ref = resolveProfile ? resolveProfile(refs.at(i)) : refs.at(i);
        ++m_summariesInFlight;
        controller.snapshot(ref, this, [this](Snapshot s) {
            --m_summariesInFlight;
            stampFirstSeen(s);
            if (list.rowOf(s.ref) >= 0)
                list.updateSnapshot(s);
        });
    }
}

void ConnectionSession::stampFirstSeen(Snapshot &snapshot) {
    const QString key = kindName(snapshot.ref.kind) + QLatin1Char('\x1f') + snapshot.ref.name;
    const QHash<QByteArray, qint64> previous = m_firstSeen.value(key);
    QHash<QByteArray, qint64> current; // holders that left are forgotten, so this stays bounded
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (Holder &h : snapshot.holders) {
        const QByteArray id = h.rawId.isEmpty() ? h.id.toUtf8() : h.rawId;
        const qint64 seen = h.firstSeenMs ? *h.firstSeenMs : previous.value(id, now);
        current.insert(id, seen);
        if (!h.firstSeenMs && !h.acquiredAtMs)
            h.firstSeenMs = seen;
    }
    m_firstSeen.insert(key, current);
}

} // namespace semscope::ui
