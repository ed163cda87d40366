#include "RespParser.h"

extern "C" { // sds.h has no C++ guard; it must come before hiredis.h, which includes it too
#include <hiredis/sds.h>
}
#include <hiredis/hiredis.h>
#include <memory>

namespace semscope::redis {

namespace {

// hiredis builds replies through these functions, so they become RedisReply values in place:
// no intermediate redisReply tree to copy and free (a million-element reply would otherwise be
// made twice). The root is allocated here and handed out by next(); every other value lives
// inside its parent's pre-sized `elements`, so pointers to it stay valid while hiredis fills it.
// They are called from C: nothing may throw through them, a nullptr tells hiredis "out of memory".

void *place(const redisReadTask *task, RedisReply &&value) noexcept {
    try {
        if (task->parent) {
            auto *parent = static_cast<RedisReply *>(task->parent->obj);
            RedisReply &slot = parent->elements[task->idx];
            slot = std::move(value);
            return &slot;
        }
        return new RedisReply(std::move(value));
    } catch (...) {
        return nullptr;
    }
}

void *createString(const redisReadTask *task, char *str, size_t len) {
    RedisReply r;
    switch (task->type) {
    case REDIS_REPLY_ERROR:
        r.type = RedisReply::Type::Error;
        break;
    case REDIS_REPLY_STATUS:
        r.type = RedisReply::Type::Status;
        break;
    default:
        r.type = RedisReply::Type::String;
        break;
    }
    try {
        r.str = QByteArray(str, qsizetype(len));
    } catch (...) {
        return nullptr;
    }
    return place(task, std::move(r));
}

void *createArray(const redisReadTask *task, int elements) {
    RedisReply r;
    r.type = RedisReply::Type::Array;
    try {
        r.elements.resize(qMax(0, elements));
    } catch (...) {
        return nullptr;
    }
    return place(task, std::move(r));
}

void *createInteger(const redisReadTask *task, long long value) {
    return place(task, RedisReply::integerReply(qint64(value)));
}

void *createNil(const redisReadTask *task) {
    return place(task, RedisReply::nil());
}

// hiredis frees only the root (on errors and when the reader goes); it owns all the rest.
void freeObject(void *reply) {
    delete static_cast<RedisReply *>(reply);
}

redisReplyObjectFunctions kReplyFunctions = {createString, createArray, createInteger, createNil, freeObject};

redisReader *createReader() {
    return redisReaderCreateWithFunctions(&kReplyFunctions);
}

} // namespace

RespParser::RespParser()
    : m_reader(createReader()) {}

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
            std::unique_ptr<RedisReply> reply(static_cast<RedisReply *>(raw));
            return std::move(*reply);
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
    m_reader = createReader();
    m_input.clear();
    m_inputPos = 0;
    m_error.clear();
}

qsizetype RespParser::bufferedBytes() const {
    const qsizetype inHiredis = m_reader ? qsizetype(m_reader->len - m_reader->pos) : 0;
    return inHiredis + (m_input.size() - m_inputPos);
}

} // namespace semscope::redis
