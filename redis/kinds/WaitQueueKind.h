#pragma once

#include "core/SemaphoreTypes.h"
#include "redis/RedisConnection.h"

#include <functional>

namespace semscope::redis {

// A layout that keeps waiters in a FIFO queue in Redis and publishes, on its release channel, the
// ids of the waiters that may now take a slot. RedisSemaphoreStore uses it for waiting acquires:
// - tryAcquire() with request.waitMs > 0 joins the queue when busy (and renews the waiter's lease);
// - a message on releaseChannel() is a newline-separated list of waiter ids to wake (an empty
//   message wakes every waiter);
// - a waiter that gives up calls leaveQueue().
class WaitQueueKind {
public:
    virtual ~WaitQueueKind() = default;
    // How long a queued waiter stays in the queue without renewing (a retry renews it).
    virtual qint64 waiterLeaseMs() const = 0;
    virtual void leaveQueue(RedisConnection &conn, const core::SemaphoreRef &ref, const QByteArray &waiter,
                            std::function<void()> done) = 0;
};

} // namespace semscope::redis
