#include "RespParser.h"

#include <charconv>

namespace semscope::redis {

namespace {

// A length or integer line is at most "-9223372036854775808": anything longer without its CRLF
// is not one.
constexpr qsizetype kMaxNumberLine = 21;
// The smallest element on the wire (":0\r\n" is four bytes, "+\r\n" three): an array claiming more
// elements than the limit has room for cannot be a real reply.
constexpr qint64 kMinElementBytes = 3;
constexpr qint64 kValueBytes = qint64(sizeof(RedisReply));

QString mebibytes(qint64 bytes) {
    return bytes % (1024 * 1024) == 0 ? QStringLiteral("%1 MiB").arg(bytes / (1024 * 1024))
                                      : QStringLiteral("%1 bytes").arg(bytes);
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

} // namespace

RespParser::RespParser(qint64 maxReplyBytes)
    : m_maxReplyBytes(maxReplyBytes) {}

void RespParser::feed(const QByteArray &bytes) {
    if (bytes.isEmpty() || hasError())
        return;
    if (m_pos == m_input.size()) {
        m_input = bytes;
    } else {
        // Drop what is parsed before appending, so the buffer holds only the item being read
        // and what follows it.
        m_input.remove(0, m_pos);
        m_input.append(bytes);
    }
    m_pos = 0;
}

std::optional<RedisReply> RespParser::next() {
    while (!hasError()) {
        RedisReply value;
        switch (parseItem(&value)) {
        case Step::Value:
            if (attach(&value))
                return value;
            break;
        case Step::ArrayStarted:
            break;
        case Step::NeedMore:
            if (m_pos == m_input.size()) {
                m_input = QByteArray(); // a big reply's buffer is not kept for the next one
                m_pos = 0;
            }
            if (heldBytes() > m_maxReplyBytes)
                failTooLarge();
            return std::nullopt;
        case Step::Failed:
            return std::nullopt;
        }
    }
    return std::nullopt;
}

RespParser::Step RespParser::parseItem(RedisReply *value) {
    if (m_pos >= m_input.size())
        return Step::NeedMore;
    const char type = m_input.at(m_pos);
    if (type != '+' && type != '-' && type != ':' && type != '$' && type != '*') {
        if (isResp3Type(type))
            return fail(
                QStringLiteral("RESP3 reply type '%1' (semscope speaks RESP2)").arg(QChar::fromLatin1(type)));
        return fail(
            QStringLiteral("byte 0x%1 where a reply should start").arg(uchar(type), 2, 16, QLatin1Char('0')));
    }
    const std::optional<qsizetype> lineEnd = findLineEnd(type);
    if (!lineEnd)
        return hasError() ? Step::Failed : Step::NeedMore;
    switch (type) {
    case '+':
    case '-':
        value->type = type == '+' ? RedisReply::Type::Status : RedisReply::Type::Error;
        value->str = m_input.mid(m_pos + 1, *lineEnd - m_pos - 1);
        m_pos = *lineEnd + 2;
        return Step::Value;
    case ':': {
        const auto n = parseNumber(*lineEnd, "integer");
        if (!n)
            return Step::Failed;
        *value = RedisReply::integerReply(*n);
        m_pos = *lineEnd + 2;
        return Step::Value;
    }
    default: {
        const auto length = parseLength(*lineEnd, type == '$' ? "bulk string length" : "array length");
        if (!length)
            return Step::Failed;
        if (*length == -1) {
            *value = RedisReply::nil();
            m_pos = *lineEnd + 2;
            return Step::Value;
        }
        return type == '$' ? parseBulk(*lineEnd, *length, value) : parseArrayHeader(*lineEnd, *length, value);
    }
    }
}

std::optional<qsizetype> RespParser::findLineEnd(char type) {
    const qsizetype from = m_pos + 1 + qMax<qsizetype>(0, m_lineScanned - 1); // a '\r' may end the last read
    const qsizetype end = m_input.indexOf("\r\n", from);
    if (end >= 0) {
        m_lineScanned = 0;
        return end;
    }
    m_lineScanned = m_input.size() - m_pos - 1;
    if (type != '+' && type != '-' && m_lineScanned > kMaxNumberLine)
        fail(QStringLiteral("a length or integer line longer than %1 bytes").arg(kMaxNumberLine));
    return std::nullopt;
}

std::optional<qint64> RespParser::parseNumber(qsizetype lineEnd, const char *what) {
    const char *begin = m_input.constData() + m_pos + 1;
    const char *end = m_input.constData() + lineEnd;
    qint64 n = 0;
    const auto [stop, ec] = std::from_chars(begin, end, n);
    if (begin == end || ec != std::errc() || stop != end) {
        fail(QStringLiteral("malformed %1 (not a 64-bit decimal number)").arg(QLatin1String(what)));
        return std::nullopt;
    }
    return n;
}

std::optional<qint64> RespParser::parseLength(qsizetype lineEnd, const char *what) {
    const auto n = parseNumber(lineEnd, what);
    if (n && *n < -1) {
        fail(QStringLiteral("negative %1 %2").arg(QLatin1String(what)).arg(*n));
        return std::nullopt;
    }
    return n;
}

RespParser::Step RespParser::parseBulk(qsizetype lineEnd, qint64 length, RedisReply *value) {
    if (length > m_maxReplyBytes - m_built - kValueBytes)
        return fail(QStringLiteral("a bulk string of %1 bytes (more than the %2 limit for one reply)")
                        .arg(length)
                        .arg(mebibytes(m_maxReplyBytes)));
    const qsizetype dataStart = lineEnd + 2;
    if (m_input.size() - dataStart < length + 2)
        return Step::NeedMore; // the header is read again, from m_pos, when more arrives
    const qsizetype dataEnd = dataStart + qsizetype(length);
    if (m_input.at(dataEnd) != '\r' || m_input.at(dataEnd + 1) != '\n')
        return fail(QStringLiteral("a bulk string of %1 bytes is not followed by CRLF").arg(length));
    value->type = RedisReply::Type::String;
    value->str = m_input.mid(dataStart, qsizetype(length));
    m_pos = dataEnd + 2;
    return Step::Value;
}

RespParser::Step RespParser::parseArrayHeader(qsizetype lineEnd, qint64 count, RedisReply *value) {
    if (count > (m_maxReplyBytes - m_built) / kMinElementBytes)
        return fail(QStringLiteral("an array of %1 elements (more than fit in the %2 limit for one reply)")
                        .arg(count)
                        .arg(mebibytes(m_maxReplyBytes)));
    m_pos = lineEnd + 2;
    value->type = RedisReply::Type::Array;
    if (count == 0)
        return Step::Value;
    if (m_stack.size() >= size_t(kMaxDepth))
        return fail(QStringLiteral("arrays nested more than %1 deep").arg(kMaxDepth));
    // Nothing reserved: the elements are appended as they arrive.
    m_stack.push_back({std::move(*value), count});
    m_built += kValueBytes;
    return Step::ArrayStarted;
}

bool RespParser::attach(RedisReply *value) {
    while (!m_stack.empty()) {
        m_built += kValueBytes + value->str.size();
        if (m_built > m_maxReplyBytes) {
            fail(QStringLiteral("reply larger than %1 (the limit for one reply)")
                     .arg(mebibytes(m_maxReplyBytes)));
            return false;
        }
        Frame &open = m_stack.back();
        open.array.elements.append(std::move(*value));
        if (open.array.elements.size() < open.expected)
            return false;
        *value = std::move(open.array);
        m_stack.pop_back();
    }
    m_built = 0;
    return true;
}

RespParser::Step RespParser::fail(const QString &what) {
    m_error = QStringLiteral("protocol error: ") + what;
    // The half-built reply is useless now; its memory goes at once.
    m_stack.clear();
    m_built = 0;
    m_input = QByteArray();
    m_pos = 0;
    return Step::Failed;
}

void RespParser::failTooLarge() {
    fail(QStringLiteral("reply larger than %1 (the limit for one reply)").arg(mebibytes(m_maxReplyBytes)));
}

void RespParser::reset() {
    m_input = QByteArray();
    m_pos = 0;
    m_lineScanned = 0;
    m_stack.clear();
    m_built = 0;
    m_error.clear();
}

} // namespace semscope::redis
