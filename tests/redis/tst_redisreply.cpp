// The RESP side of the transport, on raw bytes (no server): ReplyReader (hiredis' redisReader with
// semscope's object functions), the command encoder (against hiredis' formatter), and the RedisReply
// helpers. Big and broken
// replies live here because a real server will not cut a reply in half on request.
#include "TestMain.h"
#include "redis/RedisReply.h"
#include "redis/transport/Hiredis.h"
#include "redis/transport/ReplyReader.h"
#include "redis/transport/RespEncoder.h"

#include <QRandomGenerator>
#include <QTest>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

using semscope::redis::encodeCommand;
using semscope::redis::RedisReply;
using semscope::redis::ReplyReader;
using Type = semscope::redis::RedisReply::Type;

Q_DECLARE_METATYPE(semscope::redis::RedisReply::Type)
Q_DECLARE_METATYPE(semscope::redis::RedisReply)

namespace {

// All replies in `bytes`, fed in pieces of `piece` bytes (0: all at once).
QList<RedisReply> parseAll(const QByteArray &bytes, qsizetype piece = 0, QString *error = nullptr) {
    ReplyReader parser;
    QList<RedisReply> out;
    const qsizetype step = piece > 0 ? piece : qMax<qsizetype>(1, bytes.size());
    for (qsizetype pos = 0; pos < bytes.size(); pos += step) {
        parser.feed(bytes.mid(pos, step));
        while (auto r = parser.next())
            out.append(*r);
    }
    if (error)
        *error = parser.errorString();
    return out;
}

// Plain appends: QStringBuilder copies byte by byte in unoptimised (sanitizer) builds, which
// makes a 64 MiB payload slow.
QByteArray bulk(const QByteArray &s) {
    QByteArray out;
    out.reserve(s.size() + 32);
    out.append('$').append(QByteArray::number(s.size())).append("\r\n").append(s).append("\r\n");
    return out;
}

int digits(int n) {
    int d = 1;
    while (n >= 10) {
        n /= 10;
        ++d;
    }
    return d;
}

} // namespace

class TestRedisReply : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void scalarReplies_data();
    void scalarReplies();
    void nestedArrays();
    void tooDeepNestingIsAProtocolError();
    void claimedSizesReserveNothing_data();
    void claimedSizesReserveNothing();
    void hostileStreamsAreProtocolErrors_data();
    void hostileStreamsAreProtocolErrors();
    void aStrangersFirstLineIsQuoted_data();
    void aStrangersFirstLineIsQuoted();
    void replyLimitIsConfigurable();
    void cutOffRepliesWaitForTheRest();
    void linesTrickledByteByByte();
    void arrayHoldsOnlyWhatArrived();
    void spareRoomAfterABigReplyIsReturned();
    void manySmallRepliesInOneFeedKeepOrder();
    void garbageIsAProtocolErrorAndResetRecovers();
    void halfBuiltRepliesAreDropped();
    void bulkString64MiB();
    void array1MillionElements();
    void encoderIsBinarySafe();
    void encoderMatchesHiredisOnRandomCommands();
    void numbers_data();
    void numbers();
    void describe();
};

void TestRedisReply::scalarReplies_data() {
    QTest::addColumn<QByteArray>("raw");
    QTest::addColumn<Type>("type");
    QTest::addColumn<QByteArray>("str");
    QTest::addColumn<qint64>("integer");

    QTest::newRow("status") << QByteArray("+OK\r\n") << Type::Status << QByteArray("OK") << qint64(0);
    QTest::newRow("error") << QByteArray("-WRONGTYPE Operation against a key\r\n") << Type::Error
                           << QByteArray("WRONGTYPE Operation against a key") << qint64(0);
    QTest::newRow("integer") << QByteArray(":42\r\n") << Type::Integer << QByteArray() << qint64(42);
    QTest::newRow("negative integer") << QByteArray(":-7\r\n") << Type::Integer << QByteArray() << qint64(-7);
    QTest::newRow("int64 max") << QByteArray(":9223372036854775807\r\n") << Type::Integer << QByteArray()
                               << std::numeric_limits<qint64>::max();
    QTest::newRow("bulk") << QByteArray("$3\r\nabc\r\n") << Type::String << QByteArray("abc") << qint64(0);
    QTest::newRow("empty bulk") << QByteArray("$0\r\n\r\n") << Type::String << QByteArray() << qint64(0);
    QTest::newRow("binary bulk") << QByteArray("$6\r\na\0\r\nb\xff\r\n", 12) << Type::String
                                 << QByteArray("a\0\r\nb\xff", 6) << qint64(0);
    QTest::newRow("nil bulk") << QByteArray("$-1\r\n") << Type::Nil << QByteArray() << qint64(0);
    QTest::newRow("nil array") << QByteArray("*-1\r\n") << Type::Nil << QByteArray() << qint64(0);
    QTest::newRow("empty array") << QByteArray("*0\r\n") << Type::Array << QByteArray() << qint64(0);
}

void TestRedisReply::scalarReplies() {
    QFETCH(QByteArray, raw);
    QFETCH(Type, type);
    QFETCH(QByteArray, str);
    QFETCH(qint64, integer);
    QString error;
    const auto replies = parseAll(raw, 0, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(replies.size(), 1);
    QCOMPARE(replies.at(0).type, type);
    QCOMPARE(replies.at(0).str, str);
    QCOMPARE(replies.at(0).integer, integer);
    QVERIFY(replies.at(0).elements.isEmpty());
}

void TestRedisReply::nestedArrays() {
    // [[1, "two", nil], [], [["deep", [-3]]], "tail"]
    const QByteArray raw = "*4\r\n"
                           "*3\r\n:1\r\n$3\r\ntwo\r\n$-1\r\n"
                           "*0\r\n"
                           "*1\r\n*2\r\n$4\r\ndeep\r\n*1\r\n:-3\r\n"
                           "+tail\r\n";
    for (const qsizetype piece : {qsizetype(0), qsizetype(1), qsizetype(5)}) {
        const auto replies = parseAll(raw, piece);
        QCOMPARE(replies.size(), 1);
        const RedisReply &r = replies.at(0);
        QVERIFY(r.isArray());
        QCOMPARE(r.elements.size(), 4);
        QCOMPARE(r.elements[0].elements.size(), 3);
        QCOMPARE(r.elements[0].elements[0].integer, 1);
        QCOMPARE(r.elements[0].elements[1].str, QByteArray("two"));
        QVERIFY(r.elements[0].elements[2].isNil());
        QVERIFY(r.elements[1].isArray());
        QCOMPARE(r.elements[1].elements.size(), 0);
        QCOMPARE(r.elements[2].elements[0].elements[0].str, QByteArray("deep"));
        QCOMPARE(r.elements[2].elements[0].elements[1].elements[0].integer, -3);
        QCOMPARE(r.elements[3].type, Type::Status);
        QCOMPARE(r.elements[3].str, QByteArray("tail"));
    }
}

void TestRedisReply::tooDeepNestingIsAProtocolError() {
    // Eight levels are allowed (as hiredis did); deeper must be an error, never a crash.
    QByteArray raw;
    for (int i = 0; i < 12; ++i)
        raw += "*1\r\n";
    raw += ":1\r\n";
    QString error;
    const auto replies = parseAll(raw, 0, &error);
    QVERIFY(replies.isEmpty());
    QVERIFY2(error.startsWith(QStringLiteral("protocol error:")), qPrintable(error));
}

void TestRedisReply::claimedSizesReserveNothing_data() {
    QTest::addColumn<QByteArray>("raw");
    // Headers that claim a lot and then wait: before, "*20000000" alone took 1.2 GB and seven
    // nested ones ran out of memory.
    QTest::newRow("20 million elements") << QByteArray("*20000000\r\n");
    QTest::newRow("7 nested claims") << QByteArray("*20000000\r\n").repeated(7);
    QTest::newRow("just under the limit's elements") << QByteArray("*170000000\r\n");
    QTest::newRow("just under the limit's bytes") << QByteArray("$536870000\r\n");
    QTest::newRow("100 MiB bulk, 3 bytes sent") << QByteArray("$104857600\r\nabc");
    QTest::newRow("claims inside an array") << QByteArray("*2\r\n:1\r\n*30000000\r\n*30000000\r\n");
}

void TestRedisReply::claimedSizesReserveNothing() {
    QFETCH(QByteArray, raw);
    ReplyReader parser;
    parser.feed(raw);
    QVERIFY(!parser.next().has_value());
    QVERIFY2(!parser.hasError(), qPrintable(parser.errorString()));
    QVERIFY2(parser.heldBytes() < 4096, qPrintable(QString::number(parser.heldBytes())));
}

void TestRedisReply::hostileStreamsAreProtocolErrors_data() {
    QTest::addColumn<QByteArray>("raw");
    QTest::addColumn<qint64>("limit");
    QTest::addColumn<QString>("error");
    constexpr qint64 kLimit = 1024 * 1024;
    QByteArray deep;
    for (int i = 0; i < 9; ++i)
        deep += "*1\r\n";
    QTest::newRow("9 nested arrays") << deep << kLimit << "arrays nested more than 8 deep";
    QTest::newRow("bulk over the limit")
        << QByteArray("$1048577\r\n") << kLimit << "a bulk string of 1048577 bytes (more than the 1 MiB";
    QTest::newRow("array that cannot fit")
        << QByteArray("*1000000\r\n") << kLimit << "an array of 1000000 elements (more than fit in the 1 MiB";
    QTest::newRow("elements past the limit")
        << QByteArray("*300000\r\n") + QByteArray(":1\r\n").repeated(300000) << kLimit
        << "reply larger than 1 MiB";
    QTest::newRow("endless status line")
        << "+" + QByteArray(kLimit + 10, 'a') << kLimit << "reply larger than 1 MiB";
    QTest::newRow("garbage bulk length")
        << QByteArray("$abc\r\n") << kLimit << "malformed bulk string length";
    QTest::newRow("garbage integer") << QByteArray(":12x\r\n") << kLimit << "malformed integer";
    QTest::newRow("empty integer") << QByteArray(":\r\n") << kLimit << "malformed integer";
    QTest::newRow("overflowing array length")
        << QByteArray("*99999999999999999999\r\n") << kLimit << "malformed array length";
    // hiredis refuses these itself, before any object function is called.
    QTest::newRow("int32-wrapping array length")
        << QByteArray("*4294967297\r\n") << kLimit
        << "array length out of range (below -1, the nil array, or above 2147483647)";
    QTest::newRow("negative bulk length")
        << QByteArray("$-5\r\n") << kLimit << "negative bulk string length (below -1, the nil string)";
    QTest::newRow("negative array length")
        << QByteArray("*-2\r\n") << kLimit << "array length out of range (below -1";
    QTest::newRow("bulk without CRLF")
        << QByteArray("$3\r\nabcXY") << kLimit << "a bulk string of 3 bytes is not followed by CRLF";
    QTest::newRow("length line without end")
        << QByteArray("$") + QByteArray(40, '1') << kLimit << "a length or integer line longer than 21 bytes";
    QTest::newRow("RESP3 map") << QByteArray("%1\r\n+a\r\n+b\r\n") << kLimit << "RESP3 reply type '%'";
    QTest::newRow("RESP3 double") << QByteArray(",3.14\r\n") << kLimit << "RESP3 reply type ','";
    QTest::newRow("RESP3 null") << QByteArray("_\r\n") << kLimit << "RESP3 reply type '_'";
    QTest::newRow("CR where a reply should start")
        << QByteArray("\r\n") << kLimit << "byte 0x0d where a reply";
    // The claims of the table, against the default limit: refused from the header alone.
    QTest::newRow("array of INT_MAX elements")
        << QByteArray("*2147483647\r\n") << ReplyReader::kDefaultMaxReplyBytes
        << "an array of 2147483647 elements (more than fit in the 512 MiB limit for one reply)";
    QTest::newRow("bulk claim above 4 GiB")
        << QByteArray("$4294967297\r\n") << ReplyReader::kDefaultMaxReplyBytes
        << "a bulk string of 4294967297 bytes (more than the 512 MiB limit for one reply)";
    QTest::newRow("claims nested under an array")
        << QByteArray("*2\r\n*1\r\n$2000000\r\n") << kLimit << "a bulk string of 2000000 bytes";
    QTest::newRow("endless error line")
        << "-" + QByteArray(kLimit + 10, '\r') << kLimit << "reply larger than 1 MiB";
    QTest::newRow("binary garbage") << QByteArray("\x00\xff\x13", 3) << kLimit << "byte 0x00 where a reply";
}

void TestRedisReply::hostileStreamsAreProtocolErrors() {
    QFETCH(QByteArray, raw);
    QFETCH(qint64, limit);
    QFETCH(QString, error);
    ReplyReader parser(limit);
    // As a socket delivers it: the error must come as soon as it is certain, not at the end.
    for (qsizetype pos = 0; pos < raw.size() && !parser.hasError(); pos += 64 * 1024) {
        parser.feed(raw.mid(pos, 64 * 1024));
        while (parser.next()) {
        }
        QVERIFY(parser.heldBytes() <= limit + 64 * 1024);
    }
    QVERIFY(parser.hasError());
    QVERIFY2(parser.errorString().startsWith(QStringLiteral("protocol error: ") + error),
             qPrintable(parser.errorString()));
    QCOMPARE(parser.heldBytes(), 0); // the half-built reply is gone at once
}

void TestRedisReply::aStrangersFirstLineIsQuoted_data() {
    QTest::addColumn<QByteArray>("raw");
    QTest::addColumn<QString>("error");
    const QString stranger =
        QStringLiteral("protocol error: byte 0x%1 where a reply should start; the server "
                       "said \"%2\", so it is not a Redis server");
    QTest::newRow("an HTTP server") << QByteArray("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
                                    << stranger.arg(QStringLiteral("48"),
                                                    QStringLiteral("HTTP/1.1 400 Bad Request"));
    QTest::newRow("an SSH server") << QByteArray("SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3\r\n")
                                   << stranger.arg(QStringLiteral("53"),
                                                   QStringLiteral("SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3"));
    QTest::newRow("a line without its end yet")
        << QByteArray("<!DOCTYPE HTML>")
        << stranger.arg(QStringLiteral("3c"), QStringLiteral("<!DOCTYPE HTML>"));
    QTest::newRow("a long first line is cut")
        << QByteArray("Welcome ") + QByteArray(200, 'x') + "\r\n"
        << stranger.arg(QStringLiteral("57"),
                        QStringLiteral("Welcome ") + QString(52, QLatin1Char('x')) + QChar(0x2026));
    // Not text: nothing is quoted (a terminal must not receive it).
    QTest::newRow("control bytes in the first line")
        << QByteArray("HTTP\x1b[2J\r\n")
        << QStringLiteral("protocol error: byte 0x48 where a reply should start");
    QTest::newRow("binary") << QByteArray("\x16\x03\x01\x00", 4)
                            << QStringLiteral("protocol error: byte 0x16 where a reply should start");
    // A server that answered in RESP first is a Redis that went wrong later, not a stranger.
    QTest::newRow("garbage after a good reply")
        << QByteArray("+OK\r\nHTTP/1.1 400 Bad Request\r\n")
        << QStringLiteral("protocol error: byte 0x48 where a reply should start");
}

void TestRedisReply::aStrangersFirstLineIsQuoted() {
    QFETCH(QByteArray, raw);
    QFETCH(QString, error);
    ReplyReader parser;
    parser.feed(raw); // as one read delivers it
    while (parser.next()) {
    }
    QCOMPARE(parser.errorString(), error);
    // A new connection starts afresh: its own first line is what counts.
    parser.reset();
    parser.feed("+PONG\r\n");
    QVERIFY(parser.next().has_value());
    QVERIFY(!parser.hasError());
}

void TestRedisReply::replyLimitIsConfigurable() {
    // Exactly at the limit is fine, one byte more is not.
    const QByteArray payload(1000, 'x');
    ReplyReader parser(1000 + qint64(sizeof(RedisReply)));
    parser.feed(bulk(payload));
    const auto reply = parser.next();
    QVERIFY2(reply.has_value(), qPrintable(parser.errorString()));
    QCOMPARE(reply->str, payload);
    parser.feed(bulk(payload + 'y'));
    QVERIFY(!parser.next().has_value());
    QVERIFY(parser.hasError());
    QCOMPARE(ReplyReader().maxReplyBytes(), 512LL * 1024 * 1024);
}

void TestRedisReply::cutOffRepliesWaitForTheRest() {
    const QByteArray raw = "*3\r\n$5\r\nhello\r\n:12345\r\n*2\r\n+OK\r\n-ERR no\r\n";
    // Every prefix is incomplete: no reply, no error. The rest completes it.
    for (qsizetype cut = 0; cut < raw.size(); ++cut) {
        ReplyReader parser;
        parser.feed(raw.left(cut));
        QVERIFY2(!parser.next().has_value(), qPrintable(QStringLiteral("cut at %1").arg(cut)));
        QVERIFY(!parser.hasError());
        parser.feed(raw.mid(cut));
        const auto reply = parser.next();
        QVERIFY(reply.has_value());
        QCOMPARE(reply->elements.size(), 3);
        QCOMPARE(reply->elements[0].str, QByteArray("hello"));
        QCOMPARE(reply->elements[1].integer, 12345);
        QCOMPARE(reply->elements[2].elements[1].type, Type::Error);
        QVERIFY(!parser.next().has_value());
        QCOMPARE(parser.bufferedBytes(), 0);
    }
}

void TestRedisReply::linesTrickledByteByByte() {
    // A long status line and an integer arriving one byte at a time: the reader waits for each
    // line's CRLF without handing hiredis the same bytes again, and then reads both whole.
    const QByteArray status(100000, 's');
    const QByteArray raw = "+" + status + "\r\n:-9223372036854775808\r\n$5\r\nhello\r\n";
    const auto replies = parseAll(raw, 1);
    QCOMPARE(replies.size(), 3);
    QCOMPARE(replies.at(0).type, Type::Status);
    QVERIFY(replies.at(0).str == status);
    QCOMPARE(replies.at(1).integer, std::numeric_limits<qint64>::min());
    QCOMPARE(replies.at(2).str, QByteArray("hello"));
}

void TestRedisReply::arrayHoldsOnlyWhatArrived() {
    // A header claiming 20 million elements followed by 1000 of them: the reply holds what came (at
    // most one element per three bytes), never room for the claim.
    const QByteArray elements = QByteArray(":1\r\n").repeated(1000);
    ReplyReader reader;
    reader.feed("*20000000\r\n" + elements);
    QVERIFY(!reader.next().has_value());
    QVERIFY2(!reader.hasError(), qPrintable(reader.errorString()));
    const qint64 bound = (elements.size() / 3 + 2) * qint64(sizeof(RedisReply));
    QVERIFY2(reader.heldBytes() <= bound,
             qPrintable(QStringLiteral("%1 > %2").arg(reader.heldBytes()).arg(bound)));
    // The same elements, the whole array at once: complete, nothing left over.
    reader.reset();
    reader.feed("*1000\r\n" + elements);
    const auto reply = reader.next();
    QVERIFY(reply.has_value());
    QCOMPARE(reply->elements.size(), 1000);
    QCOMPARE(reader.heldBytes(), 0);
}

void TestRedisReply::spareRoomAfterABigReplyIsReturned() {
    // A 16 MiB bulk string followed by the start of the next reply in the same read: once the big
    // one is read, hiredis' buffer gives its room back instead of keeping it for the small rest.
    const QByteArray payload(16 * 1024 * 1024, 'p');
    ReplyReader reader;
    const QByteArray raw = bulk(payload);
    for (const QByteArray &piece : QList<QByteArray>{raw.left(1000), QByteArray(raw.mid(1000) + "+aft")}) {
        reader.feed(piece);
        while (const auto reply = reader.next())
            QCOMPARE(reply->str.size(), payload.size());
    }
    QVERIFY2(!reader.hasError(), qPrintable(reader.errorString()));
    QVERIFY(reader.bufferedBytes() <= 4); // "+aft", or "aft" once hiredis has read the type byte
    QVERIFY2(reader.bufferCapacity() <= ReplyReader::kMaxSpareBuffer,
             qPrintable(QString::number(reader.bufferCapacity())));
    reader.feed("er\r\n");
    QCOMPARE(reader.next()->str, QByteArray("after"));
}

void TestRedisReply::manySmallRepliesInOneFeedKeepOrder() {
    constexpr int kCount = 200000;
    QByteArray raw;
    for (int i = 0; i < kCount; ++i)
        raw += ':' + QByteArray::number(i) + "\r\n";
    const auto replies = parseAll(raw);
    QCOMPARE(replies.size(), kCount);
    for (int i = 0; i < kCount; ++i) {
        if (replies.at(i).integer != i)
            QFAIL(qPrintable(QStringLiteral("reply %1 is %2").arg(i).arg(replies.at(i).integer)));
    }
}

void TestRedisReply::garbageIsAProtocolErrorAndResetRecovers() {
    ReplyReader parser;
    parser.feed("+OK\r\nhello world\r\n+LATER\r\n");
    const auto first = parser.next();
    QVERIFY(first.has_value());
    QCOMPARE(first->str, QByteArray("OK"));
    QVERIFY(!parser.next().has_value());
    QVERIFY(parser.hasError());
    QVERIFY2(parser.errorString().startsWith(QStringLiteral("protocol error:")),
             qPrintable(parser.errorString()));
    // Broken stays broken (the stream cannot be trusted) until reset.
    parser.feed("+OK\r\n");
    QVERIFY(!parser.next().has_value());
    parser.reset();
    QVERIFY(!parser.hasError());
    parser.feed("+OK\r\n");
    QCOMPARE(parser.next()->str, QByteArray("OK"));
}

void TestRedisReply::halfBuiltRepliesAreDropped() {
    // A connection that drops mid-reply resets (or destroys) its parser with part of a nested
    // array built; the sanitizer run checks that nothing of it leaks.
    {
        ReplyReader parser;
        parser.feed("*3\r\n*2\r\n$3\r\nabc\r\n:7\r\n*1\r\n");
        QVERIFY(!parser.next().has_value());
        parser.reset();
        QCOMPARE(parser.bufferedBytes(), 0);
        parser.feed("*1\r\n:1\r\n");
        QCOMPARE(parser.next()->elements.at(0).integer, 1);
        parser.feed("*2\r\n$5\r\nhello\r\n");
        QVERIFY(!parser.next().has_value());
    } // destroyed with a half-built array inside
    ReplyReader broken;
    broken.feed("*2\r\n:1\r\n?what\r\n");
    QVERIFY(!broken.next().has_value());
    QVERIFY(broken.hasError());
}

void TestRedisReply::bulkString64MiB() {
    constexpr qsizetype kSize = 64 * 1024 * 1024;
    // A 4093-byte block (prime, so it never lines up with read or slice sizes) repeated: a lost,
    // doubled or shifted piece anywhere changes the result.
    QByteArray block(4093, Qt::Uninitialized);
    for (qsizetype i = 0; i < block.size(); ++i)
        block[i] = char(i * 131 % 251);
    const QByteArray payload = block.repeated(kSize / block.size() + 1).left(kSize);
    QByteArray raw = bulk(payload);
    raw.append("+after\r\n");
    // As a socket delivers it (64 KiB reads), and as one big read.
    for (const qsizetype piece : {qsizetype(64 * 1024), qsizetype(0)}) {
        const auto replies = parseAll(raw, piece);
        QCOMPARE(replies.size(), 2);
        QCOMPARE(replies.at(0).type, Type::String);
        QCOMPARE(replies.at(0).str.size(), kSize);
        QVERIFY(replies.at(0).str == payload);
        QCOMPARE(replies.at(1).str, QByteArray("after"));
    }
}

void TestRedisReply::array1MillionElements() {
    // Integers and bulk strings mixed, written and checked without a temporary per element (the
    // sanitizer build pays for every allocation).
    constexpr int kCount = 1000000;
    QByteArray raw;
    raw.reserve(kCount * 16);
    raw.append("*1000000\r\n");
    char line[64];
    for (int i = 0; i < kCount; ++i) {
        const int n = i % 3 == 0 ? std::snprintf(line, sizeof line, ":%d\r\n", i)
                                 : std::snprintf(line, sizeof line, "$%d\r\nm%d\r\n", digits(i) + 1, i);
        raw.append(line, n);
    }
    const auto replies = parseAll(raw, 64 * 1024);
    QCOMPARE(replies.size(), 1);
    const RedisReply &r = replies.at(0);
    QVERIFY(r.isArray());
    QCOMPARE(r.elements.size(), kCount);
    for (int i = 0; i < kCount; ++i) {
        const RedisReply &e = r.elements.at(i);
        bool ok = false;
        if (i % 3 == 0) {
            ok = e.type == Type::Integer && e.integer == i;
        } else if (e.type == Type::String && e.str.size() > 1 && e.str.at(0) == 'm') {
            int value = -1;
            const auto [end, ec] =
                std::from_chars(e.str.constData() + 1, e.str.constData() + e.str.size(), value);
            ok = ec == std::errc() && end == e.str.constData() + e.str.size() && value == i;
        }
        if (!ok)
            QFAIL(qPrintable(QStringLiteral("element %1 is %2").arg(i).arg(e.describe())));
    }
}

void TestRedisReply::encoderIsBinarySafe() {
    QCOMPARE(encodeCommand({"SET", "key", QByteArray("v\0\r\n", 4)}),
             QByteArray("*3\r\n$3\r\nSET\r\n$3\r\nkey\r\n$4\r\nv\0\r\n\r\n", 32));
    QCOMPARE(encodeCommand({"GET", ""}), QByteArray("*2\r\n$3\r\nGET\r\n$0\r\n\r\n"));
    // What we encode, the reader reads back as an array of the same strings.
    const QList<QByteArray> args = {"EVALSHA", QByteArray(1000, 'x'), "0", QByteArray("\xff\x00", 2)};
    const auto replies = parseAll(encodeCommand(args));
    QCOMPARE(replies.size(), 1);
    QCOMPARE(replies.at(0).elements.size(), args.size());
    for (qsizetype i = 0; i < args.size(); ++i)
        QCOMPARE(replies.at(0).elements.at(i).str, args.at(i));
}

void TestRedisReply::encoderMatchesHiredisOnRandomCommands() {
    // semscope keeps its own encoder for speed (README, "Performance"); its bytes must be exactly
    // hiredis' redisFormatCommandArgv's. Lengths near each digit boundary, empty arguments and any
    // bytes at all, from a fixed seed so a failure can be replayed.
    QRandomGenerator random(20261128);
    const QList<qsizetype> boundaries = {0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 9999, 10000, 65536};
    for (int round = 0; round < 3000; ++round) {
        QList<QByteArray> args(random.bounded(round < 20 ? round + 1 : 16));
        for (QByteArray &arg : args) {
            const qsizetype size = random.bounded(4) == 0
                                       ? boundaries.at(random.bounded(int(boundaries.size())))
                                       : random.bounded(200);
            arg.resize(size);
            for (char &c : arg)
                c = char(random.bounded(256));
        }
        std::vector<const char *> argv;
        std::vector<size_t> argvlen;
        for (const QByteArray &arg : args) {
            argv.push_back(arg.constData());
            argvlen.push_back(size_t(arg.size()));
        }
        char *formatted = nullptr;
        const int length = redisFormatCommandArgv(&formatted, int(args.size()), argv.data(), argvlen.data());
        QVERIFY(length >= 0 && formatted);
        const QByteArray expected(formatted, length);
        std::free(formatted);
        if (encodeCommand(args) != expected)
            QFAIL(qPrintable(
                QStringLiteral("round %1: %2 arguments differ from hiredis").arg(round).arg(args.size())));
    }
}

void TestRedisReply::numbers_data() {
    QTest::addColumn<RedisReply>("reply");
    QTest::addColumn<bool>("hasInteger");
    QTest::addColumn<qint64>("integer");
    QTest::addColumn<bool>("hasDouble");
    QTest::addColumn<double>("number");

    QTest::newRow("integer") << RedisReply::integerReply(-5) << true << qint64(-5) << true << -5.0;
    QTest::newRow("decimal string") << RedisReply::string("1700000000123") << true << qint64(1700000000123)
                                    << true << 1700000000123.0;
    QTest::newRow("float string") << RedisReply::string("2.5") << false << qint64(0) << true << 2.5;
    QTest::newRow("inf") << RedisReply::string("inf") << false << qint64(0) << true
                         << std::numeric_limits<double>::infinity();
    QTest::newRow("-inf") << RedisReply::string("-inf") << false << qint64(0) << true
                          << -std::numeric_limits<double>::infinity();
    QTest::newRow("text") << RedisReply::string("abc") << false << qint64(0) << false << 0.0;
    QTest::newRow("empty") << RedisReply::string("") << false << qint64(0) << false << 0.0;
    QTest::newRow("nil") << RedisReply::nil() << false << qint64(0) << false << 0.0;
    QTest::newRow("error") << RedisReply::error("ERR 5") << false << qint64(0) << false << 0.0;
}

void TestRedisReply::numbers() {
    QFETCH(RedisReply, reply);
    QFETCH(bool, hasInteger);
    QFETCH(qint64, integer);
    QFETCH(bool, hasDouble);
    QFETCH(double, number);
    QCOMPARE(reply.toInteger().has_value(), hasInteger);
    if (hasInteger)
        QCOMPARE(*reply.toInteger(), integer);
    QCOMPARE(reply.toDouble().has_value(), hasDouble);
    if (hasDouble)
        QCOMPARE(*reply.toDouble(), number);
}

void TestRedisReply::describe() {
    QCOMPARE(RedisReply::nil().describe(), QStringLiteral("(nil)"));
    QCOMPARE(RedisReply::integerReply(3).describe(), QStringLiteral("(integer) 3"));
    QCOMPARE(RedisReply::string("abc").describe(), QStringLiteral("\"abc\""));
    RedisReply ok;
    ok.type = Type::Status;
    ok.str = "OK";
    QCOMPARE(ok.describe(), QStringLiteral("OK"));
    RedisReply array;
    array.type = Type::Array;
    array.elements = {RedisReply::nil(), RedisReply::nil(), RedisReply::nil()};
    QCOMPARE(array.describe(), QStringLiteral("[3 elements]"));
    QVERIFY(RedisReply::transportError(QStringLiteral("x")).isError());
    QVERIFY(RedisReply::transportError(QStringLiteral("x")).isTransportError());
    QVERIFY(!RedisReply::transportError(QStringLiteral("x")).isServerError());
    QVERIFY(RedisReply::error("ERR").isServerError());
    QVERIFY(RedisReply::string(QByteArray(1000, 'x')).describe().size() < 100);
}

SEMSCOPE_TEST_GUILESS_MAIN(TestRedisReply)
#include "tst_redisreply.moc"
