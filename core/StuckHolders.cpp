#include "StuckHolders.h"

#include "Duration.h"

namespace semscope::core {

qint64 stuckAfterMs(const SemaphoreRef &ref) {
    return ref.profile.timeoutMs.value_or(kDefaultStuckAfterMs);
}

int markStuckHolders(Snapshot &snapshot, qint64 localNowMs) {
    if (snapshot.ref.kind != Kind::Slots)
        return 0;
    const qint64 threshold = stuckAfterMs(snapshot.ref);
    int marked = 0;
    for (Holder &h : snapshot.holders) {
        // A holder with a lease (semaphores semscope created) expires on its own; only lease-less
        // holders can be stuck for good.
        if (h.state != HolderState::Live || h.expiresAtMs || !h.firstSeenMs)
            continue;
        const qint64 watched = localNowMs - *h.firstSeenMs;
        if (watched < threshold)
            continue;
        h.state = HolderState::Stale;
        h.details.insert(QStringLiteral("stuck"), true);
        // Where the store refuses every write (a layout split over Cluster masters) a force-release
        // is not on offer: the warning must not send the operator after one.
        const QString remedy =
            snapshot.writeRefusal.isEmpty()
                ? QStringLiteral("only a force-release frees the slot")
                : QStringLiteral("only removing its entry frees the slot, and semscope cannot "
                                 "do that on this layout here (every write is refused)");
        snapshot.warnings << QStringLiteral("%1 has held slot %2 for at least %3 (stuck threshold %4): its "
                                            "client may have crashed; %5")
                                 .arg(h.id, h.slot ? QString::number(*h.slot) : QStringLiteral("?"),
                                      formatDurationMs(watched), formatDurationMs(threshold), remedy);
        ++marked;
    }
    return marked;
}

} // namespace semscope::core
