// The `zset` layout (expiring ZSET holder -> expiry ms) against a real redis-server, interoperating
// with the seed client's own add-then-rank sequence (seed 003, non-fair variant).
#include "SeedKindTest.h"
#include "TestMain.h"
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

    // node redis-semaphore's acquire script, as the library sends it (swarthy/redis-semaphore
    // src/semaphore/acquire/lua.ts): scores are acquire times in ms from the client's clock, and every
    // acquire resets the key's PEXPIRE.
    bool nodeAcquire(const QByteArray &key, const QByteArray &id, int limit, qint64 lockTimeoutMs) {
        static const QByteArray script = "local key = KEYS[1]\n"
                                         "local limit = tonumber(ARGV[1])\n"
                                         "local identifier = ARGV[2]\n"
                                         "local lockTimeout = tonumber(ARGV[3])\n"
                                         "local now = tonumber(ARGV[4])\n"
                                         "local expiredTimestamp = now - lockTimeout\n"
                                         "redis.call('zremrangebyscore', key, '-inf', expiredTimestamp)\n"
                                         "if redis.call('zcard', key) < limit then\n"
                                         "  redis.call('zadd', key, now, identifier)\n"
                                         "  redis.call('pexpire', key, lockTimeout)\n"
                                         "  return 1\n"
                                         "else\n"
                                         "  return 0\n"
                                         "end\n";
        return cmd({"EVAL", script, "1", key, QByteArray::number(limit), id,
                    QByteArray::number(lockTimeoutMs),
                    QByteArray::number(QDateTime::currentMSecsSinceEpoch())})
                   .toInteger() == 1;
    }

    bool member(const QByteArray &key, const QByteArray &id) { return !cmd({"ZSCORE", key, id}).isNil(); }
    qint64 scoreMs(const QByteArray &key, const QByteArray &id) {
        return qint64(cmd({"ZSCORE", key, id}).toDouble().value_or(0));
    }

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
        // A refresh never moves the expiry past the seed holder's (see leaseIsCappedAtTheLiveHolders);
        // the seed's client still sees the entry and ranks it.
        const core::RefreshResult refreshed = m_driver->refresh(mine.grant, 60000);
        QCOMPARE(refreshed.status, core::RefreshResult::Status::Ok);
        QVERIFY(*refreshed.expiresAtMs >= *mine.grant.expiresAtMs);
        QVERIFY(*refreshed.expiresAtMs <= scoreMs(key, "u1"));
        QVERIFY(!cmd({"ZRANK", key, "semscope"}).isNil());
        // The seed's release frees a slot for semscope, and semscope's for the seed.
        seedRelease(key, "u1");
        const core::AcquireResult second = m_driver->acquire(r, QStringLiteral("semscope-2"));
        QCOMPARE(second.status, core::AcquireResult::Status::Granted);
        QCOMPARE(m_driver->release(mine.grant).status, core::ReleaseResult::Status::Ok);
        QVERIFY(seedAcquire(key, "u3", 2));
        QCOMPARE(m_driver->release(mine.grant).status, core::ReleaseResult::Status::NotHeld);
    }

    // Issue 14 item 1: semscope wrote a millisecond score into an empty set, then a client scoring in
    // seconds joined. The old 'auto' unit came from the highest score only (ms), so the next acquire
    // purged the seconds holder as long expired and admitted a third holder on limit 2.
    void automaticUnitNeverEvictsLiveHolders() {
        const QByteArray key = "zs";
        const auto r = m_driver->ref(QString::fromLatin1(key), 2);
        const core::AcquireResult first = m_driver->acquire(r, QStringLiteral("sem1"), 60000);
        QCOMPARE(first.status, core::AcquireResult::Status::Granted);
        cmd({"ZADD", key, QByteArray::number(QDateTime::currentSecsSinceEpoch() + 60), "seedA"});

        const core::AcquireResult second = m_driver->acquire(r, QStringLiteral("sem2"), 60000);
        QCOMPARE(second.status, core::AcquireResult::Status::Error);
        QVERIFY2(second.error.contains(QStringLiteral("mixes second and millisecond scores")) &&
                     second.error.contains(QStringLiteral("seedA")) &&
                     second.error.contains(QStringLiteral("sem1")),
                 qPrintable(second.error));
        QVERIFY(member(key, "seedA"));
        QCOMPARE(cmd({"ZCARD", key}).toInteger(), 2);

        const core::RefreshResult refreshed = m_driver->refresh(first.grant, 60000);
        QCOMPARE(refreshed.status, core::RefreshResult::Status::Error);
        QVERIFY2(refreshed.error.contains(QStringLiteral("mixes")), qPrintable(refreshed.error));
        const core::MaintenanceResult purged = m_driver->purge(r);
        QVERIFY(!purged.ok);
        QVERIFY2(purged.message.contains(QStringLiteral("mixes")), qPrintable(purged.message));
        QVERIFY(member(key, "seedA"));

        // Show warns, and reads each member as what it is: both live, none over the limit.
        const core::Snapshot snap = m_driver->snapshot(r);
        QVERIFY2(
            warningContains(snap, QStringLiteral("mixes second and millisecond scores (1 in seconds, 1 in")),
            qPrintable(snap.warnings.join(QStringLiteral("; "))));
        QCOMPARE(holderById(snap, QStringLiteral("seedA"))->state, core::HolderState::Live);
        QCOMPARE(holderById(snap, QStringLiteral("sem1"))->state, core::HolderState::Live);
        const qint64 ttl = *holderById(snap, QStringLiteral("seedA"))->ttlMs(snap.serverNowMs);
        QVERIFY2(ttl > 50000 && ttl <= 61000, qPrintable(QString::number(ttl)));
    }

    // The unit comes from every member, not the highest score: a 'never expires' member on top
    // (no time in either unit) used to make the seconds holders below it read as milliseconds, long
    // expired. Only the one that did expire goes, and semscope writes seconds.
    void unitComesFromAllMembers() {
        const QByteArray key = "all";
        const qint64 nowS = QDateTime::currentSecsSinceEpoch();
        cmd({"ZADD", key, QByteArray::number(nowS - 5), "old", QByteArray::number(nowS + 300), "live", "1e15",
             "forever"});
        const auto r = m_driver->ref(QString::fromLatin1(key), 4);
        const core::AcquireResult a = m_driver->acquire(r, QStringLiteral("mine"), 10000);
        QCOMPARE(a.status, core::AcquireResult::Status::Granted);
        QVERIFY(!member(key, "old"));
        QVERIFY(member(key, "live"));
        QVERIFY(member(key, "forever"));
        QVERIFY(std::abs(cmd({"ZSCORE", key, "mine"}).toDouble().value_or(0) - double(nowS + 10)) < 5);
    }

    // An operator's unit that the members contradict is a conflict too: nothing is written or removed.
    void profileUnitContradictedByMembersRefusesWrites() {
        const QByteArray key = "prof";
        const qint64 nowS = QDateTime::currentSecsSinceEpoch();
        cmd({"ZADD", key, QByteArray::number(nowS + 60), "s1", QByteArray::number(nowS - 60), "s0"});
        auto r = m_driver->ref(QString::fromLatin1(key), 3);
        r.profile.scoreUnit = core::ScoreUnit::Milliseconds;
        const core::AcquireResult a = m_driver->acquire(r, QStringLiteral("mine"));
        QCOMPARE(a.status, core::AcquireResult::Status::Error);
        QVERIFY2(a.error.contains(QStringLiteral("the profile gives prof scores in milliseconds")),
                 qPrintable(a.error));
        QVERIFY(!m_driver->purge(r).ok);
        QCOMPARE(cmd({"ZCARD", key}).toInteger(), 2);
        QVERIFY(warningContains(m_driver->snapshot(r), QStringLiteral("but they read as seconds")));
    }

    // A score that is no time at all (0, a counter) has no certain expiry: it counts, and stays.
    void scoresThatAreNotTimesAreNeverPurged() {
        const QByteArray key = "odd";
        const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
        cmd({"ZADD", key, "7", "counter", QByteArray::number(nowMs - 5000), "gone",
             QByteArray::number(nowMs + 60000), "live"});
        const auto r = m_driver->ref(QString::fromLatin1(key), 2);
        const core::MaintenanceResult purged = m_driver->purge(r);
        QVERIFY2(purged.ok, qPrintable(purged.message));
        QCOMPARE(purged.affected, 1);
        QCOMPARE(purged.message, QStringLiteral("removed 1 expired holder"));
        QVERIFY(member(key, "counter"));
        QCOMPARE(m_driver->acquire(r, QStringLiteral("x")).status, core::AcquireResult::Status::Busy);
        QVERIFY(member(key, "counter"));
        // Show says the same: a holder with no known expiry, not one expired in 1970.
        const core::Snapshot snap = m_driver->snapshot(r);
        const core::Holder *counter = holderById(snap, QStringLiteral("counter"));
        QCOMPARE(counter->state, core::HolderState::Live);
        QVERIFY(!counter->expiresAtMs);
        QVERIFY2(warningContains(
                     snap, QStringLiteral("score is no time in seconds or milliseconds (1, e.g. counter)")),
                 qPrintable(snap.warnings.join(QStringLiteral("; "))));
    }

    // Issue 14 item 10: node redis-semaphore (ioredis keyPrefix "app:") scores acquire times and keeps
    // a key TTL. Read as expiries they are all in the past; purge took every live permit.
    void acquireTimesUnderAKeyTtlAreNeverRemoved() {
        const QByteArray key = "app:semaphore:uploads";
        QVERIFY(nodeAcquire(key, "n1", 3, 10000));
        QVERIFY(nodeAcquire(key, "n2", 3, 10000));
        cmd({"ZADD", key, QByteArray::number(QDateTime::currentMSecsSinceEpoch() - 1),
             "n1"}); // past for sure
        const auto r = m_driver->ref(QString::fromLatin1(key), 3);
        const core::MaintenanceResult purged = m_driver->purge(r);
        QVERIFY(!purged.ok);
        QVERIFY2(purged.message.contains(QStringLiteral("acquire or refresh times")),
                 qPrintable(purged.message));
        const core::AcquireResult a = m_driver->acquire(r, QStringLiteral("mine"));
        QCOMPARE(a.status, core::AcquireResult::Status::Error);
        QVERIFY2(a.error.contains(QStringLiteral("node-semaphore")), qPrintable(a.error));
        QCOMPARE(cmd({"ZCARD", key}).toInteger(), 2);
        QVERIFY(nodeAcquire(key, "n3", 3, 10000)); // the library's own clients go on as before
    }

    // Issue 14 item 8: seed clients rank by expiry. A semscope holder whose lease outlives theirs is
    // overtaken by the next seed client, which then ranks inside the limit on a full set.
    void leaseIsCappedAtTheLiveHolders() {
        const QByteArray key = "cap";
        QVERIFY(seedAcquire(key, "s1", 3, 10));
        QVERIFY(seedAcquire(key, "s2", 3, 10));
        const qint64 latestSeed = std::max(scoreMs(key, "s1"), scoreMs(key, "s2"));
        const auto r = m_driver->ref(QString::fromLatin1(key), 3);
        const core::AcquireResult mine = m_driver->acquire(r, QStringLiteral("semscope"), 30000);
        QCOMPARE(mine.status, core::AcquireResult::Status::Granted);
        QCOMPARE(mine.grant.expiresAtMs, std::optional<qint64>(scoreMs(key, "semscope")));
        QVERIFY(*mine.grant.expiresAtMs <= latestSeed);
        QVERIFY(mine.grant.details.value(QStringLiteral("lease_capped"))
                    .toString()
                    .contains(QStringLiteral("live holders' latest expiry")));
        // The next seed client, with its 10 s lease, is last in line now and backs out.
        QVERIFY(!seedAcquire(key, "s3", 3, 10));
        QCOMPARE(cmd({"ZCARD", key}).toInteger(), 3);
        // A refresh is capped the same way.
        const core::RefreshResult refreshed = m_driver->refresh(mine.grant, 60000);
        QCOMPARE(refreshed.status, core::RefreshResult::Status::Ok);
        QVERIFY(*refreshed.expiresAtMs <= latestSeed);
        QCOMPARE(refreshed.warnings.size(), 1);
        QVERIFY2(refreshed.warnings.first().contains(QStringLiteral("live holders' latest expiry")),
                 qPrintable(refreshed.warnings.first()));
        QVERIFY(!seedAcquire(key, "s4", 3, 10));
    }

    // Where the profile gives the clients' lease, that is the cap (also on an empty set).
    void leaseIsCappedAtTheProfilesClientLease() {
        const QByteArray key = "capped-by-profile";
        const auto r = m_driver->ref(QString::fromLatin1(key), 2, 10000);
        const core::AcquireResult mine = m_driver->acquire(r, QStringLiteral("semscope"), 30000);
        QCOMPARE(mine.status, core::AcquireResult::Status::Granted);
        const qint64 lease = *mine.grant.expiresAtMs - QDateTime::currentMSecsSinceEpoch();
        QVERIFY2(lease > 5000 && lease <= 10000, qPrintable(QString::number(lease)));
        QVERIFY(mine.grant.details.contains(QStringLiteral("lease_capped")));
        // Said where the grant is shown (CLI line, acquire dialog), not only in the JSON details.
        QCOMPARE(mine.grant.warnings().size(), 1);
        QVERIFY2(mine.grant.warnings().first().startsWith(
                     QStringLiteral("lease shorter than the 30.0 s asked: capped at the "
                                    "clients' lease")),
                 qPrintable(mine.grant.warnings().first()));
        const core::AcquireResult shorter = m_driver->acquire(r, QStringLiteral("short"), 5000);
        QCOMPARE(shorter.status, core::AcquireResult::Status::Granted);
        QVERIFY(!shorter.grant.details.contains(QStringLiteral("lease_capped")));
        QVERIFY(shorter.grant.warnings().isEmpty());
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

SEMSCOPE_TEST_GUILESS_MAIN(TestZsetKind)
#include "tst_zsetkind.moc"
