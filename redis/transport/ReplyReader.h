#pragma once

#include "redis/RedisReply.h"

#include <QByteArray>
#include <QString>
#include <optional>

struct redisReader;
struct redisReadTask;

namespace semscope::redis {

// Turns the byte stream from a Redis server into RedisReply values (RESP2). hiredis' redisReader
// reads the protocol; semscope's own object functions (redisReplyObjectFunctions) build each
// RedisReply in place and keep the bounds hiredis leaves to its caller.
//
// The server is not trusted: a reply gets only as much memory as its bytes actually arrive for,
// never what a header claims. hiredis creates a bulk string only once all of it has arrived and
// hands an array's claimed count to createArray, which reserves nothing for it (the elements are
// appended as they arrive). One reply may hold at most maxReplyBytes (its unread bytes plus what is
// built of it so far, counting sizeof(RedisReply) per value); a bulk length or element count the
// limit cannot hold is refused as soon as its header has arrived. Arrays nest at most kMaxDepth
// deep (hiredis' limit). Anything else is a protocol error: malformed or out-of-range lengths and
// integers, a bulk string not closed by CRLF, RESP3 types, bytes that start no reply. Work stays
// linear in the input: hiredis is handed at most kFeedPiece bytes at a time, and a line that
// arrives in pieces is not given back to hiredis (which searches it from its start) until its CRLF
// has come. After a big reply, hiredis' buffer keeps at most kMaxSpareBuffer of spare room.
class ReplyReader {
public:
    // Well above any real semaphore (a million-element reply is about 100 MiB here) and low
    // enough that a lying server cannot take the machine down.
    static constexpr qint64 kDefaultMaxReplyBytes = 512LL * 1024 * 1024;
    // hiredis 0.14 reads arrays nested at most eight deep; semscope's deepest reply is three.
    static constexpr int kMaxDepth = 8;
    // The most hiredis is fed at once. hiredis moves its unread bytes to the front of its buffer
    // after each kilobyte it consumes, so this bounds the bytes moved per byte read.
    static constexpr qsizetype kFeedPiece = 16 * 1024;
    // The spare room hiredis' buffer may keep after a big reply (redisReader::maxbuf).
    static constexpr qsizetype kMaxSpareBuffer = 64 * 1024;

    explicit ReplyReader(qint64 maxReplyBytes = kDefaultMaxReplyBytes);
    ~ReplyReader();
    ReplyReader(const ReplyReader &) = delete;
    ReplyReader &operator=(const ReplyReader &) = delete;

    void setMaxReplyBytes(qint64 bytes) { m_maxReplyBytes = bytes; }
    qint64 maxReplyBytes() const { return m_maxReplyBytes; }

    void feed(const QByteArray &bytes);
    // The next complete reply, or nothing if more bytes are needed or the stream is broken
    // (hasError()). After an error the reader stays broken until reset().
    std::optional<RedisReply> next();
    bool hasError() const { return !m_error.isEmpty(); }
    // "protocol error: ..." — what is wrong with the stream. The server's own bytes appear only when
    // its very first line is plain text that starts no reply (an HTTP or SSH server on the port):
    // quoted, cut, and only printable ASCII, so that the operator sees what listens there.
    QString errorString() const { return m_error; }
    // Forgets all buffered input, any half-built reply and any error (a new connection).
    void reset();
    // Bytes received but not yet read.
    qsizetype bufferedBytes() const;
    // What the reply being read holds now: its unread bytes plus what is built of it. Never more
    // than maxReplyBytes() (plus the last read) while no error is set.
    qint64 heldBytes() const { return m_built + bufferedBytes(); }
    // The room hiredis' buffer takes now (read, unread and spare bytes).
    qsizetype bufferCapacity() const;

private:
    // The object functions hiredis calls; each finds this reader in task->privdata.
    static void *createString(const redisReadTask *task, char *str, size_t len);
    static void *createArray(const redisReadTask *task, int elements);
    static void *createInteger(const redisReadTask *task, long long value);
    static void *createNil(const redisReadTask *task);
    static void freeObject(void *reply);

    // Counts a new value of `bytes` payload against the limit; false (and the reason kept for
    // next()) if it does not fit.
    bool charge(qint64 bytes);
    // Moves `value` into its parent array (or onto the heap as the reply's root) and returns it.
    static void *place(const redisReadTask *task, RedisReply &&value);
    void *refuse(const QString &what);

    void createReader();
    bool pump();
    bool notePartial();
    bool lineArrived();
    bool checkLine(int type);
    bool checkHeld();
    void fail(const QString &what);
    void failFromReader();
    void trimSpare();
    qsizetype unread() const;

    redisReader *m_reader = nullptr;
    RedisReply m_root;   // the reply being built; its elements own the rest of it
    QByteArray m_staged; // fed, not yet handed to hiredis (from m_stagedPos)
    qsizetype m_stagedPos = 0;
    // Bytes after hiredis' read position known to hold no CRLF while it waits for a line's end
    // (0: not waiting for a line, or nothing searched yet).
    qsizetype m_lineScanned = 0;
    qint64 m_built = 0; // bytes counted for the reply being built (values and strings)
    qint64 m_maxReplyBytes;
    QString m_refusal; // why an object function refused a value (hiredis then reports "Out of memory")
    QString m_error;
    // The stream's first bytes, kept until its first reply (see errorString()).
    QByteArray m_opening;
    bool m_repliedOnce = false;
};

} // namespace semscope::redis
