#pragma once

#include "redis/RedisReply.h"

#include <QByteArray>
#include <QString>
#include <optional>

struct redisReader;

namespace semscope::redis {

// Turns the byte stream from a Redis server into RedisReply values, using hiredis' reader.
//
// Input is kept here and handed to hiredis in slices of at most kSliceBytes, and replies are
// taken out between slices: hiredis moves its unread buffer down after every reply once 1 KiB has
// been consumed, which would make one huge feed of many small replies quadratic. Big replies
// (a 64 MiB bulk string, a million-element array) grow hiredis' buffer as needed.
class RespParser {
public:
    static constexpr qsizetype kSliceBytes = 64 * 1024;

    RespParser();
    ~RespParser();
    RespParser(const RespParser &) = delete;
    RespParser &operator=(const RespParser &) = delete;

    void feed(const QByteArray &bytes);
    // The next complete reply, or nothing if more bytes are needed or the stream is broken
    // (hasError()). After an error the parser stays broken until reset().
    std::optional<RedisReply> next();
    bool hasError() const { return !m_error.isEmpty(); }
    // "protocol error: ..." — what hiredis said about the stream.
    QString errorString() const { return m_error; }
    // Forgets all buffered input and any error (a new connection).
    void reset();
    // Bytes received but not yet turned into replies.
    qsizetype bufferedBytes() const;

private:
    bool reserveForLargeReply(qsizetype incoming);

    redisReader *m_reader = nullptr;
    QByteArray m_input;
    qsizetype m_inputPos = 0;
    QString m_error;
};

} // namespace semscope::redis
