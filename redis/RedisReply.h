#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <optional>

namespace semscope::redis {

// One parsed RESP2 reply, as a plain value that can be copied between threads.
// Transport failures (connection lost, timeout, refused) are reported as Type::TransportError so a
// caller can tell "the server said no" from "we never heard back".
struct RedisReply {
    enum class Type { Nil, Status, Error, Integer, String, Array, TransportError };

    Type type = Type::Nil;
    QByteArray str;             // Status, Error (the server's message), String, TransportError (our message)
    qint64 integer = 0;         // Integer
    QList<RedisReply> elements; // Array

    static RedisReply nil() { return {}; }
    static RedisReply transportError(const QString &message);
    static RedisReply error(const QByteArray &message);
    static RedisReply integerReply(qint64 v);
    static RedisReply string(const QByteArray &s);

    bool isNil() const { return type == Type::Nil; }
    bool isError() const { return type == Type::Error || type == Type::TransportError; }
    bool isServerError() const { return type == Type::Error; }
    bool isTransportError() const { return type == Type::TransportError; }
    bool isArray() const { return type == Type::Array; }
    bool isString() const { return type == Type::String || type == Type::Status; }
    bool isInteger() const { return type == Type::Integer; }

    // Integer replies, or strings holding a decimal integer.
    std::optional<qint64> toInteger() const;
    // Strings holding a decimal or float number (ZSET scores).
    std::optional<double> toDouble() const;
    // The error's text, escaped and cut (core::printableServerText): a server's error reply may hold
    // terminal escapes or megabytes, and every caller shows it to a person sooner or later.
    QString errorMessage() const;
    // Short human form for logs and tests: "(nil)", "OK", "(integer) 3", "\"abc\"", "[3 elements]".
    QString describe() const;
};

} // namespace semscope::redis
