#include "RedisServer.h"
#include "TestMain.h"
#include "core/loadtest/LoadTestEngine.h"
#include "redis/RedisSemaphoreStore.h"
#include "redis/kinds/BuiltinKinds.h"
#include "redis/kinds/WaitQueueKind.h"
#include "training/TrainingScenarios.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTest>

using namespace semscope;
using namespace semscope::core;

namespace {

// Generous: these runs must survive a loaded 2-core CI machine.
constexpr int finishTimeoutMs = 120'000;

LoadTestReport run(LoadTestEngine &engine) {
    QSignalSpy finished(&engine, &LoadTestEngine::finished);
    engine.start();
    if (!finished.wait(finishTimeoutMs))
        return {};
    return finished.first().first().value<LoadTestReport>();
}

// 50 clients hammering one semaphore, try-once with a short back-off, short holds.
LoadTestConfig contended(Kind kind, const QString &name, int limit) {
    LoadTestConfig c;
    c.ref.kind = kind;
    c.ref.name = name;
    c.limit = limit;
    c.clients = 50;
    c.connections = 4;
    c.threads = 2;
    c.hold = Distribution::uniform(1'000'000, 5'000'000);
    c.think = Distribution::fixed(0);
    c.retry = Distribution::uniform(1'000'000, 5'000'000);
    c.ttlMs = 10'000;
    c.durationMs = 3000;
    c.seed = 20261122;
    return c;
}

} // namespace

class TestLoadTestRedis : public QObject {
    Q_OBJECT
private:
    test::RedisServer m_server;

    StoreFactory atomicFactory() const {
        const redis::ConnectionSettings settings = m_server.settings();
        return [settings]() -> std::unique_ptr<SemaphoreStore> {
            return std::make_unique<redis::RedisSemaphoreStore>(settings);
        };
    }
    // Runs semscope-cli with `args`; exit code and stdout.
    std::pair<int, QByteArray> cli(const QStringList &args) const {
        QProcess p;
        p.start(qEnvironmentVariable("SEMSCOPE_CLI"),
                QStringList{QStringLiteral("--redis"), m_server.url()} + args);
        if (!p.waitForFinished(finishTimeoutMs))
            return {-1, {}};
        return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput()};
    }

    bool cliHasLoadtest() const {
        if (qEnvironmentVariableIsEmpty("SEMSCOPE_CLI"))
            return false;
        QProcess p;
        p.start(qEnvironmentVariable("SEMSCOPE_CLI"), {QStringLiteral("--help")});
        return p.waitForFinished(finishTimeoutMs) && p.readAllStandardOutput().contains("loadtest NAME");
    }

    StoreFactory trainingFactory(const QString &scenario) const {
        const redis::ConnectionSettings settings = m_server.settings();
        return [settings, scenario] { return redis::makeTrainingStore(scenario, settings); };
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY2(m_server.start(), qPrintable(m_server.errorString())); }

    // Every atomic kind, 50 clients, 10 % of them crash while holding: never more holders than
    // the limit, tokens rising, and every crashed slot back once its lease has run out.
    void atomicKindsStaySafeAndRecover_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("limit");
        QTest::addColumn<qint64>("ttlMs");
        QTest::addColumn<qint64>("holdMaxMs");
        QTest::newRow("leased") << int(Kind::Leased) << 5 << 1000LL << 40LL;
        // One slot: each crash blocks everybody for a TTL, so shorter leases and holds.
        QTest::newRow("lock") << int(Kind::Lock) << 1 << 500LL << 10LL;
        QTest::newRow("slots (lease kept by semscope)") << int(Kind::Slots) << 5 << 1000LL << 40LL;
        QTest::newRow("fair") << int(Kind::Fair) << 5 << 1000LL << 40LL;
        QTest::newRow("zset") << int(Kind::Zset) << 5 << 1000LL << 40LL;
    }
    void atomicKindsStaySafeAndRecover() {
        QFETCH(int, kind);
        QFETCH(int, limit);
        QFETCH(qint64, ttlMs);
        QFETCH(qint64, holdMaxMs);
        LoadTestConfig c = contended(Kind(kind), QStringLiteral("lt-safe-%1").arg(kind), limit);
        c.crashRate = 0.1;
        c.ttlMs = ttlMs;
        c.refreshIntervalMs = holdMaxMs / 2;
        c.hold = Distribution::uniform(1'000'000, holdMaxMs * 1'000'000); // the longer holds are refreshed
        // A client that just released would otherwise ask again before the others' back-off ends
        // and keep its slot; every crasher must get a turn.
        c.think = Distribution::uniform(1'000'000, 20'000'000);
        c.crashWindowMs = 500; // crashers crash on their first grant after a moment in the first 0.5 s
        c.durationMs = 7000;   // leaves time for every crasher's turn and its lease to run out
        LoadTestEngine engine(c, atomicFactory());
        const LoadTestReport r = run(engine);
        qInfo().noquote() << r.summaryText();
        QVERIFY2(r.ok, qPrintable(r.error + QLatin1Char(' ') + r.errorSamples.join(QStringLiteral("; "))));
        QVERIFY2(r.safety.overAdmissions == 0, qPrintable(r.summaryText()));
        QVERIFY2(r.safety.tokenViolations == 0, qPrintable(r.summaryText()));
        QVERIFY(r.safety.maxConcurrentHolders <= limit);
        QVERIFY(r.grants > 20);
        QCOMPARE(r.recovery.crashes, 5LL);
        QVERIFY2(r.recovery.recovered == r.recovery.crashes, qPrintable(r.summaryText()));
        // A crashed holder's lease ends at most one TTL after its last refresh, and it refreshed
        // within one refresh period before vanishing. The slack covers waiters noticing on a
        // loaded machine; it does not make a leak pass.
        const qint64 boundNs = (c.ttlMs + c.refreshIntervalMs + 1500) * 1'000'000;
        QVERIFY2(r.recovery.maxRecoveryNs <= boundNs, qPrintable(r.summaryText()));
    }

    // The seeds' unsafe sequences, replayed against the same server, over-admit.
    void unsafeScenariosOverAdmit_data() {
        QTest::addColumn<QString>("scenario");
        for (const QString &name : {QStringLiteral("fair-without-lock"), QStringLiteral("zset-skewed-clocks"),
                                    QStringLiteral("incr-lock"), QStringLiteral("set-del-lock")})
            QTest::newRow(qPrintable(name)) << name;
    }
    void unsafeScenariosOverAdmit() {
        QFETCH(QString, scenario);
        const redis::TrainingScenario *s = redis::findTrainingScenario(scenario);
        QVERIFY(s);
        LoadTestConfig c =
            contended(s->counterpart, QStringLiteral("lt-unsafe-") + scenario, s->defaults.limit);
        c.skewMs = s->defaults.skewMs;
        LoadTestEngine engine(c, trainingFactory(scenario));
        engine.setLabel(scenario);
        const LoadTestReport r = run(engine);
        qInfo().noquote() << r.summaryText();
        QVERIFY2(r.ok, qPrintable(r.error + QLatin1Char(' ') + r.errorSamples.join(QStringLiteral("; "))));
        QVERIFY(r.grants > 0);
        QVERIFY2(r.safety.overAdmissions > 0, qPrintable(r.summaryText()));
        QVERIFY(r.safety.maxConcurrentHolders > c.limit);
        QVERIFY(!s->explanation.isEmpty());
    }

    // The seed's slot semaphore has no TTL: crashed holders keep their slots for good.
    void slotsWithoutTtlLeak() {
        LoadTestConfig c = contended(Kind::Slots, QStringLiteral("lt-leak"), 5);
        c.crashRate = 0.1;
        // Every crasher must get a turn, the last one at the one slot left: a short crash window,
        // and thinking so that a releaser does not take the slot straight back.
        c.crashWindowMs = 500;
        c.think = Distribution::uniform(1'000'000, 20'000'000);
        c.durationMs = 5000;
        LoadTestEngine engine(c, trainingFactory(QStringLiteral("slots-crash-leak")));
        const LoadTestReport r = run(engine);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.safety.overAdmissions, 0LL); // atomic scripts: it leaks, it does not over-admit
        QCOMPARE(r.recovery.crashes, 5LL);
        QCOMPARE(r.recovery.recovered, 0LL);
        QCOMPARE(r.recovery.leakedHolders.size(), 5);
        // Still there after the run: every crashed holder still owns a slot in R|map.
        const redis::RedisReply held = m_server.command({"HLEN", "lt-leak|map"});
        QCOMPARE(held.integer, 5LL);
        const redis::RedisReply free = m_server.command({"LLEN", "lt-leak|list"});
        QCOMPARE(free.integer, 0LL);
    }

    void cliLoadtestPrintsTheSummary() {
        if (!cliHasLoadtest())
            QSKIP("no semscope-cli with a loadtest command (SEMSCOPE_CLI, set by ctest)");
        const auto [code, out] =
            cli({QStringLiteral("loadtest"), QStringLiteral("lt-cli"), QStringLiteral("--kind"),
                 QStringLiteral("leased"), QStringLiteral("--limit"), QStringLiteral("5"),
                 QStringLiteral("--clients"), QStringLiteral("20"), QStringLiteral("--hold"),
                 QStringLiteral("uniform:0..2ms"), QStringLiteral("--duration"), QStringLiteral("1s"),
                 QStringLiteral("--json")});
        QCOMPARE(code, 0);
        const QJsonObject o = QJsonDocument::fromJson(out).object();
        for (const char *key :
             {"pairs_per_s", "acquire_p50_ms", "acquire_p99_ms", "attempts_per_grant", "jain_fairness",
              "over_admissions", "max_concurrent_holders", "token_violations"})
            QVERIFY2(o.contains(QLatin1String(key)), key);
        QVERIFY(o.value(QStringLiteral("pairs_per_s")).toDouble() > 0);
        QCOMPARE(o.value(QStringLiteral("over_admissions")).toInteger(), 0);
        QVERIFY(o.value(QStringLiteral("max_concurrent_holders")).toInteger() <= 5);
    }

    // Issue 30 item 3: the load tester's defaults are how semscope recommends clients acquire. A
    // kind with a FIFO wait queue waits in it (one attempt per grant); --retry asks for retry after
    // a pause; kinds without a queue retry. The JSON report names the mode.
    void cliDefaultsAcquireAsRecommended_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("mode");
        QTest::newRow("leased waits") << QStringLiteral("leased") << QStringList{} << QStringLiteral("wait");
        QTest::newRow("leased --retry")
            << QStringLiteral("leased") << QStringList{QStringLiteral("--retry")} << QStringLiteral("retry");
        QTest::newRow("leased --retry-pause")
            << QStringLiteral("leased")
            << QStringList{QStringLiteral("--retry-pause"), QStringLiteral("fixed:2ms")}
            << QStringLiteral("retry");
        QTest::newRow("slots retries") << QStringLiteral("slots") << QStringList{} << QStringLiteral("retry");
        QTest::newRow("slots --wait")
            << QStringLiteral("slots") << QStringList{QStringLiteral("--wait"), QStringLiteral("2s")}
            << QStringLiteral("wait");
    }
    void cliDefaultsAcquireAsRecommended() {
        if (!cliHasLoadtest())
            QSKIP("no semscope-cli with a loadtest command (SEMSCOPE_CLI, set by ctest)");
        QFETCH(QString, kind);
        QFETCH(QStringList, extra);
        QFETCH(QString, mode);
        const auto [code, out] =
            cli(QStringList{QStringLiteral("loadtest"), QStringLiteral("lt-mode-") + kind,
                            QStringLiteral("--kind"), kind, QStringLiteral("--limit"), QStringLiteral("2"),
                            QStringLiteral("--clients"), QStringLiteral("12"), QStringLiteral("--hold"),
                            QStringLiteral("uniform:0..2ms"), QStringLiteral("--duration"),
                            QStringLiteral("1s"), QStringLiteral("--json")} +
                extra);
        QCOMPARE(code, 0);
        const QJsonObject o = QJsonDocument::fromJson(out).object();
        QCOMPARE(o.value(QStringLiteral("acquire_mode")).toString(), mode);
        const QJsonObject config = o.value(QStringLiteral("config")).toObject();
        QCOMPARE(config.value(QStringLiteral("acquire_mode")).toString(), mode);
        // One connection unless told otherwise: the clients' commands pipeline on it, the cheapest
        // way for the server (LoadTestConfig::connections).
        QCOMPARE(config.value(QStringLiteral("connections")).toInt(), 1);
        QVERIFY(o.value(QStringLiteral("grants")).toInteger() > 0);
        if (mode == QLatin1String("wait")) {
            QVERIFY(config.value(QStringLiteral("wait_ms")).toInteger() > 0);
            QVERIFY(!config.contains(QStringLiteral("retry_pause")));
        } else {
            QCOMPARE(config.value(QStringLiteral("wait_ms")).toInteger(), 0);
            QVERIFY(!config.value(QStringLiteral("retry_pause")).toString().isEmpty());
        }
        if (kind == QLatin1String("leased") && mode == QLatin1String("wait")) {
            // Waiting in the queue: a release hands the slot over, nobody asks twice.
            QVERIFY2(o.value(QStringLiteral("attempts_per_grant")).toDouble() <= 1.5,
                     out.left(2000).constData());
            QCOMPARE(o.value(QStringLiteral("busy_replies")).toInteger(), 0);
        }
    }

    // Issue 30: a client retrying after a pause on `leased` is woken by the release notification the
    // kind publishes, whoever released: here the only other client lives in another worker thread
    // (its own connection), so nothing but the notification can end the minute-long pause before
    // the run's 20 pairs are done. The think time lets a woken client ask before the releaser does.
    void releaseInAnotherWorkerEndsARetryPause() {
        LoadTestConfig c;
        c.ref.kind = Kind::Leased;
        c.ref.name = QStringLiteral("lt-wake-threads");
        c.limit = 1;
        c.clients = 2;
        c.connections = 2;
        c.threads = 2;
        c.waitMs = 0;
        c.retry = Distribution::fixed(60'000'000'000);
        c.hold = Distribution::fixed(1'000'000);
        c.think = Distribution::fixed(30'000'000);
        c.ttlMs = 10'000;
        c.ops = 20;
        c.durationMs = 0;
        c.seed = 20261129;
        LoadTestEngine engine(c, atomicFactory());
        const LoadTestReport r = run(engine);
        QVERIFY2(r.ok, qPrintable(r.error.isEmpty() ? QStringLiteral("the run did not end") : r.error));
        QCOMPARE(r.releases, 20LL);
        QVERIFY(r.busyReplies > 0);
        // Both take turns (Jain 1.0); one that sleeps its minute after its first turn leaves the other
        // all the rest (19:1, Jain 0.55).
        QVERIFY2(r.fairness.jainIndex >= 0.8, qPrintable(r.summaryText()));
        QVERIFY(r.retryWakes > 0);
        QCOMPARE(r.safety.overAdmissions, 0LL);
    }

    // The same across processes: a release by another client of the server (here the test's own
    // store, on a connection of its own) ends the pause of the load tester's retrying client.
    void releaseByAnotherClientEndsARetryPause() {
        const core::SemaphoreRef ref = [] {
            core::SemaphoreRef r;
            r.kind = Kind::Leased;
            r.name = QStringLiteral("lt-wake-process");
            r.profile.limit = 1;
            return r;
        }();
        redis::RedisSemaphoreStore other(m_server.settings());
        std::optional<AcquireResult> held;
        AcquireRequest request;
        request.holder = QStringLiteral("other-process");
        request.ttlMs = 600'000;
        other.acquire(ref, request, Cancellation(), [&held](const AcquireResult &r) { held = r; });
        QTRY_VERIFY_WITH_TIMEOUT(held.has_value(), 30'000);
        QCOMPARE(held->status, AcquireResult::Status::Granted);

        LoadTestConfig c;
        c.ref = ref;
        c.limit = 1;
        c.clients = 1;
        c.connections = 1;
        c.threads = 1;
        c.waitMs = 0;
        c.retry = Distribution::fixed(600'000'000'000); // ten minutes: only a wake-up ends it in time
        c.hold = Distribution::fixed(0);
        c.ttlMs = 10'000;
        c.ops = 1;
        c.durationMs = 0;
        LoadTestEngine engine(c, atomicFactory());
        QSignalSpy finished(&engine, &LoadTestEngine::finished);
        QSignalSpy progress(&engine, &LoadTestEngine::progress);
        engine.start();
        // The client has been told busy and sleeps; its store listens once the server says so (not
        // asserted: a store that does not listen is what this test is about).
        QTRY_VERIFY_WITH_TIMEOUT(!progress.isEmpty() &&
                                     progress.constLast().first().value<LoadTestProgress>().busyReplies > 0,
                                 30'000);
        const bool listening = QTest::qWaitFor(
            [this] {
                const redis::RedisReply n =
                    m_server.command({"PUBSUB", "NUMSUB", "{lt-wake-process}:released"});
                return n.elements.size() == 2 && n.elements.at(1).integer > 0;
            },
            10'000);
        QVERIFY(finished.isEmpty());
        qInfo() << "the load tester listens to releases:" << listening;

        std::optional<ReleaseResult> released;
        other.release(held->grant, [&released](const ReleaseResult &r) { released = r; });
        QTRY_VERIFY_WITH_TIMEOUT(released.has_value(), 30'000);
        QCOMPARE(released->status, ReleaseResult::Status::Ok);
        // (The run may end while the release's answer is awaited: the spy counts, it is not waited on.)
        QTRY_VERIFY2_WITH_TIMEOUT(!finished.isEmpty(), "the retrying client slept on after the release",
                                  60'000);
        const LoadTestReport r = finished.first().first().value<LoadTestReport>();
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.grants, 1LL);
        QCOMPARE(r.retryWakes, 1LL);
    }

    // The core's notion of which kinds have a wait queue is the Redis layouts' own.
    void recommendedAcquireFollowsTheLayouts() {
        for (const auto &kind : redis::builtinRedisKinds()) {
            const bool queue = dynamic_cast<redis::WaitQueueKind *>(kind.get()) != nullptr;
            QVERIFY2(LoadTestConfig::kindHasWaitQueue(kind->kind()) == queue,
                     qPrintable(kindName(kind->kind())));
            QCOMPARE(LoadTestConfig::recommendedWaitMs(kind->kind()) > 0, queue);
        }
        QVERIFY(!LoadTestConfig::kindHasWaitQueue(Kind::Consul));
    }

    void cliScenarioRunsBothSides() {
        if (!cliHasLoadtest())
            QSKIP("no semscope-cli with a loadtest command (SEMSCOPE_CLI, set by ctest)");
        const auto [code, out] =
            cli({QStringLiteral("loadtest"), QStringLiteral("lt-cli-scenario"), QStringLiteral("--scenario"),
                 QStringLiteral("set-del-lock"), QStringLiteral("--clients"), QStringLiteral("30"),
                 QStringLiteral("--hold"), QStringLiteral("uniform:1ms..3ms"), QStringLiteral("--duration"),
                 QStringLiteral("2s"), QStringLiteral("--json")});
        QCOMPARE(code, 0);
        const QJsonObject o = QJsonDocument::fromJson(out).object();
        QCOMPARE(o.value(QStringLiteral("scenario")).toString(), QStringLiteral("set-del-lock"));
        QVERIFY(!o.value(QStringLiteral("explanation")).toString().isEmpty());
        const QJsonObject unsafe = o.value(QStringLiteral("unsafe")).toObject();
        const QJsonObject atomic = o.value(QStringLiteral("atomic")).toObject();
        QVERIFY(unsafe.value(QStringLiteral("over_admissions")).toInteger() > 0);
        QCOMPARE(atomic.value(QStringLiteral("over_admissions")).toInteger(), 0);
        QVERIFY(atomic.value(QStringLiteral("grants")).toInteger() > 0);
    }

    // issue 14 item 6: `loadtest NAME --scenario S` with nothing else runs with the scenario's own
    // defaults (the GUI's training page takes the same), and under them the unsafe side shows its
    // flaw and the atomic side none, within the default duration.
    void cliScenariosBiteWithTheirDefaults_data() {
        QTest::addColumn<QString>("scenario");
        for (const QString &name : redis::trainingScenarioNames())
            QTest::newRow(qPrintable(name)) << name;
    }
    void cliScenariosBiteWithTheirDefaults() {
        if (!cliHasLoadtest())
            QSKIP("no semscope-cli with a loadtest command (SEMSCOPE_CLI, set by ctest)");
        QFETCH(QString, scenario);
        const redis::TrainingScenario *s = redis::findTrainingScenario(scenario);
        QVERIFY(s);
        const auto [code, out] = cli({QStringLiteral("loadtest"), QStringLiteral("lt-defaults"),
                                      QStringLiteral("--scenario"), scenario, QStringLiteral("--json")});
        QCOMPARE(code, 0);
        const QJsonObject o = QJsonDocument::fromJson(out).object();
        const QJsonObject unsafe = o.value(QStringLiteral("unsafe")).toObject();
        const QJsonObject atomic = o.value(QStringLiteral("atomic")).toObject();
        const QByteArray both = out.left(4000);
        // The defaults are the scenario's, not the plain load test's 10 clients holding 0.
        const QJsonObject config = unsafe.value(QStringLiteral("config")).toObject();
        QCOMPARE(config.value(QStringLiteral("clients")).toInteger(), s->defaults.clients);
        QCOMPARE(config.value(QStringLiteral("limit")).toInteger(), s->defaults.limit);
        QCOMPARE(qint64(config.value(QStringLiteral("duration_ms")).toDouble()), s->defaults.durationMs);

        for (const QJsonObject &side : {unsafe, atomic})
            QVERIFY2(side.value(QStringLiteral("grants")).toInteger() > 0, both.constData());
        QCOMPARE(atomic.value(QStringLiteral("over_admissions")).toInteger(), 0);
        QCOMPARE(atomic.value(QStringLiteral("token_violations")).toInteger(), 0);
        if (s->showsLeak) {
            // Crashed holders keep their slots on the unsafe side; every one comes back on the other.
            QVERIFY2(unsafe.value(QStringLiteral("crashes")).toInteger() > 0, both.constData());
            QVERIFY2(unsafe.value(QStringLiteral("slots_leaked")).toInteger() > 0, both.constData());
            QCOMPARE(unsafe.value(QStringLiteral("crashes_recovered")).toInteger(), 0);
            QVERIFY2(atomic.value(QStringLiteral("crashes")).toInteger() > 0, both.constData());
            QCOMPARE(atomic.value(QStringLiteral("slots_leaked")).toInteger(), 0);
            QCOMPARE(atomic.value(QStringLiteral("crashes_recovered")).toInteger(),
                     atomic.value(QStringLiteral("crashes")).toInteger());
        } else {
            QVERIFY2(unsafe.value(QStringLiteral("over_admissions")).toInteger() > 0, both.constData());
        }
    }

    void cliRejectsBadInput_data() {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("no kind") << QStringList{"loadtest", "x"};
        QTest::newRow("bad distribution")
            << QStringList{"loadtest", "x", "--kind", "leased", "--hold", "normal:5ms"};
        QTest::newRow("unknown scenario") << QStringList{"loadtest", "x", "--scenario", "nope"};
        QTest::newRow("lock with limit 3") << QStringList{"loadtest", "x", "--kind", "lock", "--limit", "3"};
        QTest::newRow("crash rate above 1")
            << QStringList{"loadtest", "x", "--kind", "leased", "--crash-rate", "2"};
        QTest::newRow("read-only kind") << QStringList{"loadtest", "x", "--kind", "redisson-lock"};
        QTest::newRow("both wait and retry")
            << QStringList{"loadtest", "x", "--kind", "leased", "--wait", "1s", "--retry"};
        QTest::newRow("retry pause while waiting")
            << QStringList{"loadtest", "x", "--kind", "leased", "--wait", "1s", "--retry-pause", "fixed:1ms"};
        QTest::newRow("both duration and ops")
            << QStringList{"loadtest", "x", "--kind", "leased", "--duration", "1s", "--ops", "5"};
    }
    void cliRejectsBadInput() {
        if (!cliHasLoadtest())
            QSKIP("no semscope-cli with a loadtest command (SEMSCOPE_CLI, set by ctest)");
        QFETCH(QStringList, args);
        QCOMPARE(cli(args).first, 2);
    }

    void scenarioRegistryIsComplete() {
        const QStringList names = redis::trainingScenarioNames();
        QCOMPARE(names, (QStringList{"fair-without-lock", "zset-skewed-clocks", "incr-lock", "set-del-lock",
                                     "slots-crash-leak"}));
        for (const QString &n : names) {
            auto store = redis::makeTrainingStore(n, m_server.settings());
            QVERIFY(store);
            QVERIFY(store->endpoint().contains(QString::number(m_server.port())));
        }
        QVERIFY(!redis::makeTrainingStore(QStringLiteral("nonsense"), m_server.settings()));
    }

    void readOnlyTrainingStoreRefusesWrites() {
        auto store = redis::makeTrainingStore(QStringLiteral("set-del-lock"), m_server.settings());
        store->setReadOnly(true);
        SemaphoreRef ref;
        ref.kind = Kind::Lock;
        ref.name = QStringLiteral("lt-readonly");
        std::optional<AcquireResult> result;
        store->acquire(ref, AcquireRequest{}, Cancellation(), [&](const AcquireResult &r) { result = r; });
        QTRY_VERIFY_WITH_TIMEOUT(result.has_value(), 10'000);
        QCOMPARE(result->status, AcquireResult::Status::Error);
        QVERIFY(result->error.contains(QStringLiteral("read-only")));
        QCOMPARE(m_server.command({"EXISTS", "lt-readonly"}).integer, 0LL);
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestLoadTestRedis)
#include "tst_loadtest_redis.moc"
