// The `fair` layout (Redis in Action §6.3.2) against a real redis-server, interoperating with the
// seed client's own multi-step sequence (seed 001), issued as the separate commands it sends.
#include "SeedKindTest.h"
#include "TestMain.h"
#include "redis/RedisSemaphoreStore.h"
#include "redis/kinds/FairKind.h"

#include <QtTest>

using namespace semscope;
using namespace semscope::redis;
using semscope::test::holderById;
using semscope::test::KindDriver;
using semscope::test::warningContains;

class TestFairKind : public QObject {
    Q_OBJECT

private:
    test::RedisServer m_server;
    std::unique_ptr<RedisConnection> m_conn;
    std::unique_ptr<FairKind> m_kind;
    std::unique_ptr<KindDriver> m_driver;

    RedisReply cmd(const QList<QByteArray> &args) { return m_server.command(args); }
    // Scripts the server has run so far (EVAL and EVALSHA), from INFO commandstats.
    qint64 scriptCalls() {
        qint64 calls = 0;
        const QByteArray info = cmd({"INFO", "commandstats"}).str;
        for (const QByteArray &line : info.split('\n')) {
            if (!line.startsWith("cmdstat_eval:") && !line.startsWith("cmdstat_evalsha:"))
                continue;
            const qsizetype at = line.indexOf("calls=") + 6;
            calls += line.mid(at, line.indexOf(',', at) - at).toLongLong();
        }
        return calls;
    }
    static QByteArray nowSeconds() { return QByteArray::number(QDateTime::currentSecsSinceEpoch()); }

    // Seed 001's AcquireFairSemaphore, step by step: purge, intersect, INCR, two ZADDs, ZRANK, and
    // the two ZREMs on failure. Returns the counter it used, or -1 when it lost.
    qint64 seedAcquire(const QByteArray &sem, const QByteArray &id, int limit) {
        const QByteArray czet = sem + ":owner";
        const QByteArray ctr = sem + ":counter";
        cmd({"ZREMRANGEBYSCORE", sem, "0", QByteArray::number(QDateTime::currentSecsSinceEpoch() - 10)});
        cmd({"ZINTERSTORE", czet, "2", czet, sem, "WEIGHTS", "1", "0"});
        const qint64 counter = cmd({"INCR", ctr}).toInteger().value_or(-1);
        cmd({"ZADD", sem, nowSeconds(), id});
        cmd({"ZADD", czet, QByteArray::number(counter), id});
        const qint64 rank = cmd({"ZRANK", czet, id}).toInteger().value_or(-1);
        if (rank >= 0 && rank < limit)
            return counter;
        cmd({"ZREM", sem, id});
        cmd({"ZREM", czet, id});
        return -1;
    }
    // Seed 001's RefreshFairSemaphore: ZADD XX with the client's clock.
    void seedRefresh(const QByteArray &sem, const QByteArray &id) {
        cmd({"ZADD", sem, "XX", nowSeconds(), id});
    }
    // The book's release_fair_semaphore.
    qint64 seedRelease(const QByteArray &sem, const QByteArray &id) {
        const qint64 removed = cmd({"ZREM", sem, id}).toInteger().value_or(-1);
        cmd({"ZREM", sem + ":owner", id});
        return removed;
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        m_conn = std::make_unique<RedisConnection>(m_server.settings());
        m_conn->open();
        m_kind = std::make_unique<FairKind>();
        m_driver = std::make_unique<KindDriver>(*m_kind, *m_conn);
    }
    void init() { cmd({"FLUSHALL"}); }
    void cleanupTestCase() {
        m_driver.reset();
        m_conn.reset();
        m_server.stop();
    }

    void seedStateReadExactly() {
        QCOMPARE(seedAcquire("semname", "a", 2), 1);
        QCOMPARE(seedAcquire("semname", "b", 2), 2);
        QCOMPARE(seedAcquire("semname", "c", 2), -1); // the seed's loser removes itself
        const double scoreA = cmd({"ZSCORE", "semname", "a"}).toDouble().value_or(0);
        const core::Snapshot snap = m_driver->snapshot(m_driver->ref(QStringLiteral("semname"), 2, 10000));
        QVERIFY2(snap.warnings.isEmpty(), qPrintable(snap.warnings.join(QStringLiteral("; "))));
        QCOMPARE(snap.limit, std::optional<qint64>(2));
        QCOMPARE(snap.limitSource, core::LimitSource::Profile);
        QCOMPARE(snap.counter, std::optional<qint64>(3));
        QCOMPARE(snap.holders.size(), 2);
        const core::Holder &a = snap.holders.at(0);
        QCOMPARE(a.id, QStringLiteral("a"));
        QCOMPARE(a.rank, std::optional<qint64>(0));
        QCOMPARE(a.token, std::optional<qint64>(1));
        QCOMPARE(a.state, core::HolderState::Live);
        QCOMPARE(a.acquiredAtMs, std::optional<qint64>(qint64(scoreA * 1000)));
        QCOMPARE(a.expiresAtMs, std::optional<qint64>(qint64(scoreA * 1000) + 10000));
        const qint64 ttl = *a.ttlMs(snap.serverNowMs);
        QVERIFY2(ttl > 7000 && ttl <= 11000, qPrintable(QString::number(ttl))); // whole-second client scores
        QCOMPARE(snap.holders.at(1).id, QStringLiteral("b"));
        QCOMPARE(snap.holders.at(1).rank, std::optional<qint64>(1));
        QCOMPARE(snap.holders.at(1).token, std::optional<qint64>(2));
    }

    void limitTooLowShowsOverLimit() {
        QCOMPARE(seedAcquire("s", "a", 5), 1);
        QCOMPARE(seedAcquire("s", "b", 5), 2);
        const core::Snapshot snap = m_driver->snapshot(m_driver->ref(QStringLiteral("s"), 1));
        QCOMPARE(holderById(snap, QStringLiteral("b"))->state, core::HolderState::OverLimit);
    }

    // A healthy semaphore without a profile limit is not a problem: the limit is inferred from the
    // holders (at least that many), marked inferred and explained in a note, never a warning.
    void unknownLimitIsInferredNotWarned() {
        QCOMPARE(seedAcquire("s", "a", 5), 1);
        QCOMPARE(seedAcquire("s", "b", 5), 2);
        const core::Snapshot noLimit = m_driver->snapshot(m_driver->ref(QStringLiteral("s")));
        QVERIFY2(noLimit.warnings.isEmpty(), qPrintable(noLimit.warnings.join(QStringLiteral("; "))));
        QCOMPARE(noLimit.limitSource, core::LimitSource::Inferred);
        QCOMPARE(noLimit.limit, std::optional<qint64>(2));
        QVERIFY(noLimit.notes.join(u' ').contains(QStringLiteral("not stored in Redis")));
        for (const core::Holder &h : noLimit.holders)
            QCOMPARE(h.state, core::HolderState::Live);
        // Nobody holds: nothing to infer from, still no warning.
        cmd({"FLUSHALL"});
        const core::Snapshot empty = m_driver->snapshot(m_driver->ref(QStringLiteral("s")));
        QVERIFY(empty.warnings.isEmpty());
        QCOMPARE(empty.limitSource, core::LimitSource::Unknown);
        QVERIFY(!empty.notes.isEmpty());
        // Where the limit lives: set limit says it is a profile value and writes nothing.
        const auto r = test::awaitKind<core::MaintenanceResult>(
            [&](auto done) { m_kind->setLimit(*m_conn, m_driver->ref(QStringLiteral("s")), 4, done); });
        QVERIFY(!r.ok);
        QVERIFY2(r.message.contains(QStringLiteral("profile value")), qPrintable(r.message));
        QCOMPARE(cmd({"DBSIZE"}).toInteger(), std::optional<qint64>(0));
    }

    void semscopeAndSeedShareASemaphore() {
        const auto r = m_driver->ref(QStringLiteral("semname"), 3, 10000);
        QCOMPARE(seedAcquire("semname", "a", 3), 1);
        QCOMPARE(seedAcquire("semname", "b", 3), 2);
        const core::AcquireResult mine = m_driver->acquire(r, QStringLiteral("semscope"));
        QCOMPARE(mine.status, core::AcquireResult::Status::Granted);
        QCOMPARE(mine.grant.token, std::optional<qint64>(3));
        QCOMPARE(mine.grant.rank, std::optional<qint64>(2));
        QVERIFY(mine.grant.expiresAtMs.has_value());
        // Same layout as the seed writes: seconds in `semname`, the counter in `:owner`.
        const double score = cmd({"ZSCORE", "semname", "semscope"}).toDouble().value_or(0);
        QVERIFY(std::abs(score - double(QDateTime::currentSecsSinceEpoch())) < 5);
        QCOMPARE(cmd({"ZSCORE", "semname:owner", "semscope"}).str, QByteArray("3"));
        // Full for the seed's client and for semscope.
        QCOMPARE(seedAcquire("semname", "c", 3), -1);
        const core::AcquireResult busy = m_driver->acquire(r, QStringLiteral("other"));
        QCOMPARE(busy.status, core::AcquireResult::Status::Busy);
        QCOMPARE(busy.holders.size(), 3);
        QCOMPARE(cmd({"ZCARD", "semname:owner"}).toInteger(), 3); // the loser left nothing behind
        // The seed refreshes semscope's entry as its own (ZADD XX), semscope refreshes after it.
        seedRefresh("semname", "semscope");
        const core::RefreshResult refreshed = m_driver->refresh(mine.grant);
        QCOMPARE(refreshed.status, core::RefreshResult::Status::Ok);
        // semscope's release frees the slot for the seed's client.
        QCOMPARE(m_driver->release(mine.grant).status, core::ReleaseResult::Status::Ok);
        QCOMPARE(seedAcquire("semname", "c", 3), 6); // 4 and 5 went to the two losers above
        // A refresh after release is lost, not a re-acquire.
        QCOMPARE(m_driver->refresh(mine.grant).status, core::RefreshResult::Status::Lost);
        QCOMPARE(cmd({"ZSCORE", "semname", "semscope"}).type, RedisReply::Type::Nil);
        // The seed's own release of its holder is read back.
        QCOMPARE(seedRelease("semname", "a"), 1);
        const core::Snapshot snap = m_driver->snapshot(r);
        QVERIFY2(snap.warnings.isEmpty(), qPrintable(snap.warnings.join(QStringLiteral("; "))));
        QCOMPARE(snap.holders.size(), 2);
        QCOMPARE(snap.counter, std::optional<qint64>(6));
    }

    void timedOutHoldersArePurged() {
        // A holder whose acquire time is 20 s in the past (the seed's timeout is 10 s).
        const QByteArray old = QByteArray::number(QDateTime::currentSecsSinceEpoch() - 20);
        cmd({"ZADD", "t", old, "stale"});
        cmd({"ZADD", "t:owner", "1", "stale"});
        cmd({"SET", "t:counter", "1"});
        const auto r = m_driver->ref(QStringLiteral("t"), 1, 10000);
        core::Snapshot snap = m_driver->snapshot(r);
        QCOMPARE(holderById(snap, QStringLiteral("stale"))->state, core::HolderState::ExpiredPresent);
        QVERIFY2(snap.warnings.contains(QStringLiteral("1 holder timed out but is still recorded (the next "
                                                       "acquire or a purge removes it)")),
                 qPrintable(snap.warnings.join(QLatin1Char('\n'))));
        // semscope's acquire purges it exactly as the seed's first round trip would.
        const core::AcquireResult a = m_driver->acquire(r, QStringLiteral("fresh"));
        QCOMPARE(a.status, core::AcquireResult::Status::Granted);
        QCOMPARE(a.grant.token, std::optional<qint64>(2));
        snap = m_driver->snapshot(r);
        QVERIFY(!holderById(snap, QStringLiteral("stale")));
        QCOMPARE(cmd({"ZSCORE", "t:owner", "stale"}).type, RedisReply::Type::Nil);
        // Explicit purge.
        cmd({"ZADD", "t", old, "stale2"});
        cmd({"ZADD", "t:owner", "9", "stale2"});
        const core::MaintenanceResult purged = m_driver->purge(r);
        QVERIFY(purged.ok);
        QCOMPARE(purged.affected, 1);
        QCOMPARE(purged.message, QStringLiteral("removed 1 timed-out holder"));
        QCOMPARE(cmd({"ZSCORE", "t:owner", "stale2"}).type, RedisReply::Type::Nil);
    }

    void forceReleaseComparesTheCounterSeen() {
        const auto r = m_driver->ref(QStringLiteral("f"), 2, 10000);
        QCOMPARE(seedAcquire("f", "a", 2), 1);
        const core::Holder observed = *holderById(m_driver->snapshot(r), QStringLiteral("a"));
        QCOMPARE(observed.token, std::optional<qint64>(1));
        // `a` releases and re-acquires (new counter) before the operator acts.
        QCOMPARE(seedRelease("f", "a"), 1);
        QCOMPARE(seedAcquire("f", "a", 2), 2);
        QCOMPARE(m_driver->forceRelease(r, observed).status, core::ForceReleaseResult::Status::Changed);
        QCOMPARE(cmd({"ZSCORE", "f:owner", "a"}).str, QByteArray("2")); // nothing removed
        QVERIFY(!cmd({"ZSCORE", "f", "a"}).isNil());
        const core::Holder now = *holderById(m_driver->snapshot(r), QStringLiteral("a"));
        QCOMPARE(m_driver->forceRelease(r, now).status, core::ForceReleaseResult::Status::Released);
        QCOMPARE(cmd({"ZCARD", "f:owner"}).toInteger(), 0);
        QCOMPARE(cmd({"ZCARD", "f"}).toInteger(), 0);
        QCOMPARE(m_driver->forceRelease(r, now).status, core::ForceReleaseResult::Status::Gone);
    }

    // The book's clients (listing 6.17) and the seed's take an outer lock around their round trips.
    // While one holds it, between its INCR and its ZADD, a grant would admit both: two holders on a
    // limit of 1. Driven here with the book client's own commands, transactions as redis-py sends
    // them (pipeline(True) is MULTI/EXEC).
    void acquireHonoursTheOuterLock_data() {
        QTest::addColumn<QByteArray>("lockKey");
        QTest::addColumn<QString>("profileKey");
        QTest::newRow("the book's lock:S") << QByteArray("lock:sem") << QString();
        QTest::newRow("seed 001's <S>lock") << QByteArray("semlock") << QString();
        QTest::newRow("named in the profile") << QByteArray("locks/sem") << QStringLiteral("locks/sem");
    }
    void acquireHonoursTheOuterLock() {
        QFETCH(QByteArray, lockKey);
        QFETCH(QString, profileKey);
        core::SemaphoreRef r = m_driver->ref(QStringLiteral("sem"), 1, 10000);
        r.profile.outerLockKey = profileKey;
        // acquire_lock(conn, 'sem'): SETNX lock:sem <identifier>.
        QCOMPARE(cmd({"SETNX", lockKey, "book-lock-id"}).toInteger(), 1);
        // acquire_fair_semaphore, first transaction: purge, intersect, INCR.
        const qint64 nowS = QDateTime::currentSecsSinceEpoch();
        QCOMPARE(cmd({"MULTI"}).str, QByteArray("OK"));
        cmd({"ZREMRANGEBYSCORE", "sem", "-inf", QByteArray::number(nowS - 10)});
        cmd({"ZINTERSTORE", "sem:owner", "2", "sem:owner", "sem", "WEIGHTS", "1", "0"});
        cmd({"INCR", "sem:counter"});
        const RedisReply purged = cmd({"EXEC"});
        QCOMPARE(purged.elements.size(), 3);
        const QByteArray counter = QByteArray::number(purged.elements.at(2).toInteger().value_or(-1));

        // semscope comes in now: nothing is granted and nothing is written.
        const core::AcquireResult mine = m_driver->acquire(r, QStringLiteral("semscope"));
        QCOMPARE(mine.status, core::AcquireResult::Status::Busy);
        QVERIFY2(mine.error.contains(QString::fromUtf8(lockKey + " held by book-lock-id")),
                 qPrintable(mine.error));
        QCOMPARE(cmd({"GET", "sem:counter"}).str, counter);
        QCOMPARE(cmd({"EXISTS", "sem", "sem:owner"}).toInteger(), 0);

        // Second transaction: both ZADDs and the rank; the book client holds the semaphore.
        QCOMPARE(cmd({"MULTI"}).str, QByteArray("OK"));
        cmd({"ZADD", "sem", QByteArray::number(nowS), "book"});
        cmd({"ZADD", "sem:owner", counter, "book"});
        cmd({"ZRANK", "sem:owner", "book"});
        const RedisReply ranked = cmd({"EXEC"});
        QCOMPARE(ranked.elements.size(), 3);
        QCOMPARE(ranked.elements.at(2).toInteger(), 0);
        // release_lock: WATCH, GET, MULTI DEL EXEC.
        cmd({"WATCH", lockKey});
        QCOMPARE(cmd({"GET", lockKey}).str, QByteArray("book-lock-id"));
        cmd({"MULTI"});
        cmd({"DEL", lockKey});
        QCOMPARE(cmd({"EXEC"}).elements.size(), 1);

        // With the lock free semscope is refused for the real reason: the one slot is taken.
        const core::AcquireResult after = m_driver->acquire(r, QStringLiteral("semscope"));
        QCOMPARE(after.status, core::AcquireResult::Status::Busy);
        QVERIFY2(after.error.isEmpty(), qPrintable(after.error));
        const core::Snapshot snap = m_driver->snapshot(r);
        QCOMPARE(snap.countInState(core::HolderState::Live), 1);
        QCOMPARE(snap.holders.constFirst().id, QStringLiteral("book"));
    }

    // A waiting acquire (the store's) waits while the outer lock is held and gets in once the
    // client lets it go.
    void waitingAcquireWaitsForTheOuterLock() {
        RedisSemaphoreStore store(m_server.settings());
        cmd({"SET", "lock:w", "book-lock-id", "PX", "60000"});
        const qint64 attemptsBefore = scriptCalls();
        core::AcquireRequest req;
        req.holder = QStringLiteral("waiter");
        req.waitMs = 20000;
        auto result = std::make_shared<std::optional<core::AcquireResult>>();
        store.acquire(m_driver->ref(QStringLiteral("w"), 1, 10000), req, core::Cancellation(),
                      [result](const core::AcquireResult &r) { *result = r; });
        // It has tried and been turned away at least once, and holds nothing.
        QTRY_VERIFY_WITH_TIMEOUT(scriptCalls() > attemptsBefore + 1, 15000);
        QVERIFY(!result->has_value());
        QCOMPARE(cmd({"EXISTS", "w:owner"}).toInteger(), 0);
        cmd({"DEL", "lock:w"});
        QTRY_VERIFY_WITH_TIMEOUT(result->has_value(), 15000);
        QCOMPARE(result->value().status, core::AcquireResult::Status::Granted);
        QCOMPARE(cmd({"ZCARD", "w:owner"}).toInteger(), 1);
    }

    void badData_data() {
        QTest::addColumn<QList<QList<QByteArray>>>("setup");
        QTest::addColumn<QString>("warning");
        using Cmds = QList<QList<QByteArray>>;
        const QByteArray now = nowSeconds();
        QTest::newRow("counter is garbage")
            << Cmds{{"ZADD", "B", now, "a"}, {"ZADD", "B:owner", "1", "a"}, {"SET", "B:counter", "seven"}}
            << QStringLiteral("B:counter is not an integer");
        QTest::newRow("S of wrong type")
            << Cmds{{"SET", "B", "x"}, {"ZADD", "B:owner", "1", "a"}, {"SET", "B:counter", "1"}}
            << QStringLiteral("B is a string, expected a zset");
        QTest::newRow("owner scores not counters")
            << Cmds{{"ZADD", "B", now, "a"}, {"ZADD", "B:owner", "1.5", "a"}, {"SET", "B:counter", "1"}}
            << QStringLiteral("B:owner has 1 score that is not a counter");
        QTest::newRow("non-numeric scores")
            << Cmds{{"ZADD", "B", "inf", "a"}, {"ZADD", "B:owner", "1", "a"}, {"SET", "B:counter", "1"}}
            << QStringLiteral("B has 1 score that is not a number");
        QTest::newRow("stuck acquire lock") << Cmds{{"ZADD", "B", now, "a"},
                                                    {"ZADD", "B:owner", "1", "a"},
                                                    {"SET", "B:counter", "1"},
                                                    {"SET", "lock:B", "x"}}
                                            << QStringLiteral("lock:B has no TTL");
        QTest::newRow("10 MB counter") << Cmds{{"ZADD", "B", now, "a"},
                                               {"ZADD", "B:owner", "1", "a"},
                                               {"SET", "B:counter", QByteArray(10 << 20, '7')}}
                                       << QStringLiteral("10.0 MB");
    }
    void badData() {
        QFETCH(QList<QList<QByteArray>>, setup);
        QFETCH(QString, warning);
        for (const auto &c : setup)
            QVERIFY(!cmd(c).isError());
        QCOMPARE(seedAcquire("ok", "a", 2), 1);

        const auto bad = m_driver->ref(QStringLiteral("B"), 2, 10000);
        const core::Snapshot snap = m_driver->snapshot(bad);
        QVERIFY2(warningContains(snap, warning), qPrintable(snap.warnings.join(QStringLiteral("; "))));
        const core::AcquireResult attempt = m_driver->acquire(bad, QStringLiteral("probe"));
        if (attempt.status == core::AcquireResult::Status::Error)
            QVERIFY(!attempt.error.isEmpty());

        const auto ok = m_driver->ref(QStringLiteral("ok"), 2, 10000);
        QVERIFY(m_driver->snapshot(ok).warnings.isEmpty());
        QCOMPARE(m_driver->acquire(ok, QStringLiteral("b")).status, core::AcquireResult::Status::Granted);
    }

    void acquireWithoutLimitIsRefused() {
        const core::AcquireResult r =
            m_driver->acquire(m_driver->ref(QStringLiteral("x")), QStringLiteral("a"));
        QCOMPARE(r.status, core::AcquireResult::Status::Error);
        QVERIFY(r.error.contains(QStringLiteral("limit")));
        QCOMPARE(cmd({"EXISTS", "x", "x:owner", "x:counter"}).toInteger(), 0);
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestFairKind)
#include "tst_fairkind.moc"
