// File → Open key…: the kind a key most likely is, from its type and a small sample (issue 31
// item 2). The keys that need opening have names that say nothing, so the guess never rests on
// the name alone.
#include "TestMain.h"
#include "redis/KindGuess.h"

#include <QTest>

using namespace semscope::core;
using namespace semscope::redis;

namespace {
const qint64 kNowMs = 1'790'000'000'000LL;

QByteArray ms(qint64 v) {
    return QByteArray::number(v);
}
} // namespace

class TestKindGuess : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void guessesFromTypeAndShape_data() {
        QTest::addColumn<QByteArray>("key");
        QTest::addColumn<QByteArray>("type");
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<qint64>("pttl");
        QTest::addColumn<QList<QByteArray>>("members");
        QTest::addColumn<QList<QByteArray>>("values");
        QTest::addColumn<QString>("kind"); // empty: no guess
        QTest::addColumn<QString>("name");
        const QList<QByteArray> none;
        QTest::newRow("redis-py lock: uuid hex, TTL")
            << QByteArray("invoice-run") << QByteArray("string")
            << QByteArray("9f1c2e7a4b3d4f6e8a1b2c3d4e5f6a7b") << qint64(600000) << none << none
            << QStringLiteral("lock") << QStringLiteral("invoice-run");
        QTest::newRow("uuid with dashes, no TTL")
            << QByteArray("nightly") << QByteArray("string")
            << QByteArray("0f8fad5b-d9cb-469f-a165-70867728950e") << qint64(-1) << none << none
            << QStringLiteral("lock") << QStringLiteral("nightly");
        QTest::newRow("any token with a TTL")
            << QByteArray("deploy") << QByteArray("string") << QByteArray("host-7:4242") << qint64(3000)
            << none << none << QStringLiteral("lock") << QStringLiteral("deploy");
        QTest::newRow("integer without TTL: Redisson permits")
            << QByteArray("permits") << QByteArray("string") << QByteArray("3") << qint64(-1) << none << none
            << QStringLiteral("redisson-semaphore") << QStringLiteral("permits");
        QTest::newRow("node mutex") << QByteArray("mutex:cron") << QByteArray("string") << QByteArray("abc")
                                    << qint64(5000) << none << none << QStringLiteral("node-mutex")
                                    << QStringLiteral("cron");
        QTest::newRow("zset of expiry times")
            << QByteArray("workers") << QByteArray("zset") << QByteArray() << qint64(-1)
            << QList<QByteArray>{"a", "b"} << QList<QByteArray>{ms(kNowMs + 5000), ms(kNowMs + 9000)}
            << QStringLiteral("zset") << QStringLiteral("workers");
        QTest::newRow("node semaphore: past ms and a key TTL")
            << QByteArray("semaphore:uploads") << QByteArray("zset") << QByteArray() << qint64(10000)
            << QList<QByteArray>{"a"} << QList<QByteArray>{ms(kNowMs - 2000)}
            << QStringLiteral("node-semaphore") << QStringLiteral("uploads");
        QTest::newRow("fair owner zset") << QByteArray("printers:owner") << QByteArray("zset") << QByteArray()
                                         << qint64(-1) << QList<QByteArray>{"a"} << QList<QByteArray>{"1"}
                                         << QStringLiteral("fair") << QStringLiteral("printers");
        QTest::newRow("leased holders")
            << QByteArray("{jobs}:holders") << QByteArray("zset") << QByteArray() << qint64(-1)
            << QList<QByteArray>{"a"} << QList<QByteArray>{ms(kNowMs + 1000)} << QStringLiteral("leased")
            << QStringLiteral("jobs");
        QTest::newRow("leaderboard zset")
            << QByteArray("scores") << QByteArray("zset") << QByteArray() << qint64(-1)
            << QList<QByteArray>{"ann"} << QList<QByteArray>{"12"} << QString() << QStringLiteral("scores");
        QTest::newRow("redisson lock hash")
            << QByteArray("orders") << QByteArray("hash") << QByteArray() << qint64(30000)
            << QList<QByteArray>{"0f8fad5b-d9cb-469f-a165-70867728950e:57"} << QList<QByteArray>{"1"}
            << QStringLiteral("redisson-lock") << QStringLiteral("orders");
        QTest::newRow("plain hash") << QByteArray("user:1") << QByteArray("hash") << QByteArray()
                                    << qint64(-1) << QList<QByteArray>{"name"} << QList<QByteArray>{"ann"}
                                    << QString() << QStringLiteral("user:1");
        QTest::newRow("slots list") << QByteArray("db|list") << QByteArray("list") << QByteArray()
                                    << qint64(-1) << QList<QByteArray>{"1", "2"} << none
                                    << QStringLiteral("slots") << QStringLiteral("db");
        QTest::newRow("slots map") << QByteArray("db|map") << QByteArray("hash") << QByteArray() << qint64(-1)
                                   << QList<QByteArray>{"w1"} << QList<QByteArray>{"3"}
                                   << QStringLiteral("slots") << QStringLiteral("db");
        QTest::newRow("plain list") << QByteArray("queue") << QByteArray("list") << QByteArray() << qint64(-1)
                                    << QList<QByteArray>{"x"} << none << QString() << QStringLiteral("queue");
        QTest::newRow("set") << QByteArray("members") << QByteArray("set") << QByteArray() << qint64(-1)
                             << QList<QByteArray>{"x"} << none << QString() << QStringLiteral("members");
        QTest::newRow("missing key") << QByteArray("gone") << QByteArray("none") << QByteArray() << qint64(-2)
                                     << none << none << QString() << QStringLiteral("gone");
    }
    void guessesFromTypeAndShape() {
        QFETCH(QByteArray, key);
        QFETCH(QByteArray, type);
        QFETCH(QByteArray, value);
        QFETCH(qint64, pttl);
        QFETCH(QList<QByteArray>, members);
        QFETCH(QList<QByteArray>, values);
        QFETCH(QString, kind);
        QFETCH(QString, name);
        KeyFingerprint fp;
        fp.key = key;
        fp.type = type;
        fp.value = value;
        fp.pttl = pttl;
        fp.members = members;
        fp.values = values;
        const KindGuess guess = guessKind(fp, kNowMs);
        QCOMPARE(guess.kind ? kindName(*guess.kind) : QString(), kind);
        QCOMPARE(guess.name, name);
        QVERIFY2(!guess.reason.isEmpty(), "every guess says why, and so does every refusal");
    }

    // The dialog reads the key through the raw view's bounded reader; its rows become the sample.
    void rawKeyBecomesAFingerprint() {
        RawKey zset;
        zset.name = QStringLiteral("workers");
        zset.type = QStringLiteral("zset");
        zset.ttlMs = 1500;
        zset.length = 2;
        zset.columns = {QStringLiteral("member"), QStringLiteral("score")};
        zset.rows = {{QStringLiteral("a"), QString::number(kNowMs + 5000)}};
        const KeyFingerprint fp = fingerprintOf(zset);
        QCOMPARE(fp.key, QByteArray("workers"));
        QCOMPARE(fp.type, QByteArray("zset"));
        QCOMPARE(fp.pttl, 1500);
        QCOMPARE(fp.members, QList<QByteArray>{"a"});
        QCOMPARE(fp.values, QList<QByteArray>{QByteArray::number(kNowMs + 5000)});
        QCOMPARE(guessKind(fp, kNowMs).kind, std::optional(Kind::Zset));

        RawKey list;
        list.name = QStringLiteral("db|list");
        list.type = QStringLiteral("list");
        list.rows = {{QStringLiteral("0"), QStringLiteral("1")}};
        QCOMPARE(fingerprintOf(list).members, QList<QByteArray>{"1"});
        QCOMPARE(fingerprintOf(list).pttl, -1); // no TTL

        RawKey gone;
        gone.name = QStringLiteral("x");
        gone.type = QStringLiteral("none");
        QCOMPARE(fingerprintOf(gone).pttl, -2);
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestKindGuess)
#include "tst_kindguess.moc"
