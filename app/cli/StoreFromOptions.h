#pragma once

#include "CliContext.h"
#include "core/SemaphoreStore.h"

#include <functional>
#include <memory>

namespace semscope::cli {

// Whether a store's writes go to the audit log one by one. A load test writes thousands of times
// and is logged once, as a run, instead.
enum class StoreAudit { EachWrite, NotAudited };

// The store named on the command line: Redis from --redis (with the --tls-* options), Consul from
// --consul. nullptr with `error` set when the options are missing, contradictory or unsupported
// (callers report that as a usage error). With StoreAudit::EachWrite (the default) every write made
// through it is written to the audit log (core::AuditedSemaphoreStore).
std::unique_ptr<core::SemaphoreStore> openStore(CliContext &ctx, QString *error,
                                                StoreAudit audit = StoreAudit::EachWrite);

// Calls `ready` once `store` can take commands. A Redis store is first connected (so "cannot
// connect" is told apart from "the operation failed"): if that fails, the reason is printed and the
// command finishes with ExitUsage. Other stores are ready at once.
void whenReachable(CliContext &ctx, core::SemaphoreStore &store, std::function<void()> ready);

} // namespace semscope::cli
