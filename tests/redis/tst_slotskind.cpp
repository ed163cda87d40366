// The `slots` layout against a real redis-server, interoperating with the seed client's own Lua
// scripts (seed 000, in tests/redis/seeds/), plus compare-and-act and bad data.
#include "SeedKindTest.h"
#include "TestMain.h"
#include "redis/kinds/SlotsKind.h"

#include <QtTest>

using namespace semscope;
using namespace semscope::redis;
using semscope::test::holderById;
using semscope::test::KindDriver;
using semscope::test::warningContains;

class TestSlotsKind : public QObject {
    Q_OBJECT

private:
    test::RedisServer m_server;
    std::unique_ptr<RedisConnection> m_conn;
    std::unique_ptr<SlotsKind> m_kind;
    std::unique_ptr<KindDriver> m_driver;
    QByteArray m_seedAcquire;
    QByteArray m_seedRelease;

    RedisReply cmd(const QList<QByteArray> &args) { return m_server.command(args); }
    // The seed's lock(): EVAL of its script with the semaphore name as the only key.
    qint64 seedAcquire(const QByteArray &name, const QByteArray &ip, int count) {
        return cmd({"EVAL", m_seedAcquire, "1", name, ip, QByteArray::number(count)})
            .toInteger()
            .value_or(-99);
    }
    qint64 seedRelease(const QByteArray &name, const QByteArray &ip) {
        return cmd({"EVAL", m_seedRelease, "1", name, ip}).toInteger().value_or(-99);
    }
    QList<QByteArray> list(const QByteArray &key) {
        QList<QByteArray> out;
        for (const RedisReply &r : cmd({"LRANGE", key, "0", "-1"}).elements)
            out << r.str;
        return out;
    }

private Q_SLOTS:
    void initTestCase() {
        m_seedAcquire = test::readTestFile(QFINDTESTDATA("seeds/slots_seed_acquire.lua"));
        m_seedRelease = test::readTestFile(QFINDTESTDATA("seeds/slots_seed_release.lua"));
        QVERIFY(!m_seedAcquire.isEmpty());
        QVERIFY(!m_seedRelease.isEmpty());
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        m_conn = std::make_unique<RedisConnection>(m_server.settings());
        m_conn->open();
        m_kind = std::make_unique<SlotsKind>();
        m_driver = std::make_unique<KindDriver>(*m_kind, *m_conn);
    }
    void init() { cmd({"FLUSHALL"}); }
    void cleanupTestCase() {
        m_driver.reset();
        m_conn.reset();
        m_server.stop();
    }

    void seedStateReadExactly() {
        QCOMPARE(seedAcquire("R", "10.0.0.1", 3), 1);
        QCOMPARE(seedAcquire("R", "10.0.0.2", 3), 2);
        QCOMPARE(seedAcquire("R", "10.0.0.1", 3), 0); // the seed's "already held"
        const core::Snapshot snap = m_driver->snapshot(m_driver->ref(QStringLiteral("R")));
        QVERIFY2(snap.warnings.isEmpty(), qPrintable(snap.warnings.join(QStringLiteral("; "))));
        QCOMPARE(snap.limit, std::optional<qint64>(3));
        QCOMPARE(snap.limitSource, core::LimitSource::Stored);
        QCOMPARE(snap.holders.size(), 2);
        QCOMPARE(snap.holders.at(0).id, QStringLiteral("10.0.0.1"));
        QCOMPARE(snap.holders.at(0).slot, std::optional<qint64>(1));
        QCOMPARE(snap.holders.at(1).id, QStringLiteral("10.0.0.2"));
        QCOMPARE(snap.holders.at(1).slot, std::optional<qint64>(2));
        // One convention for ranks (from 0, a place in an order): a slot number is not one, so a
        // slots holder has a slot and no rank (it used to show its slot as a rank counted from 1).
        QVERIFY(!snap.holders.at(0).rank && !snap.holders.at(1).rank);
        QVERIFY(!snap.holders.at(0).expiresAtMs); // no TTL in the seed's layout
        QCOMPARE(snap.freeSlots, QList<qint64>{3});
        QVERIFY(snap.serverNowMs > 0);
        QCOMPARE(snap.keys.size(), 3);
    }

    void semscopeAndSeedShareASemaphore() {
        const auto r = m_driver->ref(QStringLiteral("R"));
        QCOMPARE(seedAcquire("R", "10.0.0.1", 3), 1);
        QCOMPARE(seedAcquire("R", "10.0.0.2", 3), 2);
        // semscope takes the last slot of the foreign semaphore without annotating it.
        const core::AcquireResult mine = m_driver->acquire(r, QStringLiteral("semscope-1"));
        QCOMPARE(mine.status, core::AcquireResult::Status::Granted);
        QCOMPARE(mine.grant.slot, std::optional<qint64>(3));
        QVERIFY(!mine.grant.rank);
        QVERIFY(!mine.grant.expiresAtMs);
        QVERIFY(!mine.grant.token);
        // The --ttl asked for could not be kept: the grant says so.
        QVERIFY2(mine.grant.details.value(QStringLiteral("warnings"))
                     .toStringList()
                     .join(' ')
                     .contains(QStringLiteral("no lease taken")),
                 qPrintable(mine.grant.details.value(QStringLiteral("warnings")).toStringList().join(' ')));
        QCOMPARE(cmd({"EXISTS", "R|lease"}).toInteger(), 0);
        // The seed sees it full, and semscope sees who holds what.
        QCOMPARE(seedAcquire("R", "10.0.0.3", 3), -1);
        const core::AcquireResult busy = m_driver->acquire(r, QStringLiteral("semscope-2"));
        QCOMPARE(busy.status, core::AcquireResult::Status::Busy);
        QCOMPARE(busy.holders.size(), 3);
        // semscope's release gives the slot back where the seed finds it.
        QCOMPARE(m_driver->release(mine.grant).status, core::ReleaseResult::Status::Ok);
        QCOMPARE(seedAcquire("R", "10.0.0.3", 3), 3);
        // The seed's release of its own holder, read back by semscope.
        QCOMPARE(seedRelease("R", "10.0.0.1"), 1);
        const core::Snapshot snap = m_driver->snapshot(r);
        QVERIFY2(snap.warnings.isEmpty(), qPrintable(snap.warnings.join(QStringLiteral("; "))));
        QCOMPARE(snap.freeSlots, QList<qint64>{1});
        QVERIFY(!holderById(snap, QStringLiteral("10.0.0.1")));
        QCOMPARE(holderById(snap, QStringLiteral("10.0.0.3"))->slot, std::optional<qint64>(3));
        // Releasing a grant whose holder is gone is NotHeld, not a second RPUSH.
        QCOMPARE(m_driver->release(mine.grant).status, core::ReleaseResult::Status::NotHeld);
        QCOMPARE(list("R|list"), QList<QByteArray>{"1"});
    }

    void createdBySemscopeKeepsLeases() {
        const auto r = m_driver->ref(QStringLiteral("own"), 2);
        const core::AcquireResult a = m_driver->acquire(r, QStringLiteral("a"), 400);
        QCOMPARE(a.status, core::AcquireResult::Status::Granted);
        QCOMPARE(a.grant.slot, std::optional<qint64>(1));
        QVERIFY(a.grant.expiresAtMs.has_value());
        QCOMPARE(cmd({"ZSCORE", "own|lease", SlotsKind::kOwnedMarker}).str, QByteArray("inf"));
        // The seed's client still operates it: it takes the second slot (without a lease).
        QCOMPARE(seedAcquire("own", "10.0.0.9", 2), 2);
        core::Snapshot snap = m_driver->snapshot(r);
        QVERIFY2(snap.warnings.isEmpty(), qPrintable(snap.warnings.join(QStringLiteral("; "))));
        QCOMPARE(snap.details.value(QStringLiteral("lease")).toBool(), true);
        QVERIFY(holderById(snap, QStringLiteral("a"))->expiresAtMs.has_value());
        QVERIFY(!holderById(snap, QStringLiteral("10.0.0.9"))->expiresAtMs.has_value());
        // Refresh extends the lease while it runs.
        const core::RefreshResult refreshed = m_driver->refresh(a.grant, 400);
        QCOMPARE(refreshed.status, core::RefreshResult::Status::Ok);
        // Once a's lease runs out, the next acquire reclaims its slot; the seed's holder stays.
        QTRY_VERIFY_WITH_TIMEOUT(m_driver->snapshot(r).countInState(core::HolderState::ExpiredPresent) == 1,
                                 10000);
        const core::AcquireResult b = m_driver->acquire(r, QStringLiteral("b"), 30000);
        QCOMPARE(b.status, core::AcquireResult::Status::Granted);
        QCOMPARE(b.grant.slot, std::optional<qint64>(1));
        QCOMPARE(m_driver->refresh(a.grant).status, core::RefreshResult::Status::Lost);
        snap = m_driver->snapshot(r);
        QVERIFY(!holderById(snap, QStringLiteral("a")));
        QVERIFY(holderById(snap, QStringLiteral("10.0.0.9")));
        QCOMPARE(seedRelease("own", "10.0.0.9"), 1);
    }

    void purgeReclaimsExpiredLeases() {
        const auto r = m_driver->ref(QStringLiteral("p"), 3);
        QCOMPARE(m_driver->acquire(r, QStringLiteral("short"), 200).status,
                 core::AcquireResult::Status::Granted);
        QCOMPARE(m_driver->acquire(r, QStringLiteral("long"), 60000).status,
                 core::AcquireResult::Status::Granted);
        QTRY_VERIFY_WITH_TIMEOUT(m_driver->snapshot(r).countInState(core::HolderState::ExpiredPresent) == 1,
                                 10000);
        const core::MaintenanceResult purged = m_driver->purge(r);
        QVERIFY(purged.ok);
        QCOMPARE(purged.affected, 1);
        QCOMPARE(purged.message, QStringLiteral("reclaimed 1 holder whose lease ran out"));
        const core::Snapshot snap = m_driver->snapshot(r);
        QCOMPARE(snap.holders.size(), 1);
        QCOMPARE(snap.freeSlots.size(), 2);
    }

    void forceReleaseComparesTheSlotSeen() {
        const auto r = m_driver->ref(QStringLiteral("F"));
        QCOMPARE(seedAcquire("F", "10.0.0.1", 2), 1);
        const core::Snapshot seen = m_driver->snapshot(r);
        const core::Holder observed = *holderById(seen, QStringLiteral("10.0.0.1"));
        // Between the snapshot and the force-release the holder re-acquires and gets slot 2
        // (the seed's release pushes 1 behind the free 2, and its acquire pops from the left).
        QCOMPARE(seedRelease("F", "10.0.0.1"), 1);
        QCOMPARE(seedAcquire("F", "10.0.0.1", 2), 2);
        core::ForceReleaseResult result = m_driver->forceRelease(r, observed);
        QCOMPARE(result.status, core::ForceReleaseResult::Status::Changed);
        QCOMPARE(cmd({"HGET", "F|map", "10.0.0.1"}).str, QByteArray("2")); // nothing removed
        QCOMPARE(list("F|list"), QList<QByteArray>{"1"});
        // Acting on what is shown now works, and the slot goes back exactly once.
        const core::Holder now = *holderById(m_driver->snapshot(r), QStringLiteral("10.0.0.1"));
        result = m_driver->forceRelease(r, now);
        QCOMPARE(result.status, core::ForceReleaseResult::Status::Released);
        QCOMPARE(cmd({"HLEN", "F|map"}).toInteger(), 0);
        QCOMPARE(cmd({"LLEN", "F|list"}).toInteger(), 2);
        QCOMPARE(m_driver->forceRelease(r, now).status, core::ForceReleaseResult::Status::Gone);
        // The seed's client keeps working on what is left.
        QCOMPARE(seedAcquire("F", "10.0.0.5", 2), 1);
    }

    // Slot numbers are unique, always: a refill pushes the numbers actually missing, and a free-list
    // entry that is already held (or no slot number) is dropped, never granted.
    void acquireNeverHandsOutAHeldSlot_data() {
        QTest::addColumn<QList<QList<QByteArray>>>("setup");
        QTest::addColumn<qint64>("expectedSlot");
        using Cmds = QList<QList<QByteArray>>;
        QTest::newRow("leaked slot below a held one")
            << Cmds{{"HSET", "pr|map", "a", "1", "b", "3"}} << qint64(2);
        QTest::newRow("free list lists a held slot")
            << Cmds{{"HSET", "pr|map", "a", "1"}, {"RPUSH", "pr|list", "1", "2"}} << qint64(2);
        QTest::newRow("garbage at the head of the free list")
            << Cmds{{"HSET", "pr|map", "a", "1"}, {"RPUSH", "pr|list", "pear", "2"}} << qint64(2);
        QTest::newRow("a slot both free twice and held")
            << Cmds{{"HSET", "pr|map", "a", "2"}, {"RPUSH", "pr|list", "2", "2", "1"}} << qint64(1);
    }
    void acquireNeverHandsOutAHeldSlot() {
        QFETCH(QList<QList<QByteArray>>, setup);
        QFETCH(qint64, expectedSlot);
        for (const auto &c : setup)
            QVERIFY(!cmd(c).isError());
        const core::AcquireResult c =
            m_driver->acquire(m_driver->ref(QStringLiteral("pr"), 3), QStringLiteral("c"));
        QCOMPARE(c.status, core::AcquireResult::Status::Granted);
        QCOMPARE(c.grant.slot, std::optional<qint64>(expectedSlot));
        // Whatever else comes, no slot is ever held twice.
        for (const QByteArray id : {"d", "e", "f"})
            m_driver->acquire(m_driver->ref(QStringLiteral("pr"), 3), QString::fromLatin1(id));
        QSet<QByteArray> heldSlots;
        const RedisReply values = cmd({"HVALS", "pr|map"});
        for (const RedisReply &v : values.elements)
            heldSlots.insert(v.str);
        QCOMPARE(heldSlots.size(), values.elements.size());
    }

    // --limit on acquire sizes a semaphore it creates and nothing else: growing or shrinking one is
    // set-limit's job. Both the grant and the snapshot say so when the limits differ.
    void acquireLimitOnlyCreates() {
        QCOMPARE(seedAcquire("two", "10.0.0.1", 2), 1);
        const auto asked = m_driver->ref(QStringLiteral("two"), 5);
        const core::AcquireResult granted = m_driver->acquire(asked, QStringLiteral("me"));
        QCOMPARE(granted.status, core::AcquireResult::Status::Granted);
        QCOMPARE(granted.grant.slot, std::optional<qint64>(2));
        QCOMPARE(granted.grant.details.value(QStringLiteral("limit")).toLongLong(), 2);
        QVERIFY2(
            granted.grant.details.value(QStringLiteral("warnings"))
                .toStringList()
                .join(' ')
                .contains(QStringLiteral("the limit given (5) is not used")),
            qPrintable(granted.grant.details.value(QStringLiteral("warnings")).toStringList().join(' ')));
        QCOMPARE(m_driver->acquire(asked, QStringLiteral("other")).status, core::AcquireResult::Status::Busy);
        QCOMPARE(cmd({"HLEN", "two|map"}).toInteger(), 2);
        QCOMPARE(cmd({"LLEN", "two|list"}).toInteger(), 0);
        const core::Snapshot snap = m_driver->snapshot(asked);
        QCOMPARE(snap.limit, std::optional<qint64>(2));
        QCOMPARE(snap.limitSource, core::LimitSource::Stored);
        QVERIFY2(warningContains(snap, QStringLiteral("two has 2 slots; the limit given (5) is not used")),
                 qPrintable(snap.warnings.join(QStringLiteral("; "))));
        // A smaller limit does not shrink it either.
        QCOMPARE(seedRelease("two", "10.0.0.1"), 1);
        QCOMPARE(m_driver->acquire(m_driver->ref(QStringLiteral("two"), 1), QStringLiteral("third")).status,
                 core::AcquireResult::Status::Granted);
    }

    // On a semaphore semscope created, every acquisition gets a token (R|lease) that tells it apart
    // from a later acquisition of the same slot by the same holder.
    void forceReleaseTellsAcquisitionsApart() {
        const auto r = m_driver->ref(QStringLiteral("T"), 1);
        const core::AcquireResult first = m_driver->acquire(r, QStringLiteral("h"));
        QCOMPARE(first.status, core::AcquireResult::Status::Granted);
        QCOMPARE(first.grant.token, std::optional<qint64>(1));
        const core::Holder observed = *holderById(m_driver->snapshot(r), QStringLiteral("h"));
        QCOMPARE(observed.token, std::optional<qint64>(1));
        // h gives its slot back and takes the same slot again: another acquisition.
        QCOMPARE(m_driver->release(first.grant).status, core::ReleaseResult::Status::Ok);
        const core::AcquireResult second = m_driver->acquire(r, QStringLiteral("h"));
        QCOMPARE(second.grant.slot, observed.slot);
        QCOMPARE(second.grant.token, std::optional<qint64>(2));
        const core::ForceReleaseResult stale = m_driver->forceRelease(r, observed);
        QCOMPARE(stale.status, core::ForceReleaseResult::Status::Changed);
        QVERIFY2(stale.message.contains(QStringLiteral("token 2")), qPrintable(stale.message));
        QCOMPARE(cmd({"HGET", "T|map", "h"}).str, QByteArray("1"));
        // The first acquisition's grant can neither refresh nor release the second.
        QCOMPARE(m_driver->refresh(first.grant).status, core::RefreshResult::Status::Lost);
        QCOMPARE(m_driver->release(first.grant).status, core::ReleaseResult::Status::NotHeld);
        QCOMPARE(cmd({"HGET", "T|map", "h"}).str, QByteArray("1"));
        // What is shown now is what goes.
        const core::Snapshot now = m_driver->snapshot(r);
        QCOMPARE(now.counter, std::optional<qint64>(2));
        QCOMPARE(m_driver->forceRelease(r, *holderById(now, QStringLiteral("h"))).status,
                 core::ForceReleaseResult::Status::Released);
        QCOMPARE(cmd({"ZSCORE", "T|lease", "semscope:token:h"}).isNil(), true);
        QCOMPARE(list("T|list"), QList<QByteArray>{"1"});
        // Tokens never repeat: the next acquisition gets 3.
        QCOMPARE(m_driver->acquire(r, QStringLiteral("h")).grant.token, std::optional<qint64>(3));
    }

    void badData_data() {
        QTest::addColumn<QList<QList<QByteArray>>>("setup");
        QTest::addColumn<QString>("warning");
        QTest::addColumn<bool>("repairable");
        using Cmds = QList<QList<QByteArray>>;
        QTest::newRow("map of wrong type") << Cmds{{"RPUSH", "B|list", "1"}, {"SET", "B|map", "x"}}
                                           << QStringLiteral("B|map is a string, expected a hash") << false;
        QTest::newRow("list of wrong type") << Cmds{{"SADD", "B|list", "1"}, {"HSET", "B|map", "h", "2"}}
                                            << QStringLiteral("B|list is a set") << false;
        QTest::newRow("duplicate free slot")
            << Cmds{{"RPUSH", "B|list", "1", "2", "2"}, {"HSET", "B|map", "h", "3"}}
            << QStringLiteral("duplicate free slots in B|list: 2") << true;
        QTest::newRow("slot missing from list and map")
            << Cmds{{"RPUSH", "B|list", "1"}, {"HSET", "B|map", "h", "3"}} << QStringLiteral("leaked): 2")
            << true;
        QTest::newRow("slot both free and held")
            << Cmds{{"RPUSH", "B|list", "1", "2"}, {"HSET", "B|map", "h", "2"}}
            << QStringLiteral("slots both free and held: 2") << true;
        QTest::newRow("garbage in the hash")
            << Cmds{{"RPUSH", "B|list", "1"}, {"HSET", "B|map", "h", "banana"}}
            << QStringLiteral("maps to \"banana\", not a slot number") << false;
        QTest::newRow("garbage in the list")
            << Cmds{{"RPUSH", "B|list", "1", "pear"}, {"HSET", "B|map", "h", "2"}}
            << QStringLiteral("B|list holds 1 entry that is not a slot number") << true;
        QTest::newRow("10 MB value") << Cmds{{"RPUSH", "B|list", "1"},
                                             {"HSET", "B|map", "h", QByteArray(10 << 20, 'x')}}
                                     << QStringLiteral("10.0 MB") << false;
    }
    void badData() {
        QFETCH(QList<QList<QByteArray>>, setup);
        QFETCH(QString, warning);
        QFETCH(bool, repairable);
        for (const auto &c : setup)
            QVERIFY(!cmd(c).isError());
        // A healthy neighbour, to show the rest keeps working.
        QCOMPARE(seedAcquire("ok", "10.0.0.1", 2), 1);

        const auto bad = m_driver->ref(QStringLiteral("B"));
        const core::Snapshot snap = m_driver->snapshot(bad);
        QVERIFY2(warningContains(snap, warning), qPrintable(snap.warnings.join(QStringLiteral("; "))));
        // Acquire answers (granted, busy or a refusal naming the problem) instead of failing.
        const core::AcquireResult attempt = m_driver->acquire(bad, QStringLiteral("probe"));
        if (attempt.status == core::AcquireResult::Status::Error)
            QVERIFY(!attempt.error.isEmpty());
        if (repairable) {
            QVERIFY(m_driver->repair(bad).ok);
            const core::Snapshot repaired = m_driver->snapshot(bad);
            QVERIFY2(repaired.warnings.isEmpty(), qPrintable(repaired.warnings.join(QStringLiteral("; "))));
        }

        const auto ok = m_driver->ref(QStringLiteral("ok"));
        const core::Snapshot good = m_driver->snapshot(ok);
        QVERIFY2(good.warnings.isEmpty(), qPrintable(good.warnings.join(QStringLiteral("; "))));
        QCOMPARE(m_driver->acquire(ok, QStringLiteral("second")).status,
                 core::AcquireResult::Status::Granted);
    }

    core::MaintenanceResult setLimit(const QString &name, qint64 limit) {
        return test::awaitKind<core::MaintenanceResult>(
            [&](auto done) { m_kind->setLimit(*m_conn, m_driver->ref(name), limit, done); });
    }

    // set limit on a semaphore the seed's clients made: grows or shrinks the free list in one script
    // so that HLEN + LLEN is the new limit, and the seed's own scripts go on working with it.
    void setLimit_data() {
        QTest::addColumn<qint64>("limit");
        QTest::addColumn<QList<QByteArray>>("freeAfter");
        QTest::addColumn<qint64>("affected");
        // Held: 1 (10.0.0.1), 2 (10.0.0.2); free: 3, 4.
        QTest::newRow("grow") << qint64(6) << QList<QByteArray>{"3", "4", "5", "6"} << qint64(2);
        QTest::newRow("shrink") << qint64(3) << QList<QByteArray>{"3"} << qint64(1);
        QTest::newRow("to the holders") << qint64(2) << QList<QByteArray>{} << qint64(2);
        QTest::newRow("unchanged") << qint64(4) << QList<QByteArray>{"3", "4"} << qint64(0);
    }
    void setLimit() {
        QFETCH(qint64, limit);
        QFETCH(QList<QByteArray>, freeAfter);
        QFETCH(qint64, affected);
        QCOMPARE(seedAcquire("R", "10.0.0.1", 4), 1);
        QCOMPARE(seedAcquire("R", "10.0.0.2", 4), 2);
        const core::MaintenanceResult r = setLimit(QStringLiteral("R"), limit);
        QVERIFY2(r.ok, qPrintable(r.message));
        QCOMPARE(r.affected, affected);
        QCOMPARE(list("R|list"), freeAfter);
        const core::Snapshot snap = m_driver->snapshot(m_driver->ref(QStringLiteral("R")));
        QVERIFY2(snap.warnings.isEmpty(), qPrintable(snap.warnings.join(QStringLiteral("; "))));
        QCOMPARE(snap.limit, std::optional<qint64>(limit));
        QCOMPARE(snap.limitSource, core::LimitSource::Stored);
        QCOMPARE(snap.holders.size(), 2);
        QCOMPARE(cmd({"EXISTS", "R|lease"}).toInteger(), 0); // a foreign semaphore stays unannotated
        // The seed's clients, configured with the new limit, fill it exactly and release into it.
        for (qint64 i = 3; i <= limit; ++i)
            QVERIFY(seedAcquire("R", "10.0.1." + QByteArray::number(i), int(limit)) > 0);
        QCOMPARE(seedAcquire("R", "10.0.2.1", int(limit)), -1);
        QCOMPARE(seedRelease("R", "10.0.0.1"), 1);
        QCOMPARE(seedAcquire("R", "10.0.2.1", int(limit)), 1);
    }

    void setLimitNeverTakesAHeldSlot() {
        QCOMPARE(seedAcquire("R", "10.0.0.1", 3), 1);
        QCOMPARE(seedAcquire("R", "10.0.0.2", 3), 2);
        QCOMPARE(seedAcquire("R", "10.0.0.3", 3), 3);
        const core::MaintenanceResult r = setLimit(QStringLiteral("R"), 2);
        QVERIFY(!r.ok);
        QVERIFY2(r.message.contains(QStringLiteral("slots 3 of R are held")), qPrintable(r.message));
        QCOMPARE(cmd({"HLEN", "R|map"}).toInteger(), 3);
        QVERIFY(setLimit(QStringLiteral("R"), 0).message.contains(QStringLiteral("at least 1")));
        // Wrong types: refused with the reason, nothing written.
        cmd({"SET", "W|map", "x"});
        const core::MaintenanceResult wrong = setLimit(QStringLiteral("W"), 3);
        QVERIFY(!wrong.ok);
        QVERIFY2(wrong.message.contains(QStringLiteral("expected a hash")), qPrintable(wrong.message));
        QCOMPARE(cmd({"EXISTS", "W|list"}).toInteger(), 0);
    }

    // A duplicate and garbage in the free list are dropped on the way (the message says so).
    void setLimitDropsCorruption() {
        cmd({"RPUSH", "C|list", "2", "2", "junk", "1"});
        cmd({"HSET", "C|map", "h", "1"});
        const core::MaintenanceResult r = setLimit(QStringLiteral("C"), 3);
        QVERIFY2(r.ok, qPrintable(r.message));
        QVERIFY2(r.message.contains(QStringLiteral("3 bad or duplicate")), qPrintable(r.message));
        QVERIFY2(
            r.message.startsWith(QStringLiteral("limit of C is now 3 (was 5 slots): 1 free slot added, 0 "
                                                "removed, 3 bad or duplicate free entries dropped")),
            qPrintable(r.message));
        QCOMPARE(list("C|list"), (QList<QByteArray>{"2", "3"}));
        QVERIFY(m_driver->snapshot(m_driver->ref(QStringLiteral("C"))).warnings.isEmpty());
    }

    // On a semaphore that does not exist yet, set limit creates it as semscope's own (with leases).
    void setLimitCreatesAnOwnedSemaphore() {
        const core::MaintenanceResult r = setLimit(QStringLiteral("N"), 3);
        QVERIFY2(r.ok, qPrintable(r.message));
        QCOMPARE(list("N|list"), (QList<QByteArray>{"1", "2", "3"}));
        const core::AcquireResult a =
            m_driver->acquire(m_driver->ref(QStringLiteral("N")), QStringLiteral("me"));
        QCOMPARE(a.status, core::AcquireResult::Status::Granted);
        QVERIFY(a.grant.expiresAtMs); // owned: a lease beside the layout
    }

    void unknownLimitIsARefusal() {
        const core::AcquireResult r =
            m_driver->acquire(m_driver->ref(QStringLiteral("new")), QStringLiteral("x"));
        QCOMPARE(r.status, core::AcquireResult::Status::Error);
        QVERIFY2(r.error.contains(QStringLiteral("limit is unknown")), qPrintable(r.error));
        QCOMPARE(cmd({"EXISTS", "new|list", "new|map", "new|lease"}).toInteger(), 0);
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestSlotsKind)
#include "tst_slotskind.moc"
