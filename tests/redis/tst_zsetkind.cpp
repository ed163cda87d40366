// The `zset` layout (expiring ZSET holder -> expiry ms) against a real redis-server, interoperating
// with the seed client's own add-then-rank sequence (seed 003, non-fair variant).
#include "SeedKindTest.h"
#include "redis/kinds/ZsetKind.h"

#include <QtTest>

using namespace semscope;
using namespace semscope::redis;
using semscope::test::holderById;
using semscope::test::KindDriver;
using semscope::test::warningContains;

class TestZsetKind : public QObject {
    Q_OBJECT

private:
    test::RedisServer m_server;
    std::unique_ptr<RedisConnection> m_conn;
    std::unique_ptr<ZsetKind> m_kind;
    std::unique_ptr<KindDriver> m_driver;

    RedisReply cmd(const QList<QByteArray> &args) { return m_server.command(args); }

    // Seed 003's RedisSemaphore.acquire(conn, timeout): ZADD now+timeout, purge 0..now, ZRANK, and
    // ZREM itself when rank > limit-1. `nowMs` is the client's clock (a skewed one in one test).
    bool seedAcquire(const QByteArray &key, const QByteArray &index, int limit, int timeoutS, qint64 nowMs) {
        cmd({"ZADD", key, QByteArray::number(nowMs + qint64(timeoutS) * 1000), index});
        cmd({"ZREMRANGEBYSCORE", key, "0", QByteArray::number(nowMs)});
        const qint64 rank = cmd({"ZRANK", key, index}).toInteger().value_or(-1);
        if (rank > limit - 1) {
            cmd({"ZREM", key, index});
            return false;
        }
        return true;
    }
    bool seedAcquire(const QByteArray &key, const QByteArray &index, int limit, int timeoutS = 30) {
        return seedAcquire(key, index, limit, timeoutS, QDateTime::currentMSecsSinceEpoch());
    }
    void seedRelease(const QByteArray &key, const QByteArray &index) { cmd({"ZREM", key, index}); }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        m_conn = std::make_unique<RedisConnection>(m_server.settings());
        m_conn->open();
        m_kind = std::make_unique<ZsetKind>();
        m_driver = std::make_unique<KindDriver>(*m_kind, *m_conn);
    }
    void init() { cmd({"FLUSHALL"}); }
    void cleanupTestCase() {
        m_driver.reset();
        m_conn.reset();
        m_server.stop();
    }

    void seedStateReadExactly() {
        QVERIFY(seedAcquire("semaphore:acquire", "u1", 2, 30));
        QVERIFY(seedAcquire("semaphore:acquire", "u2", 2, 20));
        QVERIFY(!seedAcquire("semaphore:acquire", "u3", 2, 40));
        const qint64 expiry2 = qint64(cmd({"ZSCORE", "semaphore:acquire", "u2"}).toDouble().value_or(0));
        const core::Snapshot snap = m_driver->snapshot(m_driver->ref(QStringLiteral("semaphore:acquire"), 2));
        QVERIFY2(snap.warnings.isEmpty(), qPrintable(snap.warnings.join(QStringLiteral("; "))));
        QCOMPARE(snap.details.value(QStringLiteral("score_unit")).toString(), QStringLiteral("ms"));
        QCOMPARE(snap.holders.size(), 2);
        // Rank is by expiry: u2 (20 s) before u1 (30 s).
        QCOMPARE(snap.holders.at(0).id, QStringLiteral("u2"));
        QCOMPARE(snap.holders.at(0).rank, std::optional<qint64>(0));
        QCOMPARE(snap.holders.at(0).expiresAtMs, std::optional<qint64>(expiry2));
        const qint64 ttl = *snap.holders.at(0).ttlMs(snap.serverNowMs);
        QVERIFY2(ttl > 15000 && ttl <= 20000, qPrintable(QString::number(ttl)));
        QCOMPARE(snap.holders.at(1).id, QStringLiteral("u1"));
        QCOMPARE(snap.holders.at(1).state, core::HolderState::Live);
    }

    // No profile limit on a healthy ZSET: the limit shown is inferred from the live holders and
    // explained in a note; expired entries do not count; nothing is a warning.
    void unknownLimitIsInferredNotWarned() {
        QVERIFY(seedAcquire("zs", "u1", 3));
        QVERIFY(seedAcquire("zs", "u2", 3));
        cmd({"ZADD", "zs", QByteArray::number(QDateTime::currentMSecsSinceEpoch() - 5000), "gone"});
        const core::Snapshot snap = m_driver->snapshot(m_driver->ref(QStringLiteral("zs")));
        QVERIFY2(snap.warnings.isEmpty(), qPrintable(snap.warnings.join(QStringLiteral("; "))));
        QCOMPARE(snap.limitSource, core::LimitSource::Inferred);
        QCOMPARE(snap.limit, std::optional<qint64>(2));
        QVERIFY(snap.notes.join(u' ').contains(QStringLiteral("inferred as 2")));
        QCOMPARE(holderById(snap, QStringLiteral("gone"))->state, core::HolderState::ExpiredPresent);
        QCOMPARE(holderById(snap, QStringLiteral("u1"))->state, core::HolderState::Live);
        const auto r = test::awaitKind<core::MaintenanceResult>(
            [&](auto done) { m_kind->setLimit(*m_conn, m_driver->ref(QStringLiteral("zs")), 4, done); });
        QVERIFY(!r.ok);
        QVERIFY2(r.message.contains(QStringLiteral("profile value")), qPrintable(r.message));
    }

    void semscopeAndSeedShareASemaphore() {
        const QByteArray key = "semaphore:acquire";
        const auto r = m_driver->ref(QString::fromLatin1(key), 2);
        QVERIFY(seedAcquire(key, "u1", 2));
        const core::AcquireResult mine = m_driver->acquire(r, QStringLiteral("semscope"), 30000);
        QCOMPARE(mine.status, core::AcquireResult::Status::Granted);
        QVERIFY(mine.grant.expiresAtMs.has_value());
        // Written as the seed writes it: expiry in ms.
        const double score = cmd({"ZSCORE", key, "semscope"}).toDouble().value_or(0);
        QCOMPARE(qint64(score), *mine.grant.expiresAtMs);
        // Full for both.
        QVERIFY(!seedAcquire(key, "u2", 2));
        const core::AcquireResult busy = m_driver->acquire(r, QStringLiteral("other"));
        QCOMPARE(busy.status, core::AcquireResult::Status::Busy);
        QCOMPARE(busy.holders.size(), 2);
        QVERIFY(busy.earliestExpiryMs.has_value());
        QCOMPARE(cmd({"ZCARD", key}).toInteger(), 2); // semscope's check-before-add left nothing
        // Refresh moves the expiry; the seed's client still sees the entry and ranks it.
        const core::RefreshResult refreshed = m_driver->refresh(mine.grant, 60000);
        QCOMPARE(refreshed.status, core::RefreshResult::Status::Ok);
        QVERIFY(*refreshed.expiresAtMs > *mine.grant.expiresAtMs);
        QCOMPARE(cmd({"ZRANK", key, "semscope"}).toInteger(), 1);
        // The seed's release frees a slot for semscope, and semscope's for the seed.
        seedRelease(key, "u1");
        const core::AcquireResult second = m_driver->acquire(r, QStringLiteral("semscope-2"));
        QCOMPARE(second.status, core::AcquireResult::Status::Granted);
        QCOMPARE(m_driver->release(mine.grant).status, core::ReleaseResult::Status::Ok);
        QVERIFY(seedAcquire(key, "u3", 2));
        QCOMPARE(m_driver->release(mine.grant).status, core::ReleaseResult::Status::NotHeld);
    }

    void checkBeforeAddRefusesWhereAddThenRankOverAdmits() {
        // Two live holders with long leases; the seed's client with a clock 20 s behind adds an
        // entry that expires before theirs, ranks 0, and believes it holds: 3 holders, limit 2.
        const QByteArray key = "skewed";
        QVERIFY(seedAcquire(key, "a", 2, 300));
        QVERIFY(seedAcquire(key, "b", 2, 300));
        QVERIFY(seedAcquire(key, "late", 2, 30, QDateTime::currentMSecsSinceEpoch() - 20000));
        const core::Snapshot snap = m_driver->snapshot(m_driver->ref(QString::fromLatin1(key), 2));
        QCOMPARE(snap.countInState(core::HolderState::OverLimit), 1);
        QVERIFY(warningContains(snap, QStringLiteral("more live holders than the limit")));
        // semscope's acquire does not join them.
        cmd({"ZREM", key, "late"});
        QCOMPARE(m_driver->acquire(m_driver->ref(QString::fromLatin1(key), 2), QStringLiteral("x")).status,
                 core::AcquireResult::Status::Busy);
    }

    void expiredEntriesArePurged() {
        const QByteArray key = "e";
        const qint64 past = QDateTime::currentMSecsSinceEpoch() - 5000;
        cmd({"ZADD", key, QByteArray::number(past), "gone"});
        cmd({"ZADD", key, QByteArray::number(past + 600000), "live"});
        const auto r = m_driver->ref(QString::fromLatin1(key), 2);
        const core::Snapshot snap = m_driver->snapshot(r);
        QCOMPARE(holderById(snap, QStringLiteral("gone"))->state, core::HolderState::ExpiredPresent);
        const core::MaintenanceResult purged = m_driver->purge(r);
        QVERIFY(purged.ok);
        QCOMPARE(purged.affected, 1);
        QCOMPARE(cmd({"ZCARD", key}).toInteger(), 1);
    }

    void secondsScoresAreRecognised() {
        const QByteArray key = "sec";
        const qint64 nowS = QDateTime::currentSecsSinceEpoch();
        cmd({"ZADD", key, QByteArray::number(nowS + 30), "s1"});
        const auto r = m_driver->ref(QString::fromLatin1(key), 3);
        const core::Snapshot snap = m_driver->snapshot(r);
        QCOMPARE(snap.details.value(QStringLiteral("score_unit")).toString(), QStringLiteral("s"));
        const qint64 ttl = *snap.holders.at(0).ttlMs(snap.serverNowMs);
        QVERIFY2(ttl > 25000 && ttl <= 31000, qPrintable(QString::number(ttl)));
        // semscope writes the unit it found.
        const core::AcquireResult a = m_driver->acquire(r, QStringLiteral("s2"), 10000);
        QCOMPARE(a.status, core::AcquireResult::Status::Granted);
        const double score = cmd({"ZSCORE", key, "s2"}).toDouble().value_or(0);
        QVERIFY(std::abs(score - double(nowS + 10)) < 5);
    }

    void forceReleaseComparesTheScoreSeen() {
        const QByteArray key = "f";
        const auto r = m_driver->ref(QString::fromLatin1(key), 2);
        QVERIFY(seedAcquire(key, "u1", 2, 30));
        const core::Holder observed = *holderById(m_driver->snapshot(r), QStringLiteral("u1"));
        // The holder releases and acquires again (same id, new expiry) before the operator acts.
        seedRelease(key, "u1");
        QVERIFY(seedAcquire(key, "u1", 2, 40));
        QCOMPARE(m_driver->forceRelease(r, observed).status, core::ForceReleaseResult::Status::Changed);
        QCOMPARE(cmd({"ZCARD", key}).toInteger(), 1);
        const core::Holder now = *holderById(m_driver->snapshot(r), QStringLiteral("u1"));
        QCOMPARE(m_driver->forceRelease(r, now).status, core::ForceReleaseResult::Status::Released);
        QCOMPARE(cmd({"ZCARD", key}).toInteger(), 0);
        QCOMPARE(m_driver->forceRelease(r, now).status, core::ForceReleaseResult::Status::Gone);
    }

    void badData_data() {
        QTest::addColumn<QList<QList<QByteArray>>>("setup");
        QTest::addColumn<QString>("warning");
        using Cmds = QList<QList<QByteArray>>;
        QTest::newRow("wrong type") << Cmds{{"SET", "B", "x"}}
                                    << QStringLiteral("B is a string, expected a zset");
        QTest::newRow("non-numeric scores")
            << Cmds{{"ZADD", "B", "inf", "a", "-inf", "b"}} << QStringLiteral("non-numeric");
        QTest::newRow("10 MB value") << Cmds{{"SET", "B", QByteArray(10 << 20, 'x')}}
                                     << QStringLiteral("is a string");
    }
    void badData() {
        QFETCH(QList<QList<QByteArray>>, setup);
        QFETCH(QString, warning);
        for (const auto &c : setup)
            QVERIFY(!cmd(c).isError());
        QVERIFY(seedAcquire("ok", "u1", 2));
        const auto bad = m_driver->ref(QStringLiteral("B"), 2);
        const core::Snapshot snap = m_driver->snapshot(bad);
        QVERIFY2(warningContains(snap, warning), qPrintable(snap.warnings.join(QStringLiteral("; "))));
        const core::AcquireResult attempt = m_driver->acquire(bad, QStringLiteral("probe"));
        if (attempt.status == core::AcquireResult::Status::Error)
            QVERIFY(!attempt.error.isEmpty());
        const auto ok = m_driver->ref(QStringLiteral("ok"), 2);
        QVERIFY(m_driver->snapshot(ok).warnings.isEmpty());
        QCOMPARE(m_driver->acquire(ok, QStringLiteral("u2")).status, core::AcquireResult::Status::Granted);
    }
};

QTEST_GUILESS_MAIN(TestZsetKind)
#include "tst_zsetkind.moc"
