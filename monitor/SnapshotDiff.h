#pragma once

#include "HolderEvent.h"

#include <QList>
#include <QSet>

namespace semscope::monitor {

// The one place events are derived: what changed between two successive snapshots of one semaphore.
// Pure; `nowMs` (client clock) stamps every event, lease arithmetic uses current.serverNowMs.
//
// previous == nullptr (first read): `appeared`, plus `expired`/`stale`/`over-limit` for holders
//   already in those states (a condition worth reporting whenever it is first seen).
// A holder (matched by raw id) that is new: `acquired`, or `waiting` for a waiter; one whose token
//   or slot changed: `acquired` again; a waiter that now holds: `acquired`.
// A holder whose state turns ExpiredPresent / Stale / OverLimit: `expired` / `stale` / `over-limit`.
// A holder that is gone, or still listed but no longer holding (then also `waiting` if it waits):
//   - in `forceReleased` (a semscope operator force-released it, see HistoryStore): `force-released`;
//   - it was expired, stale or orphaned already (its owner was gone): `removed`;
//   - its lease had run out by the current read: `expired`;
//   - otherwise `released`. A snapshot cannot tell who released it; a release by another tool
//     reads as `released`.
// Waiters that leave and orphan records produce nothing. A changed limit: `limit-changed`.
QList<HolderEvent> diffSnapshots(const core::Snapshot *previous, const core::Snapshot &current, qint64 nowMs);
QList<HolderEvent> diffSnapshots(const core::Snapshot *previous, const core::Snapshot &current, qint64 nowMs,
                                 const QSet<QString> &forceReleased);

// What to report for a semaphore that discovery no longer finds (after its last read was diffed):
// `disappeared`.
HolderEvent disappearedEvent(const core::SemaphoreRef &ref, qint64 nowMs);

// The key a holder is matched by across snapshots: its raw id, or its printable id when the layout
// keeps none.
QByteArray holderKey(const core::Holder &holder);

} // namespace semscope::monitor
