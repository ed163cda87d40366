#include "SeenHolders.h"

#include "HistoryStore.h"

#include "core/StuckHolders.h"

namespace semscope::monitor {

QStringList holdersWithoutTime(const core::Snapshot &snapshot) {
    QStringList ids;
    for (const core::Holder &h : snapshot.holders)
        if (!h.acquiredAtMs && !h.firstSeenMs && h.occupiesSlot())
            ids << h.id;
    return ids;
}

void stampFromHistory(HistoryStore &history, const QString &endpoint, core::Snapshot &snapshot,
                      qint64 nowMs) {
    if (!history.isAvailable())
        return;
    const QHash<QString, qint64> first =
        history.recordSeen(endpoint, snapshot.ref, holdersWithoutTime(snapshot), nowMs);
    for (core::Holder &h : snapshot.holders)
        if (!h.acquiredAtMs && !h.firstSeenMs && first.contains(h.id))
            h.firstSeenMs = first.value(h.id);
    core::markStuckHolders(snapshot, nowMs);
}

} // namespace semscope::monitor
