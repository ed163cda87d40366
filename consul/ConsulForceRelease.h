#pragma once

#include "ConsulClient.h"
#include "core/SemaphoreStore.h"

namespace semscope::consul {

// An operator's force-release of one holder the operator saw, for ConsulSemaphoreStore: every
// write compares against what was read, so a holder that changed meanwhile is reported Changed
// and left alone.
// - a waiter or orphan (no slot): its contender key is deleted, CAS on the ModifyIndex observed;
// - a `consul lock` mutex: one txn that checks `.lock`'s index and unlocks it for that session;
// - a semaphore: the holder is removed from `.lock`'s document (CAS, flags kept so official
//   clients still recognise it).
// With `invalidateSession`, the holder's session is destroyed afterwards, so its owner notices
// at once instead of at its next renewal. The caller has passed the read-only gate.
void forceReleaseHolder(ConsulClient &client, const core::SemaphoreRef &ref, const core::Holder &observed,
                        std::optional<qint64> observedVersion, bool invalidateSession,
                        core::Callback<core::ForceReleaseResult> done);

} // namespace semscope::consul
