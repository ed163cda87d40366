#include "RespParser.h"

extern "C" { // sds.h has no C++ guard; it must come before hiredis.h, which includes it too
#include <hiredis/sds.h>
}
#include <hiredis/hiredis.h>

namespace semscope::redis {

namespace {

RedisReply convert(const redisReply *r) {
    RedisReply out;
    switch (r->type) {
    case REDIS_REPLY_STRING:
        out.type = RedisReply::Type::String;
        out.str = QByteArray(r->str, qsizetype(r->len));
        break;
    case REDIS_REPLY_STATUS:
        out.type = RedisReply::Type::Status;
        out.str = QByteArray(r->str, qsizetype(r->len));
        break;
    case REDIS_REPLY_ERROR:
        out.type = RedisReply::Type::Error;
        out.str = QByteArray(r->str, qsizetype(r->len));
        break;
    case REDIS_REPLY_INTEGER:
        out.type = RedisReply::Type::Integer;
        out.integer = r->integer;
        break;
    case REDIS_REPLY_ARRAY:
        out.type = RedisReply::Type::Array;
        out.elements.reserve(qsizetype(r->elements));
        // hiredis limits nesting to 7 levels, so this recursion is shallow.
        for (size_t i = 0; i < r->elements; ++i)
            out.elements.append(convert(r->element[i]));
        break;
    case REDIS_REPLY_NIL:
    default:
        out.type = RedisReply::Type::Nil;
        break;
    }
    return out;
}

} // namespace

RespParser::RespParser()
    : m_reader(redisReaderCreate()) {}

RespParser::~RespParser() {
    if (m_reader)
        redisReaderFree(m_reader);
}

void RespParser::feed(const QByteArray &bytes) {
    if (bytes.isEmpty() || hasError())
        return;
    if (m_inputPos == m_input.size()) {
        m_input = bytes;
        m_inputPos = 0;
    } else {
        // Drop what hiredis already has before appending, so m_input never grows without bound.
        m_input.remove(0, m_inputPos);
        m_inputPos = 0;
        m_input.append(bytes);
    }
}

std::optional<RedisReply> RespParser::next() {
    if (hasError())
        return std::nullopt;
    if (!m_reader) {
        m_error = QStringLiteral("protocol error: out of memory");
        return std::nullopt;
    }
    // Bounded: every round either returns or hands hiredis another non-empty slice.
    for (;;) {
        void *raw = nullptr;
        if (redisReaderGetReply(m_reader, &raw) != REDIS_OK) {
            m_error = QStringLiteral("protocol error: ") + QString::fromUtf8(m_reader->errstr);
            return std::nullopt;
        }
        if (raw) {
            auto *reply = static_cast<redisReply *>(raw);
            RedisReply converted = convert(reply);
            freeReplyObject(reply);
            return converted;
        }
        if (m_inputPos >= m_input.size()) {
            m_input.clear();
            m_inputPos = 0;
            return std::nullopt;
        }
        const qsizetype slice = qMin(kSliceBytes, m_input.size() - m_inputPos);
        if (!reserveForLargeReply(slice) ||
            redisReaderFeed(m_reader, m_input.constData() + m_inputPos, size_t(slice)) != REDIS_OK) {
            m_error = QStringLiteral("protocol error: out of memory");
            return std::nullopt;
        }
        m_inputPos += slice;
    }
}

bool RespParser::reserveForLargeReply(qsizetype incoming) {
    // hiredis grows its buffer by 1 MiB at a time once it is past 1 MiB. Where realloc cannot
    // move pages (sanitizers, other allocators) a 64 MiB reply then copies ~2 GiB. Growing it
    // ahead, to twice what the unfinished reply holds, keeps that linear. The reader frees big
    // idle buffers itself (maxbuf) once the reply is taken.
    constexpr size_t kGrowFrom = 1024 * 1024;
    const size_t unread = m_reader->len - m_reader->pos;
    if (unread < kGrowFrom || sdsavail(m_reader->buf) >= size_t(incoming))
        return true;
    sds grown = sdsMakeRoomFor(m_reader->buf, unread);
    if (!grown)
        return false;
    m_reader->buf = grown;
    return true;
}

void RespParser::reset() {
    if (m_reader)
        redisReaderFree(m_reader);
    m_reader = redisReaderCreate();
    m_input.clear();
    m_inputPos = 0;
    m_error.clear();
}

qsizetype RespParser::bufferedBytes() const {
    const qsizetype inHiredis = m_reader ? qsizetype(m_reader->len - m_reader->pos) : 0;
    return inHiredis + (m_input.size() - m_inputPos);
}

} // namespace semscope::redis
