#pragma once

#include "CliContext.h"
#include "core/SemaphoreStore.h"

#include <functional>
#include <memory>

namespace semscope::cli {

// Whether a store's writes go to the audit log one by one. A load test writes thousands of times
// and is logged once, as a run, instead.
enum class StoreAudit { EachWrite, NotAudited };

// What a Redis store's connections do when the connection is lost. A one-shot command reports it
// (exit 2) rather than wait it out; `watch` and `serve` run for days and reconnect, with backoff, as
// the app does: a Redis restart once left them printing "not connected" until stopped by hand.
enum class StoreReconnect { Never, WithBackoff };

// The store named on the command line: Redis from --redis (with the --tls-* options), Consul from
// --consul. nullptr with `error` set when the options are missing, contradictory or unsupported
// (callers report that as a usage error). With StoreAudit::EachWrite (the default) every write made
// through it is written to the audit log (core::AuditedSemaphoreStore).
std::unique_ptr<core::SemaphoreStore> openStore(CliContext &ctx, QString *error,
                                                StoreAudit audit = StoreAudit::EachWrite,
                                                StoreReconnect reconnect = StoreReconnect::Never);

// Calls `ready` once `store` can take commands. A Redis store is first connected (so "cannot
// connect" is told apart from "the operation failed"): if that fails, the reason is printed and the
// command finishes with ExitUsage, also for a store that reconnects later on. Other stores are ready
// at once.
void whenReachable(CliContext &ctx, core::SemaphoreStore &store, std::function<void()> ready);

} // namespace semscope::cli
