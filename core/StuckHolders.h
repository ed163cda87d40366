#pragma once

#include "SemaphoreTypes.h"

namespace semscope::core {

// A `slots` holder records no time at all: nothing in Redis says how long it has held its slot, and
// a client that crashed while holding one keeps it for ever. The only evidence is how long semscope
// itself has watched the holder hold (Holder::firstSeenMs). Longer than the semaphore's profile
// timeout — or kDefaultStuckAfterMs when the operator set none — reads as stuck.
constexpr qint64 kDefaultStuckAfterMs = 10 * 60 * 1000;

qint64 stuckAfterMs(const SemaphoreRef &ref);

// Marks live holders of layouts without per-holder time (today: `slots`) that have been watched
// holding longer than stuckAfterMs() as Stale, with a warning naming each; returns how many.
// localNowMs is the client clock, the clock firstSeenMs was taken with.
int markStuckHolders(Snapshot &snapshot, qint64 localNowMs);

} // namespace semscope::core
