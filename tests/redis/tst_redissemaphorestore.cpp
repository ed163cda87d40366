// RedisSemaphoreStore against a real redis-server: dispatch, read-only refusal, waiting acquires
// (FIFO, no polling, timeout, cancel) and the safety run over every writable Redis kind.
#include "RedisServer.h"
#include "StoreWrites.h"
#include "TestMain.h"
#include "TestWait.h"
#include "redis/RedisSemaphoreStore.h"
#include "redis/kinds/BuiltinKinds.h"
#include "redis/kinds/LockKind.h"

#include <QtTest>
#include <algorithm>
#include <limits>

using namespace semscope;
using namespace semscope::redis;
using semscope::test::awaitCall;

namespace {

// SEMSCOPE_TEST_SCALE scales the safety run; sanitizer builds default to a tenth of it, since
// every call there costs several times as much.
double testScale() {
    bool ok = false;
    const double scale = qEnvironmentVariable("SEMSCOPE_TEST_SCALE").toDouble(&ok);
    if (ok && scale > 0)
        return scale;
#if defined(__SANITIZE_ADDRESS__)
    return 0.1;
#else
    return 1.0;
#endif
}

core::SemaphoreRef makeRef(core::Kind kind, const QString &name, qint64 limit) {
    core::SemaphoreRef r;
    r.kind = kind;
    r.name = name;
    r.profile.limit = limit;
    r.profile.timeoutMs = 30000;
    return r;
}

// Calls per command since the last CONFIG RESETSTAT, from INFO commandstats.
qint64 commandCalls(test::RedisServer &server, const QByteArray &command) {
    const QByteArray info = server.command({"INFO", "commandstats"}).str;
    const QByteArray prefix = "cmdstat_" + command + ":calls=";
    for (const QByteArray &line : info.split('\n')) {
        if (line.startsWith(prefix)) {
            const QByteArray rest = line.mid(prefix.size());
            return rest.left(rest.indexOf(',')).toLongLong();
        }
    }
    return 0;
}

} // namespace

class TestRedisSemaphoreStore : public QObject {
    Q_OBJECT

private:
    test::RedisServer m_server;
    std::unique_ptr<RedisSemaphoreStore> m_store;

    RedisReply cmd(const QList<QByteArray> &args) { return m_server.command(args); }

    core::AcquireResult acquire(RedisSemaphoreStore &store, const core::SemaphoreRef &ref,
                                const QString &holder, qint64 waitMs = 0) {
        core::AcquireRequest req;
        req.holder = holder;
        req.waitMs = waitMs;
        return awaitCall<core::AcquireResult>(
                   [&](auto done) { store.acquire(ref, req, core::Cancellation(), done); },
                   static_cast<int>(waitMs) + 20000)
            .value_or(core::AcquireResult{});
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        m_store = std::make_unique<RedisSemaphoreStore>(m_server.settings());
    }

    void init() { cmd({"FLUSHALL"}); }

    void cleanupTestCase() {
        m_store.reset();
        m_server.stop();
    }

    void reportsConnectionState() {
        RedisSemaphoreStore store(m_server.settings());
        QSignalSpy spy(&store, &core::SemaphoreStore::connectionStateChanged);
        QVERIFY(spy.wait(15000));
        QCOMPARE(spy.at(0).at(0).toString(), QStringLiteral("connected"));
        QCOMPARE(store.endpoint(), m_server.settings().endpoint());
        QCOMPARE(store.backend(), core::Backend::Redis);
    }

    void dispatchesByKind() {
        std::vector<std::unique_ptr<RedisKind>> only;
        only.push_back(std::make_unique<LockKind>());
        RedisSemaphoreStore store(m_server.settings(), std::move(only));
        cmd({"SET", "l", "tok", "PX", "60000"});
        auto lock = awaitCall<core::Snapshot>(
            [&](auto done) { store.snapshot(makeRef(core::Kind::Lock, QStringLiteral("l"), 1), done); });
        QCOMPARE(lock->holders.value(0).id, QStringLiteral("tok"));
        auto unknown = awaitCall<core::Snapshot>(
            [&](auto done) { store.snapshot(makeRef(core::Kind::Leased, QStringLiteral("l"), 1), done); });
        QVERIFY(unknown->warnings.value(0).contains(QStringLiteral("not a Redis layout")));
        const auto refused =
            acquire(store, makeRef(core::Kind::Leased, QStringLiteral("x"), 1), QStringLiteral("h"));
        QCOMPARE(refused.status, core::AcquireResult::Status::Error);
    }

    // Issue 16 item 8: an empty semaphore of a layout that does not store its limit has no keys in
    // Redis at all. Its saved limit is still the operator's ("0 / 4 (profile)"), not "0 / ?", and
    // only a guessed limit reads as inferred.
    void emptySemaphoreKeepsItsSavedLimit_data() {
        QTest::addColumn<core::Kind>("kind");
        QTest::addColumn<bool>("guessed");
        QTest::newRow("zset") << core::Kind::Zset << false;
        QTest::newRow("fair") << core::Kind::Fair << false;
        QTest::newRow("slots before initialisation") << core::Kind::Slots << false;
        QTest::newRow("redisson semaphore") << core::Kind::RedissonSemaphore << false;
        QTest::newRow("zset, guessed limit") << core::Kind::Zset << true;
    }
    void emptySemaphoreKeepsItsSavedLimit() {
        QFETCH(core::Kind, kind);
        QFETCH(bool, guessed);
        core::SemaphoreRef ref = makeRef(kind, QStringLiteral("empty:rate"), 4);
        ref.profile.inferred = guessed;
        const auto snap = awaitCall<core::Snapshot>([&](auto done) { m_store->snapshot(ref, done); });
        QVERIFY(snap);
        QCOMPARE(snap->usedCount(), 0);
        QCOMPARE(snap->limit, std::optional<qint64>(4));
        QCOMPARE(snap->limitSource, guessed ? core::LimitSource::Inferred : core::LimitSource::Profile);
    }

    void generatesHolderIds() {
        const auto ref = makeRef(core::Kind::Leased, QStringLiteral("ids"), 2);
        const auto a = acquire(*m_store, ref, QString());
        const auto b = acquire(*m_store, ref, QString());
        QCOMPARE(a.status, core::AcquireResult::Status::Granted);
        QCOMPARE(b.status, core::AcquireResult::Status::Granted);
        QVERIFY(!a.grant.holder.isEmpty());
        QVERIFY(a.grant.holder != b.grant.holder);
    }

    void readOnlyStoreRefusesEveryWrite() {
        RedisSemaphoreStore store(m_server.settings());
        store.setReadOnly(true);
        const auto ref = makeRef(core::Kind::Leased, QStringLiteral("ro"), 3);
        const auto a = acquire(store, ref, QStringLiteral("h"), 0);
        QCOMPARE(a.status, core::AcquireResult::Status::Error);
        QVERIFY(a.error.contains(QStringLiteral("read-only")));
        QCOMPARE(acquire(store, ref, QStringLiteral("h"), 1000).status, core::AcquireResult::Status::Error);
        core::Grant g;
        g.ref = ref;
        g.holder = QStringLiteral("h");
        g.token = 1;
        QCOMPARE(awaitCall<core::RefreshResult>([&](auto done) { store.refresh(g, 1000, done); })->status,
                 core::RefreshResult::Status::Error);
        QCOMPARE(awaitCall<core::ReleaseResult>([&](auto done) { store.release(g, done); })->status,
                 core::ReleaseResult::Status::Error);
        core::Holder h;
        h.id = QStringLiteral("h");
        h.token = 1;
        QCOMPARE(awaitCall<core::ForceReleaseResult>([&](auto done) {
                     store.forceRelease(ref, h, std::nullopt, done);
                 })->status,
                 core::ForceReleaseResult::Status::Error);
        QVERIFY(!awaitCall<core::MaintenanceResult>([&](auto done) { store.purgeExpired(ref, done); })->ok);
        QVERIFY(!awaitCall<core::MaintenanceResult>([&](auto done) { store.repair(ref, done); })->ok);
        QVERIFY(!awaitCall<core::MaintenanceResult>([&](auto done) { store.setLimit(ref, 9, done); })->ok);
        // Reading still works, and nothing was written.
        QVERIFY(awaitCall<core::Snapshot>([&](auto done) { store.snapshot(ref, done); })->warnings.isEmpty());
        QCOMPARE(cmd({"DBSIZE"}).toInteger(), std::optional<qint64>(0));
    }

    // One table over every write of the interface (tests/support/StoreWrites.h): each is refused
    // with the same text, later (never inside the call), and writes nothing.
    void readOnlyRefusesEachWrite_data() {
        QTest::addColumn<QString>("write");
        for (const QString &name : test::everyStoreWrite().keys())
            QTest::newRow(qPrintable(name)) << name;
    }

    void readOnlyRefusesEachWrite() {
        QFETCH(QString, write);
        RedisSemaphoreStore store(m_server.settings());
        store.setReadOnly(true);
        const auto ref = makeRef(core::Kind::Leased, QStringLiteral("ro"), 3);
        const test::WriteOutcome out = test::runWrite(test::everyStoreWrite().value(write), store, ref);
        QVERIFY(out.answer.has_value());
        QVERIFY(!out.answer->ok);
        QCOMPARE(out.answer->text, QStringLiteral("refused: this connection is read-only"));
        QVERIFY(!out.answeredBeforeReturn);
        QCOMPARE(cmd({"DBSIZE"}).toInteger(), std::optional<qint64>(0));
    }

    // 50 waiters on a leased semaphore of limit 5: served in arrival order, each woken by a release
    // message naming it, so the server sees at most 2 acquire attempts per grant.
    void waitersAreServedInFifoOrderWithoutPolling() {
        const auto ref = makeRef(core::Kind::Leased, QStringLiteral("fifo"), 5);
        // Load the scripts first so the count below has no NOSCRIPT round trips in it.
        const auto warm =
            acquire(*m_store, makeRef(core::Kind::Leased, QStringLiteral("warm"), 1), QStringLiteral("w"));
        awaitCall<core::ReleaseResult>([&](auto done) { m_store->release(warm.grant, done); });
        cmd({"CONFIG", "RESETSTAT"});

        QList<core::Grant> initial;
        for (int i = 0; i < 5; ++i) {
            const auto r = acquire(*m_store, ref, QStringLiteral("first-%1").arg(i));
            QCOMPARE(r.status, core::AcquireResult::Status::Granted);
            initial << r.grant;
        }

        constexpr int kWaiters = 50;
        QStringList order;
        int attempts = 0;
        int releases = 5;
        QStringList failures;
        for (int i = 0; i < kWaiters; ++i) {
            core::AcquireRequest req;
            req.holder = QStringLiteral("waiter-%1").arg(i, 2, 10, QLatin1Char('0'));
            req.waitMs = 120000;
            m_store->acquire(ref, req, core::Cancellation(), [&, this](const core::AcquireResult &r) {
                attempts += r.attempts;
                if (r.status != core::AcquireResult::Status::Granted) {
                    failures << r.error;
                    return;
                }
                order << r.grant.holder;
                ++releases;
                m_store->release(r.grant, [&failures](const core::ReleaseResult &rr) {
                    if (rr.status != core::ReleaseResult::Status::Ok)
                        failures << rr.error;
                });
            });
        }
        // Everyone is queued before the first slot frees up.
        QTRY_COMPARE_WITH_TIMEOUT(cmd({"LLEN", "{fifo}:queue"}).toInteger(), std::optional<qint64>(kWaiters),
                                  30000);
        for (const core::Grant &g : initial)
            m_store->release(g, [](const core::ReleaseResult &) {});

        QTRY_COMPARE_WITH_TIMEOUT(order.size() + failures.size(), kWaiters, 60000);
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join(QLatin1Char(';'))));
        QStringList expected;
        for (int i = 0; i < kWaiters; ++i)
            expected << QStringLiteral("waiter-%1").arg(i, 2, 10, QLatin1Char('0'));
        QCOMPARE(order, expected);
        QTRY_COMPARE_WITH_TIMEOUT(cmd({"ZCARD", "{fifo}:holders"}).toInteger(), std::optional<qint64>(0),
                                  20000);

        // What the server saw: every script call is an acquire attempt or one of the releases.
        const qint64 scripts = commandCalls(m_server, "evalsha") + commandCalls(m_server, "eval");
        const qint64 serverAttempts = scripts - releases;
        const qint64 grants = 5 + kWaiters;
        qInfo("grants %lld, acquire attempts seen by the server %lld (client count %d + 5)", grants,
              serverAttempts, attempts);
        QVERIFY2(serverAttempts <= 2 * grants, qPrintable(QString::number(serverAttempts)));
        QCOMPARE(serverAttempts, static_cast<qint64>(attempts + 5));
    }

    // Stores of one thread that share their waiting acquires (sharingWaitsInThread, as the load
    // tester's connections do) hand a slot released on one to a waiter on another in the release's
    // reply: nothing is published. Stores of their own tell the waiter on its notify channel.
    void sharedWaitsHandOffWithoutPublishing_data() {
        QTest::addColumn<bool>("shared");
        QTest::addColumn<qint64>("publishes");
        QTest::newRow("stores of their own") << false << 1LL;
        QTest::newRow("sharing their waits") << true << 0LL;
    }
    void sharedWaitsHandOffWithoutPublishing() {
        QFETCH(bool, shared);
        QFETCH(qint64, publishes);
        auto make = [&] {
            return shared ? RedisSemaphoreStore::sharingWaitsInThread(m_server.settings())
                          : std::make_unique<RedisSemaphoreStore>(m_server.settings());
        };
        const std::unique_ptr<RedisSemaphoreStore> holderStore = make();
        const std::unique_ptr<RedisSemaphoreStore> waiterStore = make();
        const auto ref = makeRef(core::Kind::Leased, QStringLiteral("shared-waits"), 1);
        const auto held = acquire(*holderStore, ref, QStringLiteral("holder"));
        QCOMPARE(held.status, core::AcquireResult::Status::Granted);

        std::optional<core::AcquireResult> waited;
        core::AcquireRequest req;
        req.holder = QStringLiteral("waiter");
        req.waitMs = 60000;
        waiterStore->acquire(ref, req, core::Cancellation(),
                             [&waited](const core::AcquireResult &r) { waited = r; });
        QTRY_COMPARE_WITH_TIMEOUT(cmd({"LLEN", "{shared-waits}:queue"}).toInteger(), std::optional<qint64>(1),
                                  30000);
        cmd({"CONFIG", "RESETSTAT"});
        std::optional<core::ReleaseResult> released;
        holderStore->release(held.grant, [&released](const core::ReleaseResult &r) { released = r; });
        QTRY_VERIFY_WITH_TIMEOUT(waited.has_value() && released.has_value(), 30000);
        QCOMPARE(released->status, core::ReleaseResult::Status::Ok);
        QCOMPARE(waited->status, core::AcquireResult::Status::Granted);
        QCOMPARE(waited->grant.token, std::optional<qint64>(*held.grant.token + 1));
        QCOMPARE(waited->attempts, 1);
        QCOMPARE(commandCalls(m_server, "publish"), publishes);
    }

    // A store that goes drops its own waiters; a store sharing its waits with it keeps serving its own.
    void aSharingStoreOutlivesAnother() {
        auto first = RedisSemaphoreStore::sharingWaitsInThread(m_server.settings());
        auto second = RedisSemaphoreStore::sharingWaitsInThread(m_server.settings());
        const auto ref = makeRef(core::Kind::Leased, QStringLiteral("shared-outlive"), 1);
        const auto held = acquire(*second, ref, QStringLiteral("holder"));
        QCOMPARE(held.status, core::AcquireResult::Status::Granted);
        bool firstAnswered = false;
        std::optional<core::AcquireResult> waited;
        core::AcquireRequest req;
        req.waitMs = 60000;
        req.holder = QStringLiteral("second-waiter"); // first in line
        second->acquire(ref, req, core::Cancellation(),
                        [&waited](const core::AcquireResult &r) { waited = r; });
        QTRY_COMPARE_WITH_TIMEOUT(cmd({"LLEN", "{shared-outlive}:queue"}).toInteger(),
                                  std::optional<qint64>(1), 30000);
        req.holder = QStringLiteral("first-waiter");
        first->acquire(ref, req, core::Cancellation(),
                       [&firstAnswered](const core::AcquireResult &) { firstAnswered = true; });
        QTRY_COMPARE_WITH_TIMEOUT(cmd({"LLEN", "{shared-outlive}:queue"}).toInteger(),
                                  std::optional<qint64>(2), 30000);
        first.reset(); // its waiter is dropped unanswered (its queue entry runs out with its waiter lease)
        std::optional<core::ReleaseResult> released;
        second->release(held.grant, [&released](const core::ReleaseResult &r) { released = r; });
        QTRY_VERIFY_WITH_TIMEOUT(waited.has_value(), 30000);
        QCOMPARE(waited->status, core::AcquireResult::Status::Granted);
        QCOMPARE(waited->grant.holder, QStringLiteral("second-waiter"));
        QVERIFY(!firstAnswered);
    }

    // The subscriber connection drops just as releases hand slots over, so the grant messages are
    // lost: once subscribed again every waiter asks once more and the one that was handed a slot
    // picks it up; nobody hangs and no slot leaks.
    void handOffsLostWithTheSubscriptionArePickedUp() {
        const auto ref = makeRef(core::Kind::Leased, QStringLiteral("lost"), 1);
        const auto owner = acquire(*m_store, ref, QStringLiteral("owner"));
        QCOMPARE(owner.status, core::AcquireResult::Status::Granted);
        QStringList order;
        QStringList failures;
        int attempts = 0;
        for (int i = 0; i < 3; ++i) {
            core::AcquireRequest req;
            req.holder = QStringLiteral("waiter-%1").arg(i);
            req.waitMs = 120000;
            m_store->acquire(ref, req, core::Cancellation(), [&, this](const core::AcquireResult &r) {
                attempts += r.attempts;
                if (r.status != core::AcquireResult::Status::Granted) {
                    failures << r.error;
                    return;
                }
                order << r.grant.holder;
                QCOMPARE(cmd({"ZSCORE", "{lost}:holders", r.grant.holder.toUtf8()}).toInteger(),
                         r.grant.expiresAtMs);
                m_store->release(r.grant, [&failures](const core::ReleaseResult &rr) {
                    if (rr.status != core::ReleaseResult::Status::Ok)
                        failures << rr.error;
                });
            });
        }
        QTRY_COMPARE_WITH_TIMEOUT(cmd({"LLEN", "{lost}:queue"}).toInteger(), std::optional<qint64>(3), 30000);

        // Drop the subscription, then release while it is gone: the hand-off to waiter-0 is
        // published to nobody.
        QVERIFY(cmd({"CLIENT", "KILL", "TYPE", "pubsub"}).toInteger().value_or(0) >= 1);
        const auto released =
            awaitCall<core::ReleaseResult>([&](auto done) { m_store->release(owner.grant, done); });
        QCOMPARE(released->status, core::ReleaseResult::Status::Ok);

        QTRY_COMPARE_WITH_TIMEOUT(order.size() + failures.size(), 3, 60000);
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join(QLatin1Char(';'))));
        QCOMPARE(order, (QStringList{QStringLiteral("waiter-0"), QStringLiteral("waiter-1"),
                                     QStringLiteral("waiter-2")}));
        QVERIFY2(attempts <= 2 * 3, qPrintable(QString::number(attempts)));
        QTRY_COMPARE_WITH_TIMEOUT(cmd({"ZCARD", "{lost}:holders"}).toInteger(), std::optional<qint64>(0),
                                  20000);
        QCOMPARE(cmd({"HLEN", "{lost}:waiting"}).toInteger(), std::optional<qint64>(0));
    }

    // A waiter whose wait ends while a release hands it the slot must not keep that slot: whichever
    // wins, the slot ends up either with the waiter (granted) or free again, never leaked.
    void waiterGivingUpDuringAHandOffLeaksNothing() {
        const auto ref = makeRef(core::Kind::Leased, QStringLiteral("race"), 1);
        for (int round = 0; round < 20; ++round) {
            const auto owner = acquire(*m_store, ref, QStringLiteral("owner"));
            QCOMPARE(owner.status, core::AcquireResult::Status::Granted);
            core::Cancellation cancel;
            std::optional<core::AcquireResult> result;
            core::AcquireRequest req;
            req.holder = QStringLiteral("quitter");
            req.waitMs = 120000;
            m_store->acquire(ref, req, cancel, [&result](const core::AcquireResult &r) { result = r; });
            QTRY_COMPARE_WITH_TIMEOUT(cmd({"LLEN", "{race}:queue"}).toInteger(), std::optional<qint64>(1),
                                      10000);
            // Give up and release at once: the hand-off and the leave race on the server.
            cancel.cancel();
            m_store->release(owner.grant, [](const core::ReleaseResult &) {});
            QTRY_VERIFY_WITH_TIMEOUT(result.has_value(), 10000);
            if (result->status == core::AcquireResult::Status::Granted) {
                awaitCall<core::ReleaseResult>([&](auto done) { m_store->release(result->grant, done); });
            } else {
                QVERIFY(result->error.contains(QStringLiteral("cancelled")));
            }
            QTRY_COMPARE_WITH_TIMEOUT(cmd({"ZCARD", "{race}:holders"}).toInteger(), std::optional<qint64>(0),
                                      10000);
            QCOMPARE(cmd({"LLEN", "{race}:queue"}).toInteger(), std::optional<qint64>(0));
            QCOMPARE(cmd({"HLEN", "{race}:waiting"}).toInteger(), std::optional<qint64>(0));
        }
    }

    void waitingEndsAtTheDeadlineAndLeavesTheQueue() {
        const auto ref = makeRef(core::Kind::Leased, QStringLiteral("deadline"), 1);
        QCOMPARE(acquire(*m_store, ref, QStringLiteral("owner")).status,
                 core::AcquireResult::Status::Granted);
        const auto r = acquire(*m_store, ref, QStringLiteral("patient"), 300);
        QCOMPARE(r.status, core::AcquireResult::Status::Busy);
        QCOMPARE(r.holders.value(0).id, QStringLiteral("owner"));
        QVERIFY(r.attempts >= 1 && r.attempts <= 3);
        QTRY_COMPARE_WITH_TIMEOUT(cmd({"LLEN", "{deadline}:queue"}).toInteger(), std::optional<qint64>(0),
                                  10000);
    }

    void waitingCanBeCancelled() {
        const auto ref = makeRef(core::Kind::Leased, QStringLiteral("cancel"), 1);
        QCOMPARE(acquire(*m_store, ref, QStringLiteral("owner")).status,
                 core::AcquireResult::Status::Granted);
        core::Cancellation cancel;
        std::optional<core::AcquireResult> result;
        core::AcquireRequest req;
        req.holder = QStringLiteral("quitter");
        req.waitMs = 120000;
        m_store->acquire(ref, req, cancel, [&result](const core::AcquireResult &r) { result = r; });
        QTRY_COMPARE_WITH_TIMEOUT(cmd({"LLEN", "{cancel}:queue"}).toInteger(), std::optional<qint64>(1),
                                  10000);
        cancel.cancel();
        QTRY_VERIFY_WITH_TIMEOUT(result.has_value(), 10000);
        QCOMPARE(result->status, core::AcquireResult::Status::Error);
        QVERIFY(result->error.contains(QStringLiteral("cancelled")));
        QTRY_COMPARE_WITH_TIMEOUT(cmd({"LLEN", "{cancel}:queue"}).toInteger(), std::optional<qint64>(0),
                                  10000);
    }

    void waitingOnALockRetriesAtExpiry() {
        cmd({"SET", "short", "crashed", "PX", "400"});
        const auto r = acquire(*m_store, makeRef(core::Kind::Lock, QStringLiteral("short"), 1),
                               QStringLiteral("next"), 20000);
        QCOMPARE(r.status, core::AcquireResult::Status::Granted);
        QVERIFY2(r.attempts <= 12, qPrintable(QString::number(r.attempts)));
        QCOMPARE(cmd({"GET", "short"}).str, QByteArray("next"));
    }

    void safety_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<qint64>("limit");
        for (const auto &k : builtinRedisKinds()) {
            if (!core::kindIsWritable(k->kind()))
                continue;
            const qint64 limit = k->kind() == core::Kind::Lock ? 1 : 5;
            QTest::newRow(qPrintable(core::kindName(k->kind()))) << static_cast<int>(k->kind()) << limit;
        }
    }

    // 64 clients over 4 connections, each making 2,000 acquire attempts (scaled by
    // SEMSCOPE_TEST_SCALE) and releasing every grant. Every client records [grant reply received,
    // release sent] on one logical clock (all on this thread); no moment may see more than `limit`
    // of those intervals open. Fencing tokens must rise in grant order: per connection (replies
    // come in order) and across connections for grants whose request was sent after another's reply.
    void safety() {
        QFETCH(int, kind);
        QFETCH(qint64, limit);
        const auto ref = makeRef(static_cast<core::Kind>(kind),
                                 QStringLiteral("safety-") + QTest::currentDataTag(), limit);
        constexpr int kClients = 64;
        constexpr int kConnections = 4;
        const int perClient = std::max(20, static_cast<int>(2000 * testScale()));

        std::vector<std::unique_ptr<RedisSemaphoreStore>> stores;
        for (int i = 0; i < kConnections; ++i)
            stores.push_back(std::make_unique<RedisSemaphoreStore>(m_server.settings()));

        struct Interval {
            qint64 start;
            qint64 end;
        };
        std::vector<Interval> intervals;
        intervals.reserve(kClients * perClient / 2);
        qint64 clock = 0;
        qint64 maxToken = 0;
        qint64 minToken = std::numeric_limits<qint64>::max();
        std::vector<qint64> lastTokenOnConnection(kConnections, 0);
        QStringList errors;
        qint64 busy = 0;
        int finished = 0;
        std::vector<int> done(kClients, 0);

        std::function<void(int)> next = [&](int c) {
            if (done[c] >= perClient || errors.size() > 20) {
                ++finished;
                return;
            }
            const int attempt = done[c]++;
            RedisSemaphoreStore &store = *stores[c % kConnections];
            core::AcquireRequest req;
            req.holder = QStringLiteral("client-%1-%2").arg(c).arg(attempt);
            req.ttlMs = 30000;
            const qint64 maxTokenAtSend = maxToken;
            store.acquire(
                ref, req, core::Cancellation(), [&, c, maxTokenAtSend](const core::AcquireResult &r) {
                    if (r.status == core::AcquireResult::Status::Busy) {
                        ++busy;
                        next(c);
                        return;
                    }
                    if (r.status != core::AcquireResult::Status::Granted) {
                        errors << r.error;
                        next(c);
                        return;
                    }
                    const qint64 start = ++clock;
                    if (r.grant.token) {
                        const qint64 token = *r.grant.token;
                        qint64 &last = lastTokenOnConnection[c % kConnections];
                        if (token <= last || token <= maxTokenAtSend)
                            errors << QStringLiteral(
                                          "token %1 after %2 (connection) / %3 (seen before sending)")
                                          .arg(token)
                                          .arg(last)
                                          .arg(maxTokenAtSend);
                        last = token;
                        maxToken = std::max(maxToken, token);
                        minToken = std::min(minToken, token);
                    }
                    // Hold the slot across a turn of the event loop, so other clients' grants land
                    // inside this interval if the layout over-admits.
                    const core::Grant grant = r.grant;
                    QTimer::singleShot(0, stores[c % kConnections].get(), [&, c, start, grant] {
                        intervals.push_back({start, ++clock});
                        stores[c % kConnections]->release(grant, [&, c](const core::ReleaseResult &rr) {
                            if (rr.status != core::ReleaseResult::Status::Ok)
                                errors << QStringLiteral("release: ") + rr.error;
                            next(c);
                        });
                    });
                });
        };
        for (int c = 0; c < kClients; ++c)
            next(c);
        // A real event loop, not QTRY: QTest::qWait sleeps 10 ms between rounds of events, which
        // left this run idle half of its time.
        test::waitFor([&] { return finished == kClients; }, 300000);
        QCOMPARE(finished, kClients);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.mid(0, 5).join(QLatin1Char('\n'))));

        // Sweep the intervals: +1 at each start, -1 at each end (all clock values are distinct).
        std::vector<std::pair<qint64, int>> events;
        for (const Interval &i : intervals) {
            events.emplace_back(i.start, +1);
            events.emplace_back(i.end, -1);
        }
        std::sort(events.begin(), events.end());
        qint64 open = 0;
        qint64 peak = 0;
        qint64 violations = 0;
        for (const auto &[at, delta] : events) {
            open += delta;
            if (open > limit)
                ++violations;
            peak = std::max(peak, open);
        }
        qInfo("%s: %zu grants, %lld busy replies, peak %lld holders (limit %lld)", QTest::currentDataTag(),
              intervals.size(), busy, peak, limit);
        QCOMPARE(violations, 0);
        QCOMPARE(peak, limit); // the clients did contend: the limit was reached, and held
        QVERIFY(intervals.size() >= static_cast<size_t>(kClients));
        if (ref.kind == core::Kind::Leased)
            // One token per grant, no gaps (the counter starts from the server's clock, not from 0).
            QCOMPARE(maxToken - minToken + 1, static_cast<qint64>(intervals.size()));

        auto after = awaitCall<core::Snapshot>([&](auto d) { m_store->snapshot(ref, d); });
        QCOMPARE(after->usedCount(), 0);
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestRedisSemaphoreStore)
#include "tst_redissemaphorestore.moc"
