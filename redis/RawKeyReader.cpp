#include "RawKeyReader.h"

#include "core/PrintableText.h"

#include <memory>

namespace semscope::redis {

using core::RawKey;

namespace {

// SCAN-family rounds per key: COUNT is only a hint, so a sparse hash may need several rounds to
// fill a window; this caps how many a single key may take.
constexpr int kMaxScanRounds = 50;
constexpr int kScanCount = 100;

struct ReadState {
    core::RawKeys result;
    int pending = 0;
    std::function<void(core::RawKeys)> done;

    void keyDone() {
        if (--pending == 0) {
            result.ok = true;
            done(result);
        }
    }
};
using StatePtr = std::shared_ptr<ReadState>;

QString cell(const QByteArray &bytes) {
    return core::printableServerText(bytes, core::kRawMaxCellChars);
}

QByteArray num(qint64 n) {
    return QByteArray::number(n);
}

// Fills `rows` from a flat [a, b, a, b, ...] reply (HSCAN page, ZRANGE WITHSCORES).
void appendPairs(RawKey &key, const QList<RedisReply> &flat) {
    for (qsizetype j = 0; j + 1 < flat.size() && key.rows.size() < core::kRawMaxRows; j += 2)
        key.rows.append({cell(flat[j].str), cell(flat[j + 1].str)});
}

// HSCAN / SSCAN until the window is full, the cursor is back at 0 or the rounds are spent.
void scan(const RawKeyReader::Send &send, const StatePtr &st, int i, const QByteArray &command,
          const QByteArray &key, const QByteArray &cursor, int round, bool pairs) {
    send({command, key, cursor, "COUNT", num(kScanCount)}, [send, st, i, command, key, round,
                                                            pairs](const RedisReply &r) {
        RawKey &k = st->result.keys[i];
        if (r.isError() || !r.isArray() || r.elements.size() != 2 || !r.elements[1].isArray()) {
            k.error = r.isError() ? r.errorMessage()
                                  : QStringLiteral("unexpected %1 reply").arg(QString::fromLatin1(command));
            return st->keyDone();
        }
        if (pairs) {
            appendPairs(k, r.elements[1].elements);
        } else {
            for (const RedisReply &m : r.elements[1].elements)
                if (k.rows.size() < core::kRawMaxRows)
                    k.rows.append({cell(m.str)});
        }
        const QByteArray next = r.elements[0].str;
        if (next == "0" || k.rows.size() >= core::kRawMaxRows || round + 1 >= kMaxScanRounds)
            return st->keyDone();
        scan(send, st, i, command, key, next, round + 1, pairs);
    });
}

// Sends the size command (LLEN, ZCARD, ...) whose reply lands in `length` before the content read.
void readLength(const RawKeyReader::Send &send, const StatePtr &st, int i, const QByteArray &command,
                const QByteArray &key) {
    send({command, key}, [st, i](const RedisReply &r) {
        if (const auto n = r.toInteger())
            st->result.keys[i].length = *n;
    });
}

void readContent(const RawKeyReader::Send &send, const StatePtr &st, int i, const QByteArray &key,
                 const QByteArray &type) {
    RawKey &k = st->result.keys[i];
    const QByteArray window = num(core::kRawMaxRows - 1);
    if (type == "string") {
        readLength(send, st, i, "STRLEN", key);
        send({"GETRANGE", key, "0", num(core::kRawMaxValueBytes - 1)}, [st, i](const RedisReply &r) {
            RawKey &k = st->result.keys[i];
            if (r.isError())
                k.error = r.errorMessage();
            else
                k.value = core::printableServerText(r.str, core::kRawMaxValueChars);
            if (k.length > core::kRawMaxValueBytes)
                k.value += QStringLiteral(" … (first %1 bytes of %2 read)")
                               .arg(core::kRawMaxValueBytes)
                               .arg(k.length);
            st->keyDone();
        });
    } else if (type == "list") {
        k.columns = {QStringLiteral("index"), QStringLiteral("value")};
        readLength(send, st, i, "LLEN", key);
        send({"LRANGE", key, "0", window}, [st, i](const RedisReply &r) {
            RawKey &k = st->result.keys[i];
            if (r.isError())
                k.error = r.errorMessage();
            for (qsizetype j = 0; j < r.elements.size(); ++j)
                k.rows.append({QString::number(j), cell(r.elements[j].str)});
            st->keyDone();
        });
    } else if (type == "zset") {
        k.columns = {QStringLiteral("member"), QStringLiteral("score")};
        readLength(send, st, i, "ZCARD", key);
        send({"ZRANGE", key, "0", window, "WITHSCORES"}, [st, i](const RedisReply &r) {
            RawKey &k = st->result.keys[i];
            if (r.isError())
                k.error = r.errorMessage();
            else
                appendPairs(k, r.elements);
            st->keyDone();
        });
    } else if (type == "hash") {
        k.columns = {QStringLiteral("field"), QStringLiteral("value")};
        readLength(send, st, i, "HLEN", key);
        scan(send, st, i, "HSCAN", key, "0", 0, true);
    } else if (type == "set") {
        k.columns = {QStringLiteral("member")};
        readLength(send, st, i, "SCARD", key);
        scan(send, st, i, "SSCAN", key, "0", 0, false);
    } else if (type == "none") {
        k.value = QStringLiteral("(the key does not exist)");
        st->keyDone();
    } else {
        k.value = QStringLiteral("(a %1: its contents are not part of any semaphore layout and are not read)")
                      .arg(cell(type));
        st->keyDone();
    }
}

} // namespace

void RawKeyReader::read(const Send &send, const QStringList &keys, std::function<void(core::RawKeys)> done) {
    auto st = std::make_shared<ReadState>();
    st->done = std::move(done);
    QStringList names = keys;
    names.removeDuplicates();
    if (names.size() > core::kRawMaxKeys) {
        st->result.error =
            QStringLiteral("first %1 of %2 keys shown").arg(core::kRawMaxKeys).arg(names.size());
        names = names.mid(0, core::kRawMaxKeys);
    }
    for (const QString &n : names) {
        RawKey k;
        k.name = core::printableServerText(n, core::kRawMaxCellChars);
        st->result.keys.append(k);
    }
    if (names.isEmpty()) {
        st->result.ok = true;
        st->done(st->result);
        return;
    }
    st->pending = int(names.size());
    for (int i = 0; i < names.size(); ++i) {
        const QByteArray key = names[i].toUtf8();
        send({"TYPE", key}, [send, st, i, key](const RedisReply &r) {
            if (r.isError()) {
                st->result.keys[i].error = r.errorMessage();
                return st->keyDone();
            }
            const QByteArray type = r.str;
            st->result.keys[i].type = cell(type);
            send({"PTTL", key}, [send, st, i, key, type](const RedisReply &ttl) {
                // -1: no expiry, -2: no key; both leave ttlMs unset.
                if (ttl.isInteger() && ttl.integer >= 0)
                    st->result.keys[i].ttlMs = ttl.integer;
                readContent(send, st, i, key, type);
            });
        });
    }
}

} // namespace semscope::redis
