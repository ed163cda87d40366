#pragma once

#include "redis/RedisReply.h"

#include <QByteArray>
#include <QString>
#include <optional>
#include <vector>

namespace semscope::redis {

// Turns the byte stream from a Redis server into RedisReply values (RESP2).
//
// The server is not trusted: a reply gets only as much memory as its bytes actually arrive for,
// never what a header claims. An array header reserves nothing (elements are appended as they
// arrive), arrays nest at most kMaxDepth deep, and one reply may hold at most maxReplyBytes
// (its unparsed bytes plus what is built of it so far, counting sizeof(RedisReply) per value).
// Anything else is a protocol error: malformed or out-of-range lengths and integers, a bulk string
// not closed by CRLF, RESP3 types, bytes that start no reply. Work is linear in the input: a line
// that arrives a byte at a time is never searched again from its start.
class RespParser {
public:
    // Well above any real semaphore (a million-element reply is about 100 MiB here) and low
    // enough that a lying server cannot take the machine down.
    static constexpr qint64 kDefaultMaxReplyBytes = 512LL * 1024 * 1024;
    // semscope's deepest reply is three levels (discovery samples); hiredis allowed eight.
    static constexpr int kMaxDepth = 8;

    explicit RespParser(qint64 maxReplyBytes = kDefaultMaxReplyBytes);

    void setMaxReplyBytes(qint64 bytes) { m_maxReplyBytes = bytes; }
    qint64 maxReplyBytes() const { return m_maxReplyBytes; }

    void feed(const QByteArray &bytes);
    // The next complete reply, or nothing if more bytes are needed or the stream is broken
    // (hasError()). After an error the parser stays broken until reset().
    std::optional<RedisReply> next();
    bool hasError() const { return !m_error.isEmpty(); }
    // "protocol error: ..." — what is wrong with the stream, never the server's bytes themselves.
    QString errorString() const { return m_error; }
    // Forgets all buffered input, any half-built reply and any error (a new connection).
    void reset();
    // Bytes received but not yet parsed.
    qsizetype bufferedBytes() const { return m_input.size() - m_pos; }
    // What the reply being read holds now: its unparsed bytes plus what is built of it. Never more
    // than maxReplyBytes() (plus the last read) while no error is set.
    qint64 heldBytes() const { return m_built + bufferedBytes(); }

private:
    enum class Step { Value, ArrayStarted, NeedMore, Failed };
    struct Frame {
        RedisReply array;
        qint64 expected = 0;
    };

    Step parseItem(RedisReply *value);
    Step parseBulk(qsizetype lineEnd, qint64 length, RedisReply *value);
    Step parseArrayHeader(qsizetype lineEnd, qint64 count, RedisReply *value);
    std::optional<qint64> parseNumber(qsizetype lineEnd, const char *what);
    // A bulk or array length: -1 (nil) or more.
    std::optional<qint64> parseLength(qsizetype lineEnd, const char *what);
    std::optional<qsizetype> findLineEnd(char type);
    // Adds a finished value to the arrays it closes; true with the whole reply in *value once the
    // outermost one is complete.
    bool attach(RedisReply *value);
    Step fail(const QString &what);
    void failTooLarge();

    QByteArray m_input;
    qsizetype m_pos = 0;         // first byte of the item being read
    qsizetype m_lineScanned = 0; // bytes after m_pos already searched for the item's CRLF
    std::vector<Frame> m_stack;  // open arrays, outermost first
    qint64 m_built = 0;          // bytes held by m_stack
    qint64 m_maxReplyBytes;
    QString m_error;
};

} // namespace semscope::redis
