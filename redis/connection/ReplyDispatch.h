#pragma once

#include "redis/RedisCommands.h"
#include "redis/RedisReply.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <deque>
#include <functional>

namespace semscope::redis {

// A command whose reply is awaited.
struct PendingCommand {
    RedisCommands::ReplyCallback callback;
    QByteArray name;     // the command's name for timeout messages; never its arguments
    qint64 deadline = 0; // on the connection's monotonic clock (CommandTimeouts); 0: none
};

// A command not written yet: it waits for the handshake of the current or next attempt.
struct QueuedCommand {
    QByteArray wire;
    PendingCommand pending;
};

// The upper-cased name of a command (its first argument, at most 32 bytes), for messages.
QByteArray commandName(const QList<QByteArray> &args);

// Which reply belongs to which command. RESP has no request ids: replies come back in the order the
// commands were written, so the commands in flight are a FIFO, and pub/sub pushes (which no command
// asked for) are told apart by their shape and go to their channel's handlers instead.
class ReplyDispatch {
public:
    std::deque<PendingCommand> inFlight; // written, waiting for their replies, in order
    std::deque<QueuedCommand> queue;     // not written yet: waiting for the handshake

    // Moves every queued command into flight and returns their bytes, in order, for one write.
    QByteArray releaseQueue();

    // Pub/sub. subscribe() returns whether the channel is new (a SUBSCRIBE must go out);
    // unsubscribe() whether it was known (an UNSUBSCRIBE must go out).
    bool subscribe(const QByteArray &channel, std::function<void(const QByteArray &message)> onMessage,
                   std::function<void()> onSubscribed);
    bool unsubscribe(const QByteArray &channel);
    QList<QByteArray> channels() const { return m_subscriptions.keys(); }

    // A pub/sub push ("message", a subscribe confirmation, ...) goes to its channel's handler:
    // true when `reply` was one. Only once this connection subscribed: before that, an array that
    // starts with "message" is an ordinary reply. A handler may unsubscribe itself.
    bool routePush(const RedisReply &reply) const;

private:
    struct Subscription {
        std::function<void(const QByteArray &)> onMessage;
        std::function<void()> onSubscribed;
    };
    QHash<QByteArray, Subscription> m_subscriptions;
    bool m_pubsubUsed = false;
};

} // namespace semscope::redis
