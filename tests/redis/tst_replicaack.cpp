// Replica-acknowledged grants on a real master and replica: a grant counts only once the replica
// acknowledged it (WAIT); with the replica stopped (SIGSTOP) the grant is released again and the
// acquire or refresh says why, for `leased` and `lock` alike.
#include "SentinelGroup.h"
#include "TestMain.h"
#include "TestWait.h"
#include "core/loadtest/LoadTestEngine.h"
#include "redis/RedisSemaphoreStore.h"

#include <QSignalSpy>
#include <QTest>

using namespace semscope;
using core::AcquireRequest;
using core::AcquireResult;
using core::Kind;
using core::RefreshResult;
using core::SemaphoreRef;
using core::Snapshot;
using semscope::test::awaitCall;
using semscope::test::SentinelGroup;
using semscope::test::waitFor;

Q_DECLARE_METATYPE(semscope::core::Kind)

class TestReplicaAck : public QObject {
    Q_OBJECT

    SentinelGroup m_group; // master and one replica; no sentinel is needed for WAIT

    SemaphoreRef ref(Kind kind, const QString &name) const {
        SemaphoreRef r;
        r.kind = kind;
        r.name = name;
        r.profile.limit = kind == Kind::Lock ? 1 : 2;
        return r;
    }
    AcquireResult acquire(redis::RedisSemaphoreStore &store, const SemaphoreRef &r, const QString &holder,
                          int replicas, qint64 timeoutMs) {
        AcquireRequest req;
        req.holder = holder;
        req.ttlMs = 60000;
        req.replicas = replicas;
        req.replicaTimeoutMs = timeoutMs;
        return awaitCall<AcquireResult>([&](auto done) { store.acquire(r, req, {}, done); }).value();
    }
    int holders(redis::RedisSemaphoreStore &store, const SemaphoreRef &r) {
        return int(awaitCall<Snapshot>([&](auto done) { store.snapshot(r, done); })->holders.size());
    }

private Q_SLOTS:
    void initTestCase() {
        SentinelGroup::Options options;
        options.sentinels = 0;
        QVERIFY2(m_group.start(options), qPrintable(m_group.errorString()));
    }
    void cleanup() {
        m_group.node(1).resume(); // whatever a failed test left
        QVERIFY(m_group.waitForReplicasLinked());
    }

    void kinds_data() {
        QTest::addColumn<Kind>("kind");
        QTest::newRow("leased") << Kind::Leased;
        QTest::newRow("lock") << Kind::Lock;
    }

    void grantCountsWhenReplicated_data() { kinds_data(); }
    void grantCountsWhenReplicated() {
        QFETCH(Kind, kind);
        redis::RedisSemaphoreStore store(m_group.node(0).settings());
        const SemaphoreRef r = ref(kind, QStringLiteral("rep-ok-%1").arg(int(kind)));
        const AcquireResult got = acquire(store, r, QStringLiteral("a"), 1, 2000);
        QVERIFY2(got.status == AcquireResult::Status::Granted, qPrintable(got.error));
        // Acknowledged means there: the replica has the holder already, no waiting needed.
        QCOMPARE(m_group.node(1).command({"DBSIZE"}).integer, m_group.node(0).command({"DBSIZE"}).integer);
        QVERIFY(m_group.node(0).command({"DBSIZE"}).integer > 0);
        m_group.node(0).command({"FLUSHALL"});
    }

    void stoppedReplicaReleasesTheGrant_data() { kinds_data(); }
    void stoppedReplicaReleasesTheGrant() {
        QFETCH(Kind, kind);
        redis::RedisSemaphoreStore store(m_group.node(0).settings());
        const SemaphoreRef r = ref(kind, QStringLiteral("rep-stopped-%1").arg(int(kind)));
        m_group.node(1).suspend();
        const AcquireResult got = acquire(store, r, QStringLiteral("a"), 1, 200);
        QCOMPARE(got.status, AcquireResult::Status::Error);
        QCOMPARE(got.error,
                 QStringLiteral("not replicated to 1 replica within 200 ms (acknowledged by 0): released"));
        QCOMPARE(holders(store, r), 0);
        // Without the option the same master grants at once: the price is only paid when asked.
        const AcquireResult plain = acquire(store, r, QStringLiteral("b"), 0, 0);
        QVERIFY2(plain.status == AcquireResult::Status::Granted, qPrintable(plain.error));
        m_group.node(1).resume();
        m_group.node(0).command({"FLUSHALL"});
    }

    void refreshNotReplicatedIsLost() {
        redis::RedisSemaphoreStore store(m_group.node(0).settings());
        const SemaphoreRef r = ref(Kind::Leased, QStringLiteral("rep-refresh"));
        const AcquireResult got = acquire(store, r, QStringLiteral("a"), 1, 2000);
        QVERIFY2(got.status == AcquireResult::Status::Granted, qPrintable(got.error));
        m_group.node(1).suspend();
        const auto refreshed =
            awaitCall<RefreshResult>([&](auto done) { store.refresh(got.grant, 60000, done); });
        QVERIFY(refreshed.has_value());
        QCOMPARE(refreshed->status, RefreshResult::Status::Lost);
        QVERIFY2(refreshed->error.endsWith(QStringLiteral(": released")), qPrintable(refreshed->error));
        QCOMPARE(holders(store, r), 0);
        m_group.node(1).resume();
        m_group.node(0).command({"FLUSHALL"});
    }

    // The load tester with --replicas: grants the replica never acknowledged are counted as refused
    // (released again), apart from errors; the run stays a pass, and its report says what it cost.
    void loadTestCountsRefusedGrants() {
        core::LoadTestConfig c;
        c.ref.kind = Kind::Leased;
        c.ref.name = QStringLiteral("rep-loadtest");
        c.limit = 2;
        c.clients = 4;
        c.connections = 1;
        c.threads = 1;
        c.hold = core::Distribution::fixed(1'000'000);
        c.durationMs = 1000;
        c.replicas = 1;
        c.replicaTimeoutMs = 100;
        const redis::ConnectionSettings settings = m_group.node(0).settings();
        auto runOnce = [&] {
            core::LoadTestEngine engine(c, [settings]() -> std::unique_ptr<core::SemaphoreStore> {
                return std::make_unique<redis::RedisSemaphoreStore>(settings);
            });
            QSignalSpy finished(&engine, &core::LoadTestEngine::finished);
            engine.start();
            return finished.wait(60000) ? finished.first().first().value<core::LoadTestReport>()
                                        : core::LoadTestReport{};
        };
        core::LoadTestReport acked = runOnce();
        QVERIFY2(acked.passed(), qPrintable(acked.summaryText()));
        QVERIFY(acked.grants > 0);
        QCOMPARE(acked.refusedGrants, 0);

        m_group.node(1).suspend();
        core::LoadTestReport refused = runOnce();
        m_group.node(1).resume();
        QVERIFY2(refused.ok && refused.errors == 0 && refused.safe(), qPrintable(refused.summaryText()));
        QCOMPARE(refused.grants, 0);
        QVERIFY2(refused.refusedGrants > 0, qPrintable(refused.summaryText()));
        QCOMPARE(refused.toJson().value(QStringLiteral("refused_grants")).toInteger(), refused.refusedGrants);
        QVERIFY2(refused.summaryText().contains(QStringLiteral(" refused (not acknowledged in time")),
                 qPrintable(refused.summaryText()));
        m_group.node(0).command({"FLUSHALL"});
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestReplicaAck)
#include "tst_replicaack.moc"
