// Other libraries' layouts against a real redis-server: Redisson RSemaphore,
// RPermitExpirableSemaphore and RLock, node redis-semaphore's Mutex and Semaphore. The state is
// written with the commands those libraries' scripts run (Redisson's RedissonSemaphore.java,
// RedissonPermitExpirableSemaphore.java and RedissonLock.java; swarthy/redis-semaphore's src/mutex
// and src/semaphore Lua scripts); semscope reads it without changing it and force-releases
// compare-and-act.
#include "SeedKindTest.h"
#include "TestMain.h"
#include "redis/kinds/NodeMutexKind.h"
#include "redis/kinds/NodeSemaphoreKind.h"
#include "redis/kinds/RedissonLockKind.h"
#include "redis/kinds/RedissonPermitExpirableKind.h"
#include "redis/kinds/RedissonSemaphoreKind.h"

#include <QtTest>

using namespace semscope;
using namespace semscope::redis;
using semscope::test::holderById;
using semscope::test::KindDriver;
using semscope::test::warningContains;

namespace {
const QByteArray kUuid = "0f8fad5b-d9cb-469f-a165-70867728950e";
} // namespace

class TestForeignKinds : public QObject {
    Q_OBJECT

private:
    test::RedisServer m_server;
    std::unique_ptr<RedisConnection> m_conn;
    std::unique_ptr<RedisConnection> m_subscriber;
    QList<QPair<QByteArray, QByteArray>> m_messages; // channel, message

    RedisReply cmd(const QList<QByteArray> &args) { return m_server.command(args); }
    static qint64 nowMs() { return QDateTime::currentMSecsSinceEpoch(); }

    void listen(const QByteArray &channel) {
        bool subscribed = false;
        m_subscriber->subscribe(
            channel,
            [this, channel](const QByteArray &message) {
                m_messages.append({channel, message});
            },
            [&subscribed] { subscribed = true; });
        QVERIFY(test::waitFor([&] { return subscribed; }, 10000));
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        m_conn = std::make_unique<RedisConnection>(m_server.settings());
        m_conn->open();
        m_subscriber = std::make_unique<RedisConnection>(m_server.settings());
        m_subscriber->open();
    }
    void init() {
        cmd({"FLUSHALL"});
        m_messages.clear();
    }
    void cleanupTestCase() {
        m_subscriber.reset();
        m_conn.reset();
        m_server.stop();
    }

    void redissonSemaphore() {
        RedissonSemaphoreKind kind;
        KindDriver driver(kind, *m_conn);
        QCOMPARE(kind.releaseChannel(QStringLiteral("sem")), QByteArray("redisson_sc:{sem}"));
        // trySetPermits(3), then two tryAcquire(1): DECRBY.
        cmd({"SET", "sem", "3"});
        cmd({"DECRBY", "sem", "1"});
        cmd({"DECRBY", "sem", "1"});
        const auto r = driver.ref(QStringLiteral("sem"), 3);
        const core::Snapshot snap = driver.snapshot(r);
        QVERIFY2(snap.warnings.isEmpty(), qPrintable(snap.warnings.join(QStringLiteral("; "))));
        QCOMPARE(snap.details.value(QStringLiteral("available")).toLongLong(), 1);
        QCOMPARE(snap.details.value(QStringLiteral("in_use")).toLongLong(), 2);
        QCOMPARE(snap.version, std::optional<qint64>(1));
        QVERIFY(snap.holders.isEmpty()); // Redisson records no holders
        QCOMPARE(cmd({"GET", "sem"}).str, QByteArray("1"));

        listen("redisson_sc:{sem}");
        // Someone releases meanwhile: the count the operator saw is stale, nothing happens.
        cmd({"INCRBY", "sem", "1"});
        QCOMPARE(driver.forceRelease(r, core::Holder{}, snap.version).status,
                 core::ForceReleaseResult::Status::Changed);
        QCOMPARE(cmd({"GET", "sem"}).str, QByteArray("2"));
        // On the current count, one permit goes back and waiters hear the new count.
        const core::ForceReleaseResult released = driver.forceRelease(r, core::Holder{}, 2);
        QCOMPARE(released.status, core::ForceReleaseResult::Status::Released);
        QCOMPARE(released.message, QStringLiteral("released 1 permit of sem")); // not "1 permit(s)"
        QCOMPARE(cmd({"GET", "sem"}).str, QByteArray("3"));
        QTRY_COMPARE_WITH_TIMEOUT(m_messages.size(), 1, 10000);
        QCOMPARE(m_messages.first().second, QByteArray("3"));
        m_subscriber->unsubscribe("redisson_sc:{sem}");
    }

    void redissonPermitExpirable() {
        RedissonPermitExpirableKind kind;
        KindDriver driver(kind, *m_conn);
        const QByteArray live = QByteArray::fromHex("00112233445566778899aabbccddeeff");
        const QByteArray noLease = QByteArray::fromHex("ffeeddccbbaa99887766554433221100");
        const QByteArray expired = QByteArray::fromHex("0102030405060708090a0b0c0d0e0f10");
        // trySetPermits(4), then three acquisitions: one with a 60 s lease, one without lease, one
        // whose lease ran out (not reclaimed yet: Redisson reclaims lazily).
        cmd({"SET", "perm", "1"});
        cmd({"ZADD", "{perm}:timeout", QByteArray::number(nowMs() + 60000), live});
        cmd({"ZADD", "{perm}:timeout", "922337203685477", noLease});
        cmd({"ZADD", "{perm}:timeout", QByteArray::number(nowMs() - 1000), expired});
        const auto r = driver.ref(QStringLiteral("perm"));
        const core::Snapshot snap = driver.snapshot(r);
        QCOMPARE(snap.limit, std::optional<qint64>(4)); // capacity = available + ZCARD
        QCOMPARE(snap.details.value(QStringLiteral("available")).toLongLong(), 1);
        QCOMPARE(snap.details.value(QStringLiteral("effective_available")).toLongLong(), 2);
        QCOMPARE(snap.holders.size(), 3);
        const core::Holder *h = holderById(snap, QStringLiteral("00112233445566778899aabbccddeeff"));
        QVERIFY(h);
        QCOMPARE(h->rawId, live);
        QCOMPARE(h->state, core::HolderState::Live);
        const qint64 ttl = *h->ttlMs(snap.serverNowMs);
        QVERIFY2(ttl > 50000 && ttl <= 61000, qPrintable(QString::number(ttl)));
        QVERIFY(!holderById(snap, QStringLiteral("ffeeddccbbaa99887766554433221100"))->expiresAtMs);
        QCOMPARE(holderById(snap, QStringLiteral("0102030405060708090a0b0c0d0e0f10"))->state,
                 core::HolderState::ExpiredPresent);
        QVERIFY2(snap.warnings.contains(
                     QStringLiteral("1 permit's lease ran out; Redisson reclaims it at the next acquire")),
                 qPrintable(snap.warnings.join(QLatin1Char('\n'))));
        // Reading changed nothing (Redisson's availablePermits() would have reclaimed and published).
        QCOMPARE(cmd({"GET", "perm"}).str, QByteArray("1"));
        QCOMPARE(cmd({"ZCARD", "{perm}:timeout"}).toInteger(), 3);

        listen("redisson_sc:{perm}");
        // The holder's lease is updated (updateLeaseTime) after the operator looked: changed.
        cmd({"ZADD", "{perm}:timeout", QByteArray::number(nowMs() + 90000), live});
        QCOMPARE(driver.forceRelease(r, *h).status, core::ForceReleaseResult::Status::Changed);
        QCOMPARE(cmd({"ZCARD", "{perm}:timeout"}).toInteger(), 3);
        const core::Holder now =
            *holderById(driver.snapshot(r), QStringLiteral("00112233445566778899aabbccddeeff"));
        QCOMPARE(driver.forceRelease(r, now).status, core::ForceReleaseResult::Status::Released);
        QCOMPARE(cmd({"ZSCORE", "{perm}:timeout", live}).type, RedisReply::Type::Nil);
        QCOMPARE(cmd({"GET", "perm"}).str, QByteArray("2"));
        QTRY_COMPARE_WITH_TIMEOUT(m_messages.size(), 1, 10000);
        QCOMPARE(m_messages.first().second, QByteArray("2"));
        QCOMPARE(driver.forceRelease(r, now).status, core::ForceReleaseResult::Status::Gone);
        m_subscriber->unsubscribe("redisson_sc:{perm}");
    }

    void redissonLock() {
        RedissonLockKind kind;
        KindDriver driver(kind, *m_conn);
        const QByteArray field = kUuid + ":57";
        // lock(): HINCRBY K field 1 twice (re-entered), PEXPIRE 30000; RFencedLock's token.
        cmd({"HINCRBY", "rl", field, "1"});
        cmd({"HINCRBY", "rl", field, "1"});
        cmd({"PEXPIRE", "rl", "30000"});
        cmd({"SET", "redisson_lock_token:{rl}", "12"});
        const auto r = driver.ref(QStringLiteral("rl"));
        const core::Snapshot snap = driver.snapshot(r);
        QVERIFY2(snap.warnings.isEmpty(), qPrintable(snap.warnings.join(QStringLiteral("; "))));
        QCOMPARE(snap.holders.size(), 1);
        const core::Holder h = snap.holders.first();
        QCOMPARE(h.id, QString::fromLatin1(field));
        QCOMPARE(h.details.value(QStringLiteral("hold_count")).toLongLong(), 2);
        QCOMPARE(h.details.value(QStringLiteral("thread")).toString(), QStringLiteral("57"));
        QCOMPARE(h.token, std::optional<qint64>(12));
        QVERIFY(*h.ttlMs(snap.serverNowMs) > 20000);

        listen("redisson_lock__channel:{rl}");
        // Another thread holds it now: changed.
        cmd({"DEL", "rl"});
        cmd({"HINCRBY", "rl", kUuid + ":58", "1"});
        QCOMPARE(driver.forceRelease(r, h).status, core::ForceReleaseResult::Status::Changed);
        QCOMPARE(cmd({"EXISTS", "rl"}).toInteger(), 1);
        const core::Holder now = driver.snapshot(r).holders.first();
        QCOMPARE(driver.forceRelease(r, now).status, core::ForceReleaseResult::Status::Released);
        QCOMPARE(cmd({"EXISTS", "rl"}).toInteger(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(m_messages.size(), 1, 10000);
        QCOMPARE(m_messages.first().second, QByteArray("0")); // Redisson's UNLOCK_MESSAGE
        QCOMPARE(driver.forceRelease(r, now).status, core::ForceReleaseResult::Status::Gone);
        m_subscriber->unsubscribe("redisson_lock__channel:{rl}");
    }

    void nodeMutex() {
        NodeMutexKind kind;
        KindDriver driver(kind, *m_conn);
        // Mutex acquire: SET mutex:<key> id PX lockTimeout NX.
        QCOMPARE(cmd({"SET", "mutex:jobs", "id-1", "PX", "10000", "NX"}).str, QByteArray("OK"));
        const auto r = driver.ref(QStringLiteral("jobs"));
        const core::Snapshot snap = driver.snapshot(r);
        QVERIFY2(snap.warnings.isEmpty(), qPrintable(snap.warnings.join(QStringLiteral("; "))));
        QCOMPARE(snap.keys, QStringList{QStringLiteral("mutex:jobs")});
        QCOMPARE(snap.holders.size(), 1);
        const core::Holder h = snap.holders.first();
        QCOMPARE(h.id, QStringLiteral("id-1"));
        QVERIFY(*h.ttlMs(snap.serverNowMs) > 5000);
        // The mutex changes hands (expired and re-acquired by id-2) before the operator acts.
        cmd({"SET", "mutex:jobs", "id-2", "PX", "10000"});
        QCOMPARE(driver.forceRelease(r, h).status, core::ForceReleaseResult::Status::Changed);
        QCOMPARE(cmd({"GET", "mutex:jobs"}).str, QByteArray("id-2"));
        const core::Holder now = driver.snapshot(r).holders.first();
        QCOMPARE(driver.forceRelease(r, now).status, core::ForceReleaseResult::Status::Released);
        QCOMPARE(cmd({"EXISTS", "mutex:jobs"}).toInteger(), 0);
        // No TTL: flagged.
        cmd({"SET", "mutex:forever", "x"});
        QVERIFY(warningContains(driver.snapshot(driver.ref(QStringLiteral("forever"))),
                                QStringLiteral("no TTL")));
    }

    void nodeSemaphore() {
        NodeSemaphoreKind kind;
        KindDriver driver(kind, *m_conn);
        // Semaphore acquire (limit 3, lockTimeout 10000): ZADD now id; PEXPIRE 10000. One holder
        // refreshed 2 s ago, one now.
        const qint64 now = nowMs();
        cmd({"ZADD", "semaphore:pool", QByteArray::number(now - 2000), "id-old"});
        cmd({"ZADD", "semaphore:pool", QByteArray::number(now), "id-new"});
        cmd({"PEXPIRE", "semaphore:pool", "10000"});
        const auto r = driver.ref(QStringLiteral("pool"), 3);
        const core::Snapshot snap = driver.snapshot(r);
        QVERIFY2(snap.warnings.isEmpty(), qPrintable(snap.warnings.join(QStringLiteral("; "))));
        QVERIFY(snap.details.value(QStringLiteral("timeout_inferred")).toBool());
        const qint64 timeout = snap.details.value(QStringLiteral("timeout_ms")).toLongLong();
        QVERIFY2(timeout > 9000 && timeout <= 10500, qPrintable(QString::number(timeout)));
        const core::Holder old = *holderById(snap, QStringLiteral("id-old"));
        QCOMPARE(old.acquiredAtMs, std::optional<qint64>(now - 2000));
        QCOMPARE(old.expiresAtMs, std::optional<qint64>(now - 2000 + timeout));
        // It refreshes (new score) before the operator acts.
        cmd({"ZADD", "semaphore:pool", QByteArray::number(now + 5), "id-old"});
        QCOMPARE(driver.forceRelease(r, old).status, core::ForceReleaseResult::Status::Changed);
        const core::Holder current = *holderById(driver.snapshot(r), QStringLiteral("id-old"));
        QCOMPARE(driver.forceRelease(r, current).status, core::ForceReleaseResult::Status::Released);
        QCOMPARE(cmd({"ZCARD", "semaphore:pool"}).toInteger(), 1);
    }

    // Issue 14 item 10: with ioredis `keyPrefix: "app:"` the Semaphore `uploads` lives at
    // `app:semaphore:uploads`. It is named by that full key (no `semaphore:` forced in front), read
    // with its refreshed holders live, and force-released there.
    void nodeSemaphoreUnderAKeyPrefix() {
        NodeSemaphoreKind kind;
        KindDriver driver(kind, *m_conn);
        const QByteArray key = "app:semaphore:uploads";
        const qint64 now = nowMs();
        cmd({"ZADD", key, QByteArray::number(now - 4000), "a", QByteArray::number(now), "b"});
        cmd({"PEXPIRE", key, "10000"});
        const auto r = driver.ref(QString::fromLatin1(key), 3);
        QCOMPARE(kind.keysOf(r.name), QList<QByteArray>{key});
        QCOMPARE(kind.keysOf(QStringLiteral("uploads")), QList<QByteArray>{"semaphore:uploads"});
        const core::Snapshot snap = driver.snapshot(r);
        QVERIFY2(snap.warnings.isEmpty(), qPrintable(snap.warnings.join(QStringLiteral("; "))));
        QCOMPARE(snap.keys, QStringList{QString::fromLatin1(key)});
        QCOMPARE(holderById(snap, QStringLiteral("a"))->state, core::HolderState::Live);
        QCOMPARE(driver.forceRelease(r, *holderById(snap, QStringLiteral("a"))).status,
                 core::ForceReleaseResult::Status::Released);
        QCOMPARE(cmd({"ZCARD", key}).toInteger(), 1);
    }

    // MultiSemaphore (swarthy/redis-semaphore src/multiSemaphore/{acquire,refresh,release}/lua.ts): one
    // acquisition of k permits is k members id_0 .. id_{k-1}, ZADDed with one `now` by one script, then
    // PEXPIRE lockTimeout; refresh re-ZADDs them all; release ZREMs them all. semscope shows one holder with
    // k permits and counts k against the limit.
    void nodeMultiSemaphore() {
        NodeSemaphoreKind kind;
        KindDriver driver(kind, *m_conn);
        const qint64 now = nowMs();
        const QByteArray t = QByteArray::number(now);
        // MultiSemaphore(limit 5, permits 3) "batch", then a plain Semaphore "single" on the same key.
        cmd({"ZADD", "semaphore:multi", t, "batch_0", t, "batch_1", t, "batch_2"});
        cmd({"PEXPIRE", "semaphore:multi", "10000"});
        cmd({"ZADD", "semaphore:multi", QByteArray::number(now + 1), "single"});
        cmd({"PEXPIRE", "semaphore:multi", "10000"});
        const auto r = driver.ref(QStringLiteral("multi"), 5);
        const core::Snapshot snap = driver.snapshot(r);
        QVERIFY2(snap.warnings.isEmpty(), qPrintable(snap.warnings.join(QStringLiteral("; "))));
        QCOMPARE(snap.holders.size(), 2);
        const core::Holder batch = *holderById(snap, QStringLiteral("batch"));
        QCOMPARE(batch.permits, qint64(3));
        QCOMPARE(batch.rank, std::optional<qint64>(0));
        QCOMPARE(batch.acquiredAtMs, std::optional<qint64>(now));
        QCOMPARE(batch.state, core::HolderState::Live);
        QCOMPARE(holderById(snap, QStringLiteral("single"))->permits, qint64(1));
        QCOMPARE(snap.usedCount(), 4);
        // With limit 3 the three permits of batch fill it and single is over the limit.
        const core::Snapshot tight = driver.snapshot(driver.ref(QStringLiteral("multi"), 3));
        QCOMPARE(holderById(tight, QStringLiteral("batch"))->state, core::HolderState::Live);
        QCOMPARE(holderById(tight, QStringLiteral("single"))->state, core::HolderState::OverLimit);
        // Without a profile limit, 4 permits held means a limit of at least 4 (inferred, no warning).
        const core::Snapshot inferred = driver.snapshot(driver.ref(QStringLiteral("multi")));
        QVERIFY(inferred.warnings.isEmpty());
        QCOMPARE(inferred.limit, std::optional<qint64>(4));
        QCOMPARE(inferred.limitSource, core::LimitSource::Inferred);

        // The holder refreshes (all members re-ZADDed with a new now) after the operator looked.
        const QByteArray t2 = QByteArray::number(now + 50);
        cmd({"ZADD", "semaphore:multi", t2, "batch_0", t2, "batch_1", t2, "batch_2"});
        QCOMPARE(driver.forceRelease(r, batch).status, core::ForceReleaseResult::Status::Changed);
        QCOMPARE(cmd({"ZCARD", "semaphore:multi"}).toInteger(), 4);
        // On what is there now, all three permits go in one step; the plain holder stays.
        const core::Holder current = *holderById(driver.snapshot(r), QStringLiteral("batch"));
        QCOMPARE(driver.forceRelease(r, current).status, core::ForceReleaseResult::Status::Released);
        QCOMPARE(cmd({"ZCARD", "semaphore:multi"}).toInteger(), 1);
        QCOMPARE(cmd({"ZSCORE", "semaphore:multi", "single"}).isNil(), false);
        QCOMPARE(driver.forceRelease(r, current).status, core::ForceReleaseResult::Status::Gone);
        // The library's refresh checks id_0 only: it now reports the lock lost.
        QVERIFY(cmd({"ZSCORE", "semaphore:multi", "batch_0"}).isNil());
    }

    // Only a complete run 0..k-1 with one score is a multi-permit holder; anything else stays one
    // holder per member, so a broken run (or an identifier that merely ends in _0) stays visible.
    void nodeMultiPermitGrouping_data() {
        QTest::addColumn<QList<QByteArray>>("members"); // member, score offset (ms), ...
        QTest::addColumn<QStringList>("holders");       // "id xpermits", in order
        QTest::newRow("complete run") << QList<QByteArray>{"a_0", "0", "a_1", "0"} << QStringList{"a x2"};
        QTest::newRow("lone _0") << QList<QByteArray>{"a_0", "0"} << QStringList{"a_0 x1"};
        QTest::newRow("gap") << QList<QByteArray>{"a_0", "0", "a_2", "0"} << QStringList{"a_0 x1", "a_2 x1"};
        QTest::newRow("differing scores")
            << QList<QByteArray>{"a_0", "0", "a_1", "5"} << QStringList{"a_0 x1", "a_1 x1"};
        QTest::newRow("leading zero")
            << QList<QByteArray>{"a_0", "0", "a_01", "0"} << QStringList{"a_0 x1", "a_01 x1"};
        QTest::newRow("two runs and a uuid")
            << QList<QByteArray>{"b_0",
                                 "1",
                                 "b_1",
                                 "1",
                                 "b_2",
                                 "1",
                                 "x_0",
                                 "2",
                                 "x_1",
                                 "2",
                                 "0f8fad5b-d9cb-469f-a165-70867728950e",
                                 "3"}
            << QStringList{"b x3", "x x2", "0f8fad5b-d9cb-469f-a165-70867728950e x1"};
    }
    void nodeMultiPermitGrouping() {
        QFETCH(QList<QByteArray>, members);
        QFETCH(QStringList, holders);
        NodeSemaphoreKind kind;
        KindDriver driver(kind, *m_conn);
        const qint64 now = nowMs();
        for (qsizetype i = 0; i + 1 < members.size(); i += 2)
            cmd({"ZADD", "semaphore:g", QByteArray::number(now + members.at(i + 1).toLongLong()),
                 members.at(i)});
        cmd({"PEXPIRE", "semaphore:g", "10000"});
        const core::Snapshot snap = driver.snapshot(driver.ref(QStringLiteral("g"), 10));
        QStringList seen;
        for (const core::Holder &h : snap.holders)
            seen << QStringLiteral("%1 x%2").arg(h.id).arg(h.permits);
        QCOMPARE(seen, holders);
    }

    void foreignKindsRefuseWrites() {
        RedissonSemaphoreKind kind;
        KindDriver driver(kind, *m_conn);
        cmd({"SET", "sem", "1"});
        const core::AcquireResult a = driver.acquire(driver.ref(QStringLiteral("sem")), QStringLiteral("x"));
        QCOMPARE(a.status, core::AcquireResult::Status::Error);
        QCOMPARE(cmd({"GET", "sem"}).str, QByteArray("1"));
    }

    // set limit on layouts semscope does not write says where the limit lives instead.
    void setLimitSaysWhereTheLimitLives_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("says");
        QTest::newRow("redisson-semaphore")
            << int(core::Kind::RedissonSemaphore) << QStringLiteral("profile value");
        QTest::newRow("node-semaphore") << int(core::Kind::NodeSemaphore) << QStringLiteral("profile value");
        QTest::newRow("redisson-lock") << int(core::Kind::RedissonLock) << QStringLiteral("always 1");
        QTest::newRow("node-mutex") << int(core::Kind::NodeMutex) << QStringLiteral("always 1");
        QTest::newRow("redisson-permit")
            << int(core::Kind::RedissonPermitExpirable) << QStringLiteral("only reads");
    }
    void setLimitSaysWhereTheLimitLives() {
        QFETCH(int, kind);
        QFETCH(QString, says);
        std::unique_ptr<RedisKind> k;
        switch (core::Kind(kind)) {
        case core::Kind::RedissonSemaphore:
            k = std::make_unique<RedissonSemaphoreKind>();
            break;
        case core::Kind::RedissonPermitExpirable:
            k = std::make_unique<RedissonPermitExpirableKind>();
            break;
        case core::Kind::RedissonLock:
            k = std::make_unique<RedissonLockKind>();
            break;
        case core::Kind::NodeMutex:
            k = std::make_unique<NodeMutexKind>();
            break;
        default:
            k = std::make_unique<NodeSemaphoreKind>();
            break;
        }
        cmd({"SET", "s", "3"});
        KindDriver driver(*k, *m_conn);
        const auto r = test::awaitKind<core::MaintenanceResult>(
            [&](auto done) { k->setLimit(*m_conn, driver.ref(QStringLiteral("s")), 5, done); });
        QVERIFY(!r.ok);
        QVERIFY2(r.message.contains(says), qPrintable(r.message));
        QCOMPARE(cmd({"GET", "s"}).str, QByteArray("3"));
        QCOMPARE(cmd({"DBSIZE"}).toInteger(), 1);
    }

    void badData_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QList<QList<QByteArray>>>("setup");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("warning");
        using Cmds = QList<QList<QByteArray>>;
        QTest::newRow("semaphore not a number")
            << int(core::Kind::RedissonSemaphore) << Cmds{{"SET", "b", "many"}} << QStringLiteral("b")
            << QStringLiteral("does not hold a permit count");
        QTest::newRow("semaphore 10 MB")
            << int(core::Kind::RedissonSemaphore) << Cmds{{"SET", "b", QByteArray(10 << 20, '1')}}
            << QStringLiteral("b") << QStringLiteral("10.0 MB");
        QTest::newRow("semaphore wrong type")
            << int(core::Kind::RedissonSemaphore) << Cmds{{"LPUSH", "b", "1"}} << QStringLiteral("b")
            << QStringLiteral("b is a list");
        QTest::newRow("permit timeout wrong type")
            << int(core::Kind::RedissonPermitExpirable)
            << Cmds{{"SET", "b", "1"}, {"SET", "{b}:timeout", "x"}} << QStringLiteral("b")
            << QStringLiteral("{b}:timeout is a string");
        QTest::newRow("lock count garbage")
            << int(core::Kind::RedissonLock) << Cmds{{"HSET", "b", kUuid + ":1", "lots"}}
            << QStringLiteral("b") << QStringLiteral("hold count");
        QTest::newRow("lock field garbage")
            << int(core::Kind::RedissonLock) << Cmds{{"HSET", "b", "nobody", "1"}} << QStringLiteral("b")
            << QStringLiteral("not <client uuid>");
        QTest::newRow("mutex 10 MB") << int(core::Kind::NodeMutex)
                                     << Cmds{{"SET", "mutex:b", QByteArray(10 << 20, 'x')}}
                                     << QStringLiteral("b") << QStringLiteral("10.0 MB");
        QTest::newRow("node semaphore wrong type")
            << int(core::Kind::NodeSemaphore) << Cmds{{"HSET", "semaphore:b", "f", "v"}}
            << QStringLiteral("b") << QStringLiteral("semaphore:b is a hash");
    }
    void badData() {
        QFETCH(int, kind);
        QFETCH(QList<QList<QByteArray>>, setup);
        QFETCH(QString, name);
        QFETCH(QString, warning);
        for (const auto &c : setup)
            QVERIFY(!cmd(c).isError());
        std::unique_ptr<RedisKind> k;
        switch (core::Kind(kind)) {
        case core::Kind::RedissonSemaphore:
            k = std::make_unique<RedissonSemaphoreKind>();
            break;
        case core::Kind::RedissonPermitExpirable:
            k = std::make_unique<RedissonPermitExpirableKind>();
            break;
        case core::Kind::RedissonLock:
            k = std::make_unique<RedissonLockKind>();
            break;
        case core::Kind::NodeMutex:
            k = std::make_unique<NodeMutexKind>();
            break;
        default:
            k = std::make_unique<NodeSemaphoreKind>();
            break;
        }
        KindDriver driver(*k, *m_conn);
        const core::Snapshot snap = driver.snapshot(driver.ref(name));
        QVERIFY2(warningContains(snap, warning), qPrintable(snap.warnings.join(QStringLiteral("; "))));
        // Force-release of whatever is shown answers with a result, never crashes or corrupts.
        for (const core::Holder &h : snap.holders) {
            const core::ForceReleaseResult fr = driver.forceRelease(driver.ref(name), h, snap.version);
            QVERIFY(!fr.message.isEmpty());
        }
        // A healthy neighbour still reads fine.
        cmd({"SET", "mutex:ok", "id", "PX", "10000"});
        NodeMutexKind mutex;
        KindDriver okDriver(mutex, *m_conn);
        QVERIFY(okDriver.snapshot(okDriver.ref(QStringLiteral("ok"))).warnings.isEmpty());
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestForeignKinds)
#include "tst_foreignkinds.moc"
