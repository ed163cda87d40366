#pragma once

#include <memory>

namespace semscope::core {
class SemaphoreStore;
}
namespace semscope::monitor {
class SemaphoreWatcher;
}
namespace semscope::redis {
class KeyspaceNotifications;
}

namespace semscope::cli {

class CliContext;

// `watch` and `serve` on Redis: where the server already publishes keyspace notifications, a change
// to a watched semaphore is read at once instead of on the next --interval (which goes on: the
// notifications can be lost). One line on stderr says which it is. Null for other backends and
// when the Redis options cannot be read; keep what it returns as long as the watcher runs.
std::unique_ptr<redis::KeyspaceNotifications>
readChangesAtOnce(CliContext &ctx, const core::SemaphoreStore &store, monitor::SemaphoreWatcher &watcher);

} // namespace semscope::cli
