#pragma once

#include "redis/RedisReply.h"

#include <QByteArray>
#include <QString>
#include <optional>

// Small helpers the kinds share for turning script replies into results and text.
namespace semscope::redis::kinds {

// One line for a failed reply: "connection lost: ..." for transport failures, the server's own
// message (WRONGTYPE ..., NOSCRIPT ...) otherwise, prefixed with what was attempted.
QString failureText(const QString &operation, const RedisReply &reply);

// A holder id as people should see it: the bytes when they are printable UTF-8, "0x<hex>" otherwise
// (binary ids such as Redisson's 16-byte permit ids).
QString printableId(const QByteArray &raw);

// Element `i` of an array reply, or a Nil reply when the array is shorter (cut or unexpected replies
// must not crash the parser).
const RedisReply &elementAt(const RedisReply &reply, int i);

// Integer (or decimal string) element `i`.
std::optional<qint64> integerAt(const RedisReply &reply, int i);

// A unique holder id for this process: "<host>:<pid>:<8 hex digits>".
QString makeHolderId();
// What semscope records about the client that acquired (leased owner records, CLIENT SETNAME).
QString clientInfo();

} // namespace semscope::redis::kinds
