#pragma once

#include "core/SemaphoreTypes.h"

namespace semscope::monitor {

class HistoryStore;

// Holders whose layout records no acquire time (`slots`): their age is how long semscope has seen
// them hold. Records this read of `snapshot` in the shared history, fills Holder::firstSeenMs from
// it (so the age survives restarts and one-shot CLI reads), then applies the stuck rule
// (core/StuckHolders). `nowMs` is the client clock. With the history off, the holders keep no age
// and nothing is marked.
void stampFromHistory(HistoryStore &history, const QString &endpoint, core::Snapshot &snapshot, qint64 nowMs);

// The ids stampFromHistory() records: holders that occupy a slot and whose layout gives no time.
QStringList holdersWithoutTime(const core::Snapshot &snapshot);

} // namespace semscope::monitor
