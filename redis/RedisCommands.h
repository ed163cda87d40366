#pragma once

#include "LuaScript.h"
#include "RedisReply.h"

#include <QList>
#include <functional>

namespace semscope::redis {

// What the semaphore kinds and discovery need to send commands: one node (RedisConnection) or a
// whole deployment (topology::RedisTopology, which routes each command to the node serving its
// keys and follows Cluster redirects). Kinds only see this, so none of them parses a redirect.
//
// Routing rule for a topology: eval() goes to the slot of its first key (all keys of one script
// must share a slot); command() and each command of a pipeline() go to the slot of args[1] (the
// first key of every command semscope sends), or to any node when there is none.
class RedisCommands {
public:
    using ReplyCallback = std::function<void(const RedisReply &)>;

    virtual ~RedisCommands() = default;

    virtual void command(const QList<QByteArray> &args, ReplyCallback callback) = 0;
    // Several commands written in one go; the callback gets the replies in order.
    virtual void pipeline(const QList<QList<QByteArray>> &commands,
                          std::function<void(const QList<RedisReply> &)> callback) = 0;
    // EVALSHA, and on NOSCRIPT the same call as EVAL (which also caches the script on the server).
    virtual void eval(const LuaScript &script, const QList<QByteArray> &keys, const QList<QByteArray> &args,
                      ReplyCallback callback) = 0;
};

} // namespace semscope::redis
