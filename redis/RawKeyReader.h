#pragma once

#include "RedisReply.h"
#include "core/RawKeys.h"

#include <QStringList>
#include <functional>

namespace semscope::redis {

// Reads keys raw for the raw view: TYPE and PTTL of each, then a bounded window of its contents
// (GETRANGE of a string, LRANGE of a list, ZRANGE … WITHSCORES of a zset, HSCAN/SSCAN of a hash/set,
// each capped at core::kRawMaxRows rows / kRawMaxValueBytes bytes) with the full size beside it, so
// the view can say "first 200 of 2345 shown". Read-only commands only.
//
// It sends through a callable rather than a RedisConnection, so whoever routes commands to nodes
// (standalone, Sentinel master, the Cluster node that serves each key) decides where each command
// goes: the key is the command's second argument.
class RawKeyReader {
public:
    using ReplyCallback = std::function<void(const RedisReply &)>;
    using Send = std::function<void(const QList<QByteArray> &args, ReplyCallback done)>;

    static void read(const Send &send, const QStringList &keys, std::function<void(core::RawKeys)> done);
};

} // namespace semscope::redis
