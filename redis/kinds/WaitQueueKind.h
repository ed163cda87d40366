#pragma once

#include "core/SemaphoreTypes.h"
#include "redis/RedisConnection.h"

#include <functional>
#include <optional>

namespace semscope::redis {

// A layout that keeps waiters in a FIFO queue in Redis and hands a freed slot straight to the head
// of the queue. RedisSemaphoreStore uses it for waiting acquires. Each store has a tag (letters and
// digits) that names its notify channel per semaphore (notifyChannel()):
// - the store subscribes to its notify channel for the semaphore before the first attempt, so no
//   hand-off can slip by unseen;
// - attemptQueued() is one acquire attempt that, when busy, joins (or stays in, renewing its waiter
//   lease) the queue under a ticket, recording the store's tag for the release that grants it;
// - a hand-off reaches the waiter whose holder id and ticket it names as a message on the notify
//   channel (parseHandOff()), or, when the store itself released the slot, in the reply of that
//   release (releaseHandingOff()): either way the waiter holds the slot with no further round trip;
// - a waiter that gives up calls leaveQueue(), which also gives back a slot handed to it meanwhile.
// If a hand-off message is lost (the subscription dropped), the waiter's next attempt picks the grant
// up from the server instead.
class WaitQueueKind {
public:
    struct HandOff {
        QByteArray holder;
        qint64 ticket = -1;
        qint64 token = 0;
        qint64 expiresAtMs = 0;
    };
    // Busy: `ticket` is the caller's place-independent queue entry id (-1 when not queued).
    using AttemptCallback = std::function<void(const core::AcquireResult &result, qint64 ticket)>;
    // `handOffs`: slots this release passed on to waiters of the releasing store.
    using ReleaseCallback =
        std::function<void(const core::ReleaseResult &result, const QList<HandOff> &handOffs)>;

    virtual ~WaitQueueKind() = default;
    // How long a queued waiter stays in the queue without renewing (a retry renews it).
    virtual qint64 waiterLeaseMs() const = 0;
    // The channel on which releases hand slots to the waiters of the store tagged `tag`.
    virtual QByteArray notifyChannel(const QString &name, const QByteArray &tag) const = 0;
    // `listHolders`: whether a busy reply should list the holders (costly on the server; only
    // wanted when the wait may end with that answer). `ticket`: the one an earlier busy reply of
    // this acquisition gave (-1 before that); only that queue entry may pick up a hand-off.
    virtual void attemptQueued(RedisCommands &conn, const core::SemaphoreRef &ref,
                               const core::AcquireRequest &request, const QByteArray &tag, bool listHolders,
                               qint64 ticket, AttemptCallback done) = 0;
    virtual std::optional<HandOff> parseHandOff(const QByteArray &message) const = 0;
    // A release by the store tagged `tag`: a slot it frees for one of that store's own waiters comes
    // back in the reply instead of being published.
    virtual void releaseHandingOff(RedisCommands &conn, const core::Grant &grant, const QByteArray &tag,
                                   ReleaseCallback done) = 0;
    // `ticket` as for attemptQueued(): a slot handed to that queue entry is given back.
    virtual void leaveQueue(RedisCommands &conn, const core::SemaphoreRef &ref, const QByteArray &waiter,
                            qint64 ticket, std::function<void()> done) = 0;
};

} // namespace semscope::redis
