#pragma once

#include "CliContext.h"

namespace semscope::cli {

// `loadtest NAME --scenario failover-lost-lock`: runs redis::FailoverLostLock on its own private
// servers (no --redis), prints both sides and the explanation (or JSON). Exit 0 when the run went
// through and the replica-acknowledged side stayed safe; 1 when a side could not run or the safe
// side was not safe; 2 for usage errors.
void runFailoverLostLock(CliContext &ctx);

} // namespace semscope::cli
