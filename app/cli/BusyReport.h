#pragma once

#include "CliContext.h"
#include "core/SemaphoreStore.h"

namespace semscope::cli {

// A denied acquire (`acquire`, `run`): who holds the slots, as one consistent read `snap` (the
// holders the denied attempt reported when that read failed), then the reason, and exit 1.
void reportBusy(CliContext &ctx, core::SemaphoreStore &store, const core::AcquireResult &r,
                const core::Snapshot &snap);

} // namespace semscope::cli
