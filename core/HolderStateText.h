#pragma once

#include "Kind.h"
#include "SemaphoreTypes.h"

namespace semscope::core {

// What a holder state means on a semaphore of `kind`, in a sentence for tooltips and cards: a stale
// `slots` holder is one watched too long without a lease, a stale Consul holder one whose session
// is gone; the generic holderStateDescription() cannot say which.
QString holderStateDescription(HolderState state, Kind kind);

} // namespace semscope::core
