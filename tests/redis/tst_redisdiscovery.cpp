// Discovery against a real redis-server: SCAN pages (names, then ZSETs and hashes) + bounded samples, grouped
// by the recognition rules. The large case (10,000 semaphores among 1,000,000 keys) runs as its own ctest
// entry, tst_redisdiscovery_large, labelled `slow`.
#include "SeedKindTest.h"
#include "TestMain.h"
#include "redis/RedisDiscovery.h"

#include <QElapsedTimer>
#include <QRegularExpression>
#include <QtTest>

using namespace semscope;
using namespace semscope::redis;

namespace {

struct Walk {
    core::DiscoverResult result;
    QList<core::DiscoverProgress> progress;
    bool answered = false;
    int doneCalls = 0;
};

const core::DiscoveredSemaphore *findByName(const QList<core::DiscoveredSemaphore> &all,
                                            const QString &name) {
    for (const auto &d : all) {
        if (d.ref.name == name)
            return &d;
    }
    return nullptr;
}

// Creates `count` semaphores of three seed layouts in one script (a third each).
const QByteArray kPopulateSemaphores = R"LUA(
local t = redis.call('TIME')
local s = tonumber(t[1])
for i = 1, tonumber(ARGV[1]) do
    local m = i % 3
    if m == 0 then
        redis.call('RPUSH', 'slots:' .. i .. '|list', 2, 3)
        redis.call('HSET', 'slots:' .. i .. '|map', 'h' .. i, 1)
    elseif m == 1 then
        redis.call('ZADD', 'zsem:' .. i, s * 1000 + 600000, 'h' .. i)
    else
        redis.call('ZADD', 'fair:' .. i, s, 'h' .. i)
        redis.call('ZADD', 'fair:' .. i .. ':owner', 1, 'h' .. i)
        redis.call('SET', 'fair:' .. i .. ':counter', 1)
    end
end
return 1
)LUA";

} // namespace

class TestRedisDiscovery : public QObject {
    Q_OBJECT

private:
    test::RedisServer m_server;
    std::unique_ptr<RedisConnection> m_conn;

    RedisReply cmd(const QList<QByteArray> &args) { return m_server.command(args); }

    Walk discover(const core::DiscoverRequest &request, core::Cancellation cancel = {}, int timeoutMs = 60000,
                  std::function<void(const core::DiscoverProgress &)> onProgress = {}) {
        auto walk = std::make_shared<Walk>();
        discoverSemaphores(
            *m_conn, request, cancel,
            [walk, onProgress](core::DiscoverProgress p) {
                if (onProgress)
                    onProgress(p);
                walk->progress << p;
            },
            [walk](core::DiscoverResult r) {
                walk->result = r;
                walk->answered = true;
                ++walk->doneCalls;
            });
        test::waitFor([walk] { return walk->answered; }, timeoutMs);
        return *walk;
    }

    static QList<core::DiscoveredSemaphore> foundInProgress(const Walk &walk) {
        QList<core::DiscoveredSemaphore> all;
        for (const auto &p : walk.progress)
            all << p.found;
        return all;
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        m_conn = std::make_unique<RedisConnection>(m_server.settings());
        m_conn->open();
    }
    void init() { cmd({"FLUSHALL"}); }
    void cleanupTestCase() {
        m_conn.reset();
        m_server.stop();
    }

    void recognisesEveryLayoutAmongData() {
        const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
        const QByteArray nowS = QByteArray::number(nowMs / 1000);
        // Semaphores, as their clients leave them.
        cmd({"RPUSH", "jobs|list", "2", "3"});
        cmd({"HSET", "jobs|map", "10.0.0.1", "1"});
        cmd({"ZADD", "semname", nowS, "a"});
        cmd({"ZADD", "semname:owner", "1", "a"});
        cmd({"SET", "semname:counter", "1"});
        cmd({"ZADD", "semaphore:acquire", QByteArray::number(nowMs + 30000), "u1"});
        cmd({"SET", "perm", "2"});
        cmd({"ZADD", "{perm}:timeout", QByteArray::number(nowMs + 30000),
             QByteArray::fromHex("00112233445566778899aabbccddeeff")});
        cmd({"HSET", "rlock", "0f8fad5b-d9cb-469f-a165-70867728950e:1", "1"});
        cmd({"PEXPIRE", "rlock", "30000"});
        cmd({"SET", "mutex:m", "id", "PX", "30000"});
        cmd({"ZADD", "semaphore:pool", QByteArray::number(nowMs - 100), "id"});
        cmd({"PEXPIRE", "semaphore:pool", "10000"});
        cmd({"ZADD", "{own}:holders", QByteArray::number(nowMs + 30000), "h"});
        cmd({"HSET", "{own}:meta", "limit", "3"});
        cmd({"SET", "rsem", "4"});
        // Malformed ones: listed, with warnings.
        cmd({"RPUSH", "bad|list", "1"});
        cmd({"SET", "bad|map", "oops"});
        cmd({"ZADD", "broken", nowS, "a"});
        cmd({"ZADD", "broken:owner", "1", "a"});
        cmd({"SET", "broken:counter", QByteArray(10 << 20, 'x')});
        // Data that is not a semaphore.
        for (int i = 0; i < 500; ++i)
            cmd({"SET", "cache:" + QByteArray::number(i), "v"});
        cmd({"HSET", "user:1", "name", "ann"});
        cmd({"ZADD", "leaderboard", "12", "ann", "40", "bob"});
        cmd({"LPUSH", "queue", "job"});
        // A Redisson client waiting on rsem makes its channel visible.
        RedisConnection waiter(m_server.settings());
        waiter.open();
        bool subscribed = false;
        waiter.subscribe(
            "redisson_sc:{rsem}", [](const QByteArray &) {}, [&subscribed] { subscribed = true; });
        QVERIFY(test::waitFor([&] { return subscribed; }, 10000));

        core::DiscoverRequest request;
        request.batch = 100;
        const Walk walk = discover(request);
        QVERIFY(walk.answered);
        QCOMPARE(walk.doneCalls, 1);
        QVERIFY2(walk.result.ok, qPrintable(walk.result.error));
        const auto &found = walk.result.semaphores;
        auto kindOf = [&](const char *name) {
            const auto *d = findByName(found, QString::fromLatin1(name));
            return d ? core::kindName(d->ref.kind) : QStringLiteral("(missing)");
        };
        QCOMPARE(kindOf("jobs"), QStringLiteral("slots"));
        QCOMPARE(kindOf("semname"), QStringLiteral("fair"));
        QCOMPARE(kindOf("semaphore:acquire"), QStringLiteral("zset"));
        QCOMPARE(kindOf("perm"), QStringLiteral("redisson-permit"));
        QCOMPARE(kindOf("rlock"), QStringLiteral("redisson-lock"));
        QCOMPARE(kindOf("m"), QStringLiteral("node-mutex"));
        QCOMPARE(kindOf("pool"), QStringLiteral("node-semaphore"));
        QCOMPARE(kindOf("own"), QStringLiteral("leased"));
        QCOMPARE(kindOf("rsem"), QStringLiteral("redisson-semaphore"));
        QCOMPARE(kindOf("bad"), QStringLiteral("slots"));
        QCOMPARE(kindOf("broken"), QStringLiteral("fair"));
        QCOMPARE(found.size(), 11);
        QVERIFY(findByName(found, QStringLiteral("bad"))
                    ->warnings.join(u' ')
                    .contains(QStringLiteral("expected a hash")));
        QVERIFY(findByName(found, QStringLiteral("broken"))
                    ->warnings.join(u' ')
                    .contains(QStringLiteral("10.0 MB")));
        for (const char *healthy :
             {"jobs", "semname", "semaphore:acquire", "perm", "rlock", "m", "pool", "own", "rsem"}) {
            const auto *d = findByName(found, QString::fromLatin1(healthy));
            QVERIFY2(d->warnings.isEmpty(), qPrintable(QString::fromLatin1(healthy) + QStringLiteral(": ") +
                                                       d->warnings.join(QStringLiteral("; "))));
        }
        QCOMPARE(findByName(found, QStringLiteral("semname"))->keys.size(), 3);
        // Progress: every report knows the total, the scan count only grows, and the semaphores
        // reported along the way are exactly the result.
        QVERIFY(walk.progress.size() >= 2);
        const qint64 dbsize = cmd({"DBSIZE"}).toInteger().value_or(-1);
        qint64 last = 0;
        for (const auto &p : walk.progress) {
            QCOMPARE(p.totalKeys, dbsize);
            QVERIFY(p.scannedKeys >= last);
            last = p.scannedKeys;
        }
        QCOMPARE(walk.result.scannedKeys, dbsize);
        QCOMPARE(foundInProgress(walk).size(), found.size());
    }

    // The sample reads at most 64 bytes of a string and asks its length only when the read came back
    // full: the length behind a counter's warning is exact on either side of that bound.
    void stringLengthAtTheSamplesBound_data() {
        QTest::addColumn<int>("bytes");
        QTest::addColumn<QString>("warning");
        QTest::newRow("63 bytes") << 63 << QStringLiteral("c:counter is not an integer");
        QTest::newRow("64 bytes") << 64 << QStringLiteral("c:counter is not an integer");
        QTest::newRow("65 bytes") << 65 << QStringLiteral("c:counter holds 65 bytes, expected a number");
    }
    void stringLengthAtTheSamplesBound() {
        QFETCH(int, bytes);
        QFETCH(QString, warning);
        cmd({"ZADD", "c", "1", "a"});
        cmd({"ZADD", "c:owner", "1", "a"});
        cmd({"SET", "c:counter", QByteArray(bytes, 'x')});
        const Walk walk = discover(core::DiscoverRequest());
        QVERIFY2(walk.result.ok, qPrintable(walk.result.error));
        const auto *fair = findByName(walk.result.semaphores, QStringLiteral("c"));
        QVERIFY(fair);
        QCOMPARE(fair->warnings, QStringList{warning});
    }

    // Redisson RSemaphores are bare integer strings. Among integer counters they are found only by
    // evidence: a client waiting on redisson_sc:{N} (classic or sharded pub/sub) or a profile
    // naming them, which finds an idle one too (DiscoverRequest::known). MATCH still rules.
    void redissonSemaphoresNeedEvidence() {
        for (int i = 0; i < 200; ++i)
            cmd({"SET", "counter:" + QByteArray::number(i), QByteArray::number(i)});
        cmd({"SET", "lock-count", "3"});       // an integer under a lock-ish name: still just a counter
        cmd({"SET", "idle-sem", "5"});         // RSemaphore nobody waits on: only the profile knows it
        cmd({"SET", "idle-permits", "2"});     // RPermitExpirableSemaphore with no lease left
        cmd({"SET", "sharded-sem", "0"});      // cluster-mode Redisson waits with SSUBSCRIBE
        cmd({"LPUSH", "named-but-list", "x"}); // a profile naming a key of the wrong type
        RedisConnection waiter(m_server.settings());
        waiter.open();
        bool subscribed = false;
        waiter.command({"SSUBSCRIBE", "redisson_sc:{sharded-sem}"},
                       [&subscribed](const RedisReply &r) { subscribed = r.isArray(); });
        QVERIFY(test::waitFor([&] { return subscribed; }, 10000));

        core::DiscoverRequest request;
        auto named = [](core::Kind kind, const char *name) {
            core::SemaphoreRef ref;
            ref.kind = kind;
            ref.name = QString::fromLatin1(name);
            ref.profile.limit = 5;
            return ref;
        };
        Walk walk = discover(request);
        QVERIFY2(walk.result.ok, qPrintable(walk.result.error));
        QCOMPARE(walk.result.semaphores.size(), 1);
        QCOMPARE(walk.result.semaphores.first().ref.name, QStringLiteral("sharded-sem"));
        QCOMPARE(walk.result.semaphores.first().ref.kind, core::Kind::RedissonSemaphore);

        request.known = {named(core::Kind::RedissonSemaphore, "idle-sem"),
                         named(core::Kind::RedissonPermitExpirable, "idle-permits"),
                         named(core::Kind::RedissonSemaphore, "named-but-list"),
                         named(core::Kind::RedissonSemaphore, "not-there"),
                         named(core::Kind::Fair, "counter:7")};
        walk = discover(request);
        QVERIFY2(walk.result.ok, qPrintable(walk.result.error));
        QStringList seen;
        for (const auto &d : walk.result.semaphores)
            seen << core::kindName(d.ref.kind) + QLatin1Char(' ') + d.ref.name;
        seen.sort();
        QCOMPARE(seen, (QStringList{QStringLiteral("redisson-permit idle-permits"),
                                    QStringLiteral("redisson-semaphore idle-sem"),
                                    QStringLiteral("redisson-semaphore named-but-list"),
                                    QStringLiteral("redisson-semaphore sharded-sem")}));
        QVERIFY(findByName(walk.result.semaphores, QStringLiteral("idle-sem"))->warnings.isEmpty());
        QVERIFY(findByName(walk.result.semaphores, QStringLiteral("named-but-list"))
                    ->warnings.join(u' ')
                    .contains(QStringLiteral("expected a string")));

        request.match = QStringLiteral("idle-s*");
        walk = discover(request);
        QCOMPARE(walk.result.semaphores.size(), 1);
        QCOMPARE(walk.result.semaphores.first().ref.name, QStringLiteral("idle-sem"));
        waiter.close();
    }

    void matchAndKindNarrowTheWalk() {
        const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
        cmd({"ZADD", "semaphore:a", QByteArray::number(nowMs + 30000), "u1"});
        cmd({"ZADD", "other", QByteArray::number(nowMs + 30000), "u1"});
        cmd({"RPUSH", "semaphore:b|list", "1"});
        core::DiscoverRequest request;
        request.match = QStringLiteral("semaphore:*");
        Walk walk = discover(request);
        QVERIFY(walk.result.ok);
        QCOMPARE(walk.result.semaphores.size(), 2);
        request.kind = core::Kind::Zset;
        walk = discover(request);
        QCOMPARE(walk.result.semaphores.size(), 1);
        QCOMPARE(walk.result.semaphores.first().ref.name, QStringLiteral("semaphore:a"));
    }

    // SCAN MATCH hands back only the keys that matched, so a glob's walk cannot be measured in keys;
    // its cursor says how far it is (the bucket index, bits reversed). 3 locks among 5,000 keys, 100
    // keys a page: the share walked rises page by page, stays below 1 until the last page, and the
    // last report says the whole keyspace was walked.
    void aGlobsWalkSaysHowFarItIs() {
        QList<QByteArray> mset{"MSET"};
        for (int i = 0; i < 5000; ++i)
            mset << "cache:" + QByteArray::number(i) << "x";
        QVERIFY(!cmd(mset).isError());
        for (const char *lock : {"lock:deploy", "lock:backup", "lock:report"})
            cmd({"SET", lock, "worker-1"});
        core::DiscoverRequest request;
        request.match = QStringLiteral("lock:*");
        request.batch = 100;
        Walk walk = discover(request);
        QVERIFY(walk.result.ok);
        QCOMPARE(walk.result.scannedKeys, 3);
        QVERIFY(walk.result.scannedAreMatches); // 3 keys matched, not 3 keys walked
        QVERIFY(walk.progress.size() > 10);
        QVERIFY(walk.progress.constFirst().scannedAreMatches);
        // Without a pattern the keys counted are the keys walked.
        QVERIFY(!discover(core::DiscoverRequest{}).result.scannedAreMatches);
        QList<double> walked;
        for (const core::DiscoverProgress &p : std::as_const(walk.progress))
            walked << p.walked;
        QString shares;
        for (double w : std::as_const(walked))
            shares += QString::number(w, 'f', 3) + QLatin1Char(' ');
        QVERIFY2(std::is_sorted(walked.cbegin(), walked.cend()), qPrintable(shares));
        QVERIFY2(walked.constFirst() > 0 && walked.constFirst() < 0.5, qPrintable(shares));
        QCOMPARE(walked.constLast(), 1.0);
        QVERIFY2(walked.at(walked.size() / 2) > 0.2 && walked.at(walked.size() / 2) < 0.8,
                 qPrintable(shares));
    }

    // Issue 31 item 2: keys named like a semaphore or a lock but of a type no such layout uses are
    // sampled (a names page says "string" of every key) and listed with the warning, not skipped.
    void wrongTypesAreListedWithAWarning() {
        cmd({"RPUSH", "semaphore:payments-legacy", "a", "b"});
        cmd({"HSET", "lock:orders", "owner", "svc-a"});
        cmd({"LPUSH", "queue", "job"});
        cmd({"SADD", "clock:ticks", "1"});
        const Walk walk = discover({});
        QVERIFY2(walk.result.ok, qPrintable(walk.result.error));
        const auto &found = walk.result.semaphores;
        QCOMPARE(found.size(), 2);
        const auto *legacy = findByName(found, QStringLiteral("payments-legacy"));
        QVERIFY(legacy);
        QCOMPARE(legacy->ref.kind, core::Kind::NodeSemaphore);
        QVERIFY(legacy->warnings.join(u' ').contains(QLatin1String("is a list, expected a zset")));
        const auto *orders = findByName(found, QStringLiteral("lock:orders"));
        QVERIFY(orders);
        QCOMPARE(orders->ref.kind, core::Kind::Lock);
        QVERIFY(orders->warnings.join(u' ').contains(QLatin1String("is a hash, expected a string")));
    }

    // A ZSET and a hash are candidates whatever their names, so their types must be known; the
    // server says which keys they are (SCAN's TYPE filter) rather than being asked the type of
    // every key: TYPE is sent only inside the samples of the few candidates.
    void typesComeFromTheScanNotFromEveryKey() {
        const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
        QVERIFY(!cmd({"DEBUG", "POPULATE", "3000", "key", "8"}).isError());
        cmd({"ZADD", "pool", QByteArray::number(nowMs + 30000), "worker-1"});
        cmd({"HSET", "orders", "0f8fad5b-d9cb-469f-a165-70867728950e:7", "1"});
        cmd({"PEXPIRE", "orders", "30000"});
        cmd({"CONFIG", "RESETSTAT"});
        core::DiscoverRequest request;
        request.batch = 100;
        const Walk walk = discover(request);
        QVERIFY2(walk.result.ok, qPrintable(walk.result.error));
        QCOMPARE(walk.result.scannedKeys, 3002);
        QVERIFY(findByName(walk.result.semaphores, QStringLiteral("pool")));
        QVERIFY(findByName(walk.result.semaphores, QStringLiteral("orders")));
        const QByteArray stats = cmd({"INFO", "commandstats"}).str;
        const QRegularExpression typeCalls(QStringLiteral("cmdstat_type:calls=(\\d+)"));
        const QRegularExpressionMatch m = typeCalls.match(QString::fromLatin1(stats));
        const int calls = m.hasMatch() ? m.captured(1).toInt() : 0;
        QVERIFY2(calls <= 10, qPrintable(QStringLiteral("%1 TYPE commands for 2 candidates").arg(calls)));
    }

    void emptyDatabase() {
        const Walk walk = discover({});
        QVERIFY(walk.result.ok);
        QVERIFY(walk.result.semaphores.isEmpty());
        QCOMPARE(walk.result.scannedKeys, 0);
    }

    void cancellationStopsTheWalk() {
        QVERIFY(!cmd({"DEBUG", "POPULATE", "50000", "key", "8"}).isError());
        core::Cancellation cancel;
        core::DiscoverRequest request;
        request.batch = 100;
        const Walk walk =
            discover(request, cancel, 60000, [cancel](const core::DiscoverProgress &) { cancel.cancel(); });
        QVERIFY(walk.answered);
        QCOMPARE(walk.doneCalls, 1);
        QVERIFY(walk.result.cancelled);
        QVERIFY(!walk.result.ok);
        QVERIFY(walk.result.scannedKeys < 50000);
    }

    void serverGoneIsAnError() {
        test::RedisServer doomed;
        QVERIFY2(doomed.start(), qPrintable(doomed.errorString()));
        QVERIFY(!doomed.command({"DEBUG", "POPULATE", "1000", "key", "8"}).isError());
        RedisConnection conn(doomed.settings());
        conn.open();
        doomed.kill();
        auto walk = std::make_shared<Walk>();
        discoverSemaphores(conn, {}, {}, {}, [walk](core::DiscoverResult r) {
            walk->result = r;
            walk->answered = true;
        });
        QVERIFY(test::waitFor([walk] { return walk->answered; }, 30000));
        QVERIFY(!walk->result.ok);
        QVERIFY(!walk->result.error.isEmpty());
        conn.close();
    }

    // 10,000 semaphores among 1,000,000 keys. Run by the `slow` ctest entry only.
    void largeKeyspace() {
        if (!QCoreApplication::arguments().contains(QStringLiteral("largeKeyspace")))
            QSKIP("runs as tst_redisdiscovery_large (label slow)");
        QVERIFY(!cmd({"DEBUG", "POPULATE", "990000", "key", "8"}).isError());
        QVERIFY(!cmd({"EVAL", kPopulateSemaphores, "0", "10000"}).isError());
        const qint64 dbsize = cmd({"DBSIZE"}).toInteger().value_or(-1);
        QVERIFY2(dbsize >= 1000000, qPrintable(QString::number(dbsize)));

        QElapsedTimer timer;
        timer.start();
        core::DiscoverRequest request;
        request.batch = 1000;
        const Walk walk = discover(request, {}, 240000);
        QVERIFY(walk.answered);
        QVERIFY2(walk.result.ok, qPrintable(walk.result.error));
        QCOMPARE(walk.result.semaphores.size(), 10000);
        QCOMPARE(walk.result.scannedKeys, dbsize);
        QVERIFY(walk.progress.size() > 100); // progressive, page by page
        int slotsCount = 0, fairCount = 0, zsetCount = 0;
        for (const auto &d : walk.result.semaphores) {
            QVERIFY2(d.warnings.isEmpty(),
                     qPrintable(d.ref.name + QStringLiteral(": ") + d.warnings.join(u' ')));
            slotsCount += d.ref.kind == core::Kind::Slots;
            fairCount += d.ref.kind == core::Kind::Fair;
            zsetCount += d.ref.kind == core::Kind::Zset;
        }
        QCOMPARE(slotsCount, 3333);
        QCOMPARE(zsetCount, 3334);
        QCOMPARE(fairCount, 3333);
        qInfo("discovered %lld semaphores among %lld keys in %lld ms (%lld progress reports)",
              qint64(walk.result.semaphores.size()), dbsize, timer.elapsed(), qint64(walk.progress.size()));
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestRedisDiscovery)
#include "tst_redisdiscovery.moc"
