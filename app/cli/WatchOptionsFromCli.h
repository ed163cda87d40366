#pragma once

#include "CliContext.h"
#include "monitor/SemaphoreWatcher.h"

#include <optional>

namespace semscope::cli {

// What `watch` and `serve` read from --match, --kind and --interval, the same way: GLOB names
// semaphores (`orders*`) or keys (`{orders}:*`) as in `list`; the interval defaults to 1 s and is at
// least 50 ms. nullopt after ctx.fail() on a bad value.
std::optional<monitor::WatchOptions> watchOptionsFromCli(CliContext &ctx);

} // namespace semscope::cli
