#include "ReplyReader.h"

#include "Hiredis.h"

#include <charconv>
#include <cstring>
#include <utility>

namespace semscope::redis {

namespace {

// A length or integer line is at most "-9223372036854775808": anything longer without its CRLF
// is not one.
constexpr qsizetype kMaxNumberLine = 21;
// hiredis 0.14 keeps a line's length in an int: a status or error line must end well before that.
constexpr qsizetype kMaxStatusLine = INT_MAX - 2 * ReplyReader::kFeedPiece;
// The smallest element on the wire (":0\r\n" is four bytes, "+\r\n" three): an array claiming more
// elements than the limit has room for cannot be a real reply, and the bytes fed so far hold at
// most this many elements per three bytes.
constexpr qint64 kMinElementBytes = 3;
constexpr qint64 kValueBytes = qint64(sizeof(RedisReply));

QString mebibytes(qint64 bytes) {
    return bytes % (1024 * 1024) == 0 ? QStringLiteral("%1 MiB").arg(bytes / (1024 * 1024))
                                      : QStringLiteral("%1 bytes").arg(bytes);
}

QString tooLarge(qint64 limit) {
    return QStringLiteral("reply larger than %1 (the limit for one reply)").arg(mebibytes(limit));
}

bool isResp3Type(char c) {
    switch (c) {
    case '_':
    case ',':
    case '#':
    case '(':
    case '!':
    case '=':
    case '%':
    case '~':
    case '|':
    case '>':
        return true;
    default:
        return false;
    }
}

// The byte in hiredis' "Protocol error, got "<byte>" as reply type byte", which it writes as the
// character itself, a C escape (\n \r \t \a \b \\ \") or \xNN.
std::optional<char> typeByteOf(const char *errstr) {
    const char *open = std::strchr(errstr, '"');
    if (!open)
        return std::nullopt;
    const char *p = open + 1;
    if (*p != '\\')
        return *p ? std::optional<char>(*p) : std::nullopt;
    switch (p[1]) {
    case 'n':
        return '\n';
    case 'r':
        return '\r';
    case 't':
        return '\t';
    case 'a':
        return '\a';
    case 'b':
        return '\b';
    case 'x': {
        unsigned value = 0;
        const auto [end, ec] = std::from_chars(p + 2, p + 4, value, 16);
        return ec == std::errc() && end == p + 4 ? std::optional<char>(char(value)) : std::nullopt;
    }
    default:
        return p[1] ? std::optional<char>(p[1]) : std::nullopt;
    }
}

// The byte hiredis found where a reply's type should be, when that is its complaint.
std::optional<char> strayTypeByte(const redisReader *reader) {
    return std::strstr(reader->errstr, "as reply type byte") ? typeByteOf(reader->errstr) : std::nullopt;
}

// hiredis' own findings (read.c of 0.14), said the way semscope says the rest.
QString describeReaderError(const redisReader *reader) {
    const char *errstr = reader->errstr;
    if (const auto byte = strayTypeByte(reader)) {
        if (isResp3Type(*byte))
            return QStringLiteral("RESP3 reply type '%1' (semscope speaks RESP2)")
                .arg(QChar::fromLatin1(*byte));
        return QStringLiteral("byte 0x%1 where a reply should start")
            .arg(uchar(*byte), 2, 16, QLatin1Char('0'));
    }
    if (std::strcmp(errstr, "Bad integer value") == 0)
        return QStringLiteral("malformed integer (not a 64-bit decimal number)");
    if (std::strcmp(errstr, "Bad bulk string length") == 0)
        return QStringLiteral("malformed bulk string length (not a 64-bit decimal number)");
    if (std::strcmp(errstr, "Bulk string length out of range") == 0)
        return QStringLiteral("negative bulk string length (below -1, the nil string)");
    if (std::strcmp(errstr, "Bad multi-bulk length") == 0)
        return QStringLiteral("malformed array length (not a 64-bit decimal number)");
    if (std::strcmp(errstr, "Multi-bulk length out of range") == 0)
        return QStringLiteral("array length out of range (below -1, the nil array, or above 2147483647)");
    if (std::strstr(errstr, "nested multi bulk"))
        return QStringLiteral("arrays nested more than %1 deep").arg(ReplyReader::kMaxDepth);
    if (reader->err == REDIS_ERR_OOM)
        return QStringLiteral("out of memory while reading a reply");
    return QStringLiteral("hiredis: ") + QString::fromLatin1(errstr);
}

// How much of a stranger's first line is kept and quoted.
constexpr qsizetype kOpeningBytes = 60;

// `opening` quoted when it starts with a line of plain text; empty otherwise. A line cut short by
// the end of what arrived counts: an HTML page need not end its first line soon.
QString quotedFirstLine(const QByteArray &opening, bool cut) {
    qsizetype end = 0;
    while (end < opening.size() && opening[end] != '\r' && opening[end] != '\n') {
        const uchar c = uchar(opening[end]);
        if (c < 0x20 || c > 0x7e)
            return {};
        ++end;
    }
    constexpr qsizetype kShortest = 4; // "HTTP", "SSH-": fewer says too little to quote
    if (end < kShortest)
        return {};
    QString line = QString::fromLatin1(opening.constData(), end);
    if (cut && end == opening.size())
        line += QChar(0x2026); // …
    return line;
}

ReplyReader *readerOf(const redisReadTask *task) {
    return static_cast<ReplyReader *>(task->privdata);
}

} // namespace

ReplyReader::ReplyReader(qint64 maxReplyBytes)
    : m_maxReplyBytes(maxReplyBytes) {
    createReader();
}

ReplyReader::~ReplyReader() {
    redisReaderFree(m_reader); // frees a half-built reply through freeObject
}

void ReplyReader::createReader() {
    static redisReplyObjectFunctions functions = {
        &ReplyReader::createString, &ReplyReader::createArray, &ReplyReader::createInteger,
        &ReplyReader::createNil,    &ReplyReader::freeObject,
    };
    m_reader = redisReaderCreateWithFunctions(&functions);
    if (!m_reader) {
        m_error = QStringLiteral("protocol error: out of memory for the reply reader");
        return;
    }
    m_reader->privdata = this; // every task's privdata
    m_reader->maxbuf = size_t(kMaxSpareBuffer);
}

void ReplyReader::reset() {
    redisReaderFree(m_reader);
    m_reader = nullptr;
    m_staged = QByteArray();
    m_stagedPos = 0;
    m_lineScanned = 0;
    m_built = 0;
    m_refusal.clear();
    m_error.clear();
    m_opening = QByteArray();
    m_repliedOnce = false;
    createReader();
}

qsizetype ReplyReader::unread() const {
    return m_reader ? qsizetype(m_reader->len - m_reader->pos) : 0;
}

qsizetype ReplyReader::bufferedBytes() const {
    return unread() + m_staged.size() - m_stagedPos;
}

qsizetype ReplyReader::bufferCapacity() const {
    return m_reader && m_reader->buf ? qsizetype(sdsalloc(m_reader->buf)) : 0;
}

void ReplyReader::feed(const QByteArray &bytes) {
    if (bytes.isEmpty() || hasError())
        return;
    if (!m_repliedOnce && m_opening.size() <= kOpeningBytes)
        m_opening += bytes.left(kOpeningBytes + 1 - m_opening.size()); // one more tells a cut line
    if (m_stagedPos == m_staged.size()) {
        m_staged = bytes; // shared, not copied
    } else {
        m_staged.remove(0, m_stagedPos);
        m_staged.append(bytes);
    }
    m_stagedPos = 0;
}

bool ReplyReader::pump() {
    if (!m_reader || m_stagedPos == m_staged.size())
        return false;
    const qsizetype n = qMin(kFeedPiece, m_staged.size() - m_stagedPos);
    if (redisReaderFeed(m_reader, m_staged.constData() + m_stagedPos, size_t(n)) != REDIS_OK) {
        failFromReader();
        return false;
    }
    m_stagedPos += n;
    if (m_stagedPos == m_staged.size()) {
        m_staged = QByteArray(); // a big read's buffer is not kept for the next one
        m_stagedPos = 0;
    }
    return true;
}

std::optional<RedisReply> ReplyReader::next() {
    if (m_reader && m_reader->pos == m_reader->len && m_stagedPos == m_staged.size())
        return std::nullopt; // nothing to read (hiredis would look for a type byte and find none)
    while (m_reader) {
        if (m_lineScanned > 0 && !lineArrived()) {
            if (!pump())
                return std::nullopt;
            continue;
        }
        void *out = nullptr;
        if (redisReaderGetReply(m_reader, &out) != REDIS_OK) {
            failFromReader();
            return std::nullopt;
        }
        if (out) {
            if (!m_repliedOnce) {
                m_repliedOnce = true;
                m_opening = QByteArray();
            }
            m_built = 0;
            trimSpare();
            return std::exchange(m_root, RedisReply());
        }
        if (!notePartial() || !pump())
            return std::nullopt;
    }
    return std::nullopt;
}

// hiredis stopped without a reply: it waits for more of the item at the top of its task stack.
// Bounds that hiredis does not keep are checked here, as soon as they can be.
bool ReplyReader::notePartial() {
    m_lineScanned = 0;
    if (m_reader->ridx >= 0 && unread() > 0) {
        const int type = m_reader->rstack[m_reader->ridx].type;
        if (type == REDIS_REPLY_STRING) {
            // Past the '$': hiredis creates the string only once all of it has arrived, so its
            // claimed length is checked here, before its bytes pile up.
            const char *line = m_reader->buf + m_reader->pos;
            const qsizetype window = qMin(unread(), kMaxNumberLine + 2);
            const void *cr = std::memchr(line, '\r', size_t(window));
            if (cr && static_cast<const char *>(cr) + 1 < line + unread() &&
                static_cast<const char *>(cr)[1] == '\n') {
                qint64 length = 0;
                const auto [end, ec] = std::from_chars(line, static_cast<const char *>(cr), length);
                if (ec == std::errc() && end == cr && length > m_maxReplyBytes - m_built - kValueBytes) {
                    fail(QStringLiteral("a bulk string of %1 bytes (more than the %2 limit for one reply)")
                             .arg(length)
                             .arg(mebibytes(m_maxReplyBytes)));
                    return false;
                }
                return checkHeld();
            }
        }
        if (type == REDIS_REPLY_STRING || type == REDIS_REPLY_ARRAY || type == REDIS_REPLY_INTEGER ||
            type == REDIS_REPLY_STATUS || type == REDIS_REPLY_ERROR) {
            // hiredis has just searched every unread byte for the line's CRLF.
            m_lineScanned = unread();
            if (!checkLine(type))
                return false;
        }
    }
    return checkHeld();
}

// More bytes arrived while hiredis waits for a line's CRLF: only they are searched.
bool ReplyReader::lineArrived() {
    const char *line = m_reader->buf + m_reader->pos;
    const qsizetype from = m_lineScanned - 1; // a '\r' may end the last piece
    const qsizetype n = unread();
    for (qsizetype i = from; i + 1 < n;) {
        const void *cr = std::memchr(line + i, '\r', size_t(n - 1 - i));
        if (!cr)
            break;
        i = static_cast<const char *>(cr) - line;
        if (line[i + 1] == '\n') {
            m_lineScanned = 0;
            return true;
        }
        ++i;
    }
    m_lineScanned = n;
    if (checkLine(m_reader->rstack[m_reader->ridx].type))
        checkHeld();
    return false;
}

bool ReplyReader::checkLine(int type) {
    if (type != REDIS_REPLY_STATUS && type != REDIS_REPLY_ERROR && m_lineScanned > kMaxNumberLine) {
        fail(QStringLiteral("a length or integer line longer than %1 bytes").arg(kMaxNumberLine));
        return false;
    }
    if (m_lineScanned > kMaxStatusLine) {
        fail(QStringLiteral("a status or error line longer than %1 bytes").arg(kMaxStatusLine));
        return false;
    }
    return true;
}

bool ReplyReader::checkHeld() {
    if (m_built + unread() > m_maxReplyBytes) {
        fail(tooLarge(m_maxReplyBytes));
        return false;
    }
    return true;
}

void ReplyReader::fail(const QString &what) {
    m_error = QStringLiteral("protocol error: ") + what;
    // The half-built reply and the buffered bytes are useless now; their memory goes at once.
    redisReaderFree(m_reader);
    m_reader = nullptr;
    m_staged = QByteArray();
    m_stagedPos = 0;
    m_lineScanned = 0;
    m_built = 0;
}

void ReplyReader::failFromReader() {
    QString what = m_refusal.isEmpty() ? describeReaderError(m_reader) : m_refusal;
    // Text where the first reply should start: something other than Redis listens on the port.
    const auto stray = m_refusal.isEmpty() ? strayTypeByte(m_reader) : std::nullopt;
    m_refusal.clear();
    if (!m_repliedOnce && stray && !isResp3Type(*stray)) {
        const QString line = quotedFirstLine(m_opening.left(kOpeningBytes), m_opening.size() > kOpeningBytes);
        if (!line.isEmpty())
            what += QStringLiteral("; the server said \"%1\", so it is not a Redis server").arg(line);
    }
    fail(what);
}

void ReplyReader::trimSpare() {
    // hiredis frees a big buffer only when it is empty at the next feed; one that still holds the
    // start of the next reply would keep its room for good.
    const sds buf = m_reader->buf;
    if (buf && sdsavail(buf) > qMax(size_t(kMaxSpareBuffer), sdslen(buf)))
        m_reader->buf = sdsRemoveFreeSpace(buf);
}

// ---- redisReplyObjectFunctions --------------------------------------------------------------------

void *ReplyReader::refuse(const QString &what) {
    if (m_refusal.isEmpty())
        m_refusal = what;
    return nullptr; // hiredis gives up on the stream and frees the half-built reply
}

bool ReplyReader::charge(qint64 bytes) {
    if (bytes + kValueBytes > m_maxReplyBytes - m_built) {
        refuse(tooLarge(m_maxReplyBytes));
        return false;
    }
    m_built += bytes + kValueBytes;
    return true;
}

void *ReplyReader::place(const redisReadTask *task, RedisReply &&value) {
    if (!task->parent) {
        // The root lives in the reader: no allocation per reply. hiredis hands it back or frees it.
        RedisReply &root = readerOf(task)->m_root;
        root = std::move(value);
        return &root;
    }
    // The parent is the array being filled: its own place in the tree stays put until it is
    // complete, because its siblings only come after it.
    auto *parent = static_cast<RedisReply *>(task->parent->obj);
    parent->elements.append(std::move(value));
    return &parent->elements.last();
}

void *ReplyReader::createString(const redisReadTask *task, char *str, size_t len) {
    ReplyReader *self = readerOf(task);
    RedisReply value;
    switch (task->type) {
    case REDIS_REPLY_STRING:
        // hiredis does not look at the two bytes after the payload; they are in its buffer.
        if (str[len] != '\r' || str[len + 1] != '\n')
            return self->refuse(QStringLiteral("a bulk string of %1 bytes is not followed by CRLF").arg(len));
        value.type = RedisReply::Type::String;
        break;
    case REDIS_REPLY_STATUS:
        value.type = RedisReply::Type::Status;
        break;
    default:
        value.type = RedisReply::Type::Error;
        break;
    }
    if (!self->charge(qint64(len)))
        return nullptr;
    value.str = QByteArray(str, qsizetype(len));
    return place(task, std::move(value));
}

void *ReplyReader::createArray(const redisReadTask *task, int elements) {
    ReplyReader *self = readerOf(task);
    if (elements > (self->m_maxReplyBytes - self->m_built) / kMinElementBytes)
        return self->refuse(
            QStringLiteral("an array of %1 elements (more than fit in the %2 limit for one reply)")
                .arg(elements)
                .arg(mebibytes(self->m_maxReplyBytes)));
    if (!self->charge(0))
        return nullptr;
    // Nothing reserved: the elements are appended as they arrive.
    RedisReply value;
    value.type = RedisReply::Type::Array;
    return place(task, std::move(value));
}

void *ReplyReader::createInteger(const redisReadTask *task, long long value) {
    if (!readerOf(task)->charge(0))
        return nullptr;
    return place(task, RedisReply::integerReply(value));
}

void *ReplyReader::createNil(const redisReadTask *task) {
    if (!readerOf(task)->charge(0))
        return nullptr;
    return place(task, RedisReply::nil());
}

void ReplyReader::freeObject(void *reply) {
    // hiredis 0.14 frees only the root (a reply it will not hand back), which owns the rest.
    *static_cast<RedisReply *>(reply) = RedisReply();
}

} // namespace semscope::redis
