#pragma once

#include "SemaphoreTypes.h"

#include <QString>

namespace semscope::core {

// The one place a layout that does not store its limit takes the profile's: every store passes
// its snapshots through here, so the list, the page and the CLI's `show`/`list` (text and JSON)
// see one limit with one provenance. A saved limit is the operator's (LimitSource::Profile), also
// while the semaphore is empty and its keys are gone; only a guess is Inferred. A stored limit
// is never overridden.
void applyProfileLimit(Snapshot &snapshot, const SemaphoreProfile &profile);

// An outcome and the store's message about it, said once: "released worker-3", not "released
// (released worker-3)"; "changed (token is 7 now)" where the message adds something.
QString outcomeWithMessage(const QString &outcome, const QString &message);

} // namespace semscope::core
