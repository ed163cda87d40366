// The raw view's Redis reads against a real redis-server: each type read as stored (string, hash,
// list, zset, set), TTLs, bounded windows on big collections ("first 200 of N"), a big string cut,
// server text escaped, a missing key, and RedisSemaphoreStore::readRawKeys on a `leased` semaphore.
// Nothing is written by the reads (the keyspace is compared before and after).
#include "RedisServer.h"
#include "TestMain.h"
#include "TestWait.h"
#include "redis/RawKeyReader.h"
#include "redis/RedisConnection.h"
#include "redis/RedisSemaphoreStore.h"

#include <QtTest>
#include <memory>

using namespace semscope;
using namespace semscope::redis;
using semscope::test::awaitCall;

class TestRawKeyReader : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void readsEachType_data();
    void readsEachType();
    void bigCollectionsAreWindowed_data();
    void bigCollectionsAreWindowed();
    void bigStringIsCut();
    void serverTextIsEscaped();
    void missingKeyAndTtl();
    void readsNothingElseAndWritesNothing();
    void storeReadsASemaphoresKeys();

private:
    RedisReply cmd(const QList<QByteArray> &args);
    core::RawKeys read(const QStringList &keys);
    RawKeyReader::Send sender();

    test::RedisServer m_server;
    std::unique_ptr<RedisConnection> m_conn;
    int m_sent = 0;
    QList<QByteArray> m_commands;        // every command name the reader sent
    QList<QList<QByteArray>> m_sentArgs; // and its arguments
};

void TestRawKeyReader::initTestCase() {
    QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
    m_conn = std::make_unique<RedisConnection>(m_server.settings());
    m_conn->open();
    QCOMPARE(cmd({"PING"}).str, QByteArray("PONG"));
    cmd({"SET", "raw:string", "hello world"});
    cmd({"HSET", "raw:hash", "a", "1", "b", "2"});
    cmd({"RPUSH", "raw:list", "x", "y", "z"});
    cmd({"ZADD", "raw:zset", "1700000000123", "worker-1", "1700000000456", "worker-2"});
    cmd({"SADD", "raw:set", "only"});
    QList<QByteArray> bigHash{"HSET", "raw:bighash"};
    QList<QByteArray> bigList{"RPUSH", "raw:biglist"};
    QList<QByteArray> bigZset{"ZADD", "raw:bigzset"};
    QList<QByteArray> bigSet{"SADD", "raw:bigset"};
    for (int i = 0; i < 1000; ++i) {
        const QByteArray n = QByteArray::number(i);
        bigHash << "f" + n << "v" + n;
        bigList << "e" + n;
        bigZset << n << "m" + n;
        bigSet << "s" + n;
    }
    for (const auto &c : {bigHash, bigList, bigZset, bigSet})
        QCOMPARE(cmd(c).type, RedisReply::Type::Integer);
}

RedisReply TestRawKeyReader::cmd(const QList<QByteArray> &args) {
    return awaitCall<RedisReply>([&](auto done) { m_conn->command(args, done); }).value_or(RedisReply::nil());
}

RawKeyReader::Send TestRawKeyReader::sender() {
    return [this](const QList<QByteArray> &args, RawKeyReader::ReplyCallback cb) {
        ++m_sent;
        m_commands << args.value(0).toUpper();
        m_sentArgs << args;
        m_conn->command(args, std::move(cb));
    };
}

core::RawKeys TestRawKeyReader::read(const QStringList &keys) {
    return awaitCall<core::RawKeys>([&](auto done) { RawKeyReader::read(sender(), keys, done); })
        .value_or(core::RawKeys{});
}

void TestRawKeyReader::readsEachType_data() {
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("type");
    QTest::addColumn<qint64>("length");
    QTest::addColumn<QStringList>("columns");
    QTest::addColumn<QString>("firstRow"); // cells joined by '|'
    QTest::addColumn<QString>("value");
    QTest::newRow("string") << "raw:string"
                            << "string" << qint64(11) << QStringList{} << QString() << "hello world";
    QTest::newRow("hash") << "raw:hash"
                          << "hash" << qint64(2) << QStringList{"field", "value"} << "a|1" << QString();
    QTest::newRow("list") << "raw:list"
                          << "list" << qint64(3) << QStringList{"index", "value"} << "0|x" << QString();
    QTest::newRow("zset") << "raw:zset"
                          << "zset" << qint64(2) << QStringList{"member", "score"} << "worker-1|1700000000123"
                          << QString();
    QTest::newRow("set") << "raw:set"
                         << "set" << qint64(1) << QStringList{"member"} << "only" << QString();
}

void TestRawKeyReader::readsEachType() {
    QFETCH(QString, key);
    QFETCH(QString, type);
    QFETCH(qint64, length);
    QFETCH(QStringList, columns);
    QFETCH(QString, firstRow);
    QFETCH(QString, value);
    const core::RawKeys r = read({key});
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.keys.size(), 1);
    const core::RawKey &k = r.keys.first();
    QCOMPARE(k.name, key);
    QCOMPARE(k.type, type);
    QVERIFY2(k.error.isEmpty(), qPrintable(k.error));
    QCOMPARE(k.length, length);
    QCOMPARE(k.columns, columns);
    QCOMPARE(k.value, value);
    if (!firstRow.isEmpty()) {
        QCOMPARE(k.rows.size(), length);
        QCOMPARE(k.rows.first().join(QLatin1Char('|')), firstRow);
    }
    QVERIFY(k.shownNote().isEmpty()); // everything shown
    QVERIFY(!k.ttlMs);
}

void TestRawKeyReader::bigCollectionsAreWindowed_data() {
    QTest::addColumn<QString>("key");
    QTest::newRow("hash") << "raw:bighash";
    QTest::newRow("list") << "raw:biglist";
    QTest::newRow("zset") << "raw:bigzset";
    QTest::newRow("set") << "raw:bigset";
}

void TestRawKeyReader::bigCollectionsAreWindowed() {
    QFETCH(QString, key);
    m_commands.clear();
    m_sentArgs.clear();
    const core::RawKeys r = read({key});
    QVERIFY2(r.ok, qPrintable(r.error));
    const core::RawKey &k = r.keys.first();
    QCOMPARE(k.length, qint64(1000));
    QCOMPARE(k.rows.size(), core::kRawMaxRows);
    QCOMPARE(k.shownNote(), QStringLiteral("first 200 of 1000 shown"));
    // Never the whole collection: no HGETALL/SMEMBERS, ranges end at the window, not at -1.
    QVERIFY(!m_commands.contains("HGETALL") && !m_commands.contains("SMEMBERS") &&
            !m_commands.contains("KEYS"));
    for (const auto &args : std::as_const(m_sentArgs)) {
        if (args.first() == "LRANGE" || args.first() == "ZRANGE")
            QCOMPARE(args.value(3), QByteArray::number(core::kRawMaxRows - 1));
    }
}

void TestRawKeyReader::bigStringIsCut() {
    const QByteArray big(200 * 1024, 'x');
    cmd({"SET", "raw:bigstring", big});
    const core::RawKeys r = read({"raw:bigstring"});
    const core::RawKey &k = r.keys.first();
    QCOMPARE(k.length, qint64(big.size()));
    // At most the read window, at most the shown characters, and it says so.
    QVERIFY(k.value.size() < core::kRawMaxValueChars + 200);
    QVERIFY2(k.value.contains(QLatin1String("cut")), qPrintable(k.value.right(120)));
}

void TestRawKeyReader::serverTextIsEscaped() {
    cmd({"HSET", "raw:evil", "f\x1b[2J", "line1\nline2\x07"});
    cmd({"SET", "raw:evilstring", "a\rb"});
    const core::RawKeys r = read({"raw:evil", "raw:evilstring"});
    QCOMPARE(r.keys.size(), 2);
    const QStringList row = r.keys[0].rows.first();
    QCOMPARE(row[0], QStringLiteral("f\\e[2J"));
    QCOMPARE(row[1], QStringLiteral("line1\\nline2\\x07"));
    QCOMPARE(r.keys[1].value, QStringLiteral("a\\rb"));
}

void TestRawKeyReader::missingKeyAndTtl() {
    cmd({"SET", "raw:expiring", "v", "PX", "60000"});
    const core::RawKeys r = read({"raw:missing", "raw:expiring", "raw:expiring"}); // duplicates read once
    QCOMPARE(r.keys.size(), 2);
    QCOMPARE(r.keys[0].type, QStringLiteral("none"));
    QVERIFY(r.keys[0].value.contains(QLatin1String("does not exist")));
    QVERIFY(!r.keys[0].ttlMs);
    QVERIFY(r.keys[1].ttlMs);
    QVERIFY(*r.keys[1].ttlMs > 0 && *r.keys[1].ttlMs <= 60000);
    QVERIFY(read({}).ok);
}

void TestRawKeyReader::readsNothingElseAndWritesNothing() {
    const qint64 dbsize = cmd({"DBSIZE"}).integer;
    const QByteArray digest = cmd({"DEBUG", "DIGEST"}).str;
    m_commands.clear();
    read({"raw:string", "raw:hash", "raw:biglist", "raw:bigzset", "raw:bigset", "raw:missing"});
    const QSet<QByteArray> readOnly{"TYPE",  "PTTL",   "STRLEN", "GETRANGE", "LLEN",  "LRANGE",
                                    "ZCARD", "ZRANGE", "HLEN",   "HSCAN",    "SCARD", "SSCAN"};
    for (const QByteArray &c : std::as_const(m_commands))
        QVERIFY2(readOnly.contains(c), c.constData());
    QCOMPARE(cmd({"DBSIZE"}).integer, dbsize);
    QCOMPARE(cmd({"DEBUG", "DIGEST"}).str, digest);
}

void TestRawKeyReader::storeReadsASemaphoresKeys() {
    RedisSemaphoreStore store(m_server.settings());
    core::SemaphoreRef ref;
    ref.kind = core::Kind::Leased;
    ref.name = QStringLiteral("raw-jobs");
    ref.profile.limit = 3;
    core::AcquireRequest req;
    req.holder = QStringLiteral("worker-17@node-4");
    req.ttlMs = 30000;
    const auto granted =
        awaitCall<core::AcquireResult>([&](auto done) { store.acquire(ref, req, {}, done); });
    QVERIFY(granted && granted->status == core::AcquireResult::Status::Granted);
    core::RawKeySource *source = &store; // what the GUI sees: the interface, not the backend
    const auto r = awaitCall<core::RawKeys>([&](auto done) { source->readRawKeys(ref, done); });
    QVERIFY(r && r->ok);
    const core::RawKey *holders = nullptr;
    const core::RawKey *meta = nullptr;
    for (const core::RawKey &k : r->keys) {
        if (k.name.endsWith(QLatin1String(":holders")))
            holders = &k;
        if (k.name.endsWith(QLatin1String(":meta")))
            meta = &k;
    }
    QVERIFY2(holders && meta, qPrintable(r->keys.isEmpty() ? QString() : r->keys.first().name));
    QCOMPARE(holders->type, QStringLiteral("zset"));
    QCOMPARE(holders->rows.size(), 1);
    QCOMPARE(holders->rows.first().first(), QStringLiteral("worker-17@node-4"));
    QCOMPARE(meta->type, QStringLiteral("hash"));
    bool limit = false;
    for (const QStringList &row : meta->rows)
        limit = limit || (row.value(0) == QLatin1String("limit") && row.value(1) == QLatin1String("3"));
    QVERIFY(limit);
}

SEMSCOPE_TEST_GUILESS_MAIN(TestRawKeyReader)
#include "tst_rawkeyreader.moc"
