// semscope's own `leased` layout against a real redis-server: exact snapshots, fencing tokens,
// compare-and-act, lost leases, the FIFO gate and bad data.
#include "RedisServer.h"
#include "TestMain.h"
#include "TestWait.h"
#include "redis/RedisConnection.h"
#include "redis/kinds/LeasedKind.h"

#include <QtTest>
#include <map>
#include <memory>

using namespace semscope;
using namespace semscope::redis;
using semscope::test::awaitCall;

class TestLeasedKind : public QObject {
    Q_OBJECT

private:
    test::RedisServer m_server;
    std::unique_ptr<RedisConnection> m_conn;
    LeasedKind m_kind;

    core::SemaphoreRef ref(const QString &name, qint64 limit = 5) {
        core::SemaphoreRef r;
        r.kind = core::Kind::Leased;
        r.name = name;
        r.profile.limit = limit;
        return r;
    }

    core::AcquireResult acquire(const core::SemaphoreRef &r, const QString &holder, qint64 ttlMs = 30000,
                                bool queue = false) {
        core::AcquireRequest req;
        req.holder = holder;
        req.ttlMs = ttlMs;
        req.waitMs = queue ? 60000 : 0;
        const auto res =
            awaitCall<core::AcquireResult>([&](auto done) { m_kind.tryAcquire(*m_conn, r, req, done); });
        return res.value_or(core::AcquireResult{});
    }

    // One attempt of a waiting acquire that takes hand-offs on `channel`; returns the ticket too.
    std::pair<core::AcquireResult, qint64> queued(const core::SemaphoreRef &r, const QString &holder,
                                                  const QByteArray &channel, qint64 ttlMs = 30000,
                                                  qint64 ticket = -1) {
        core::AcquireRequest req;
        req.holder = holder;
        req.ttlMs = ttlMs;
        req.waitMs = 60000;
        std::optional<std::pair<core::AcquireResult, qint64>> out;
        m_kind.attemptQueued(
            *m_conn, r, req, channel, true, ticket,
            [&out](const core::AcquireResult &res, qint64 ticket) { out.emplace(res, ticket); });
        if (!QTest::qWaitFor([&out] { return out.has_value(); }, 10000))
            return {core::AcquireResult{}, -1};
        return *out;
    }

    core::ReleaseResult release(const core::Grant &g) {
        return awaitCall<core::ReleaseResult>([&](auto done) { m_kind.release(*m_conn, g, done); })
            .value_or(core::ReleaseResult{});
    }

    core::Snapshot snapshot(const core::SemaphoreRef &r) {
        return awaitCall<core::Snapshot>([&](auto done) { m_kind.snapshot(*m_conn, r, done); })
            .value_or(core::Snapshot{});
    }

    const core::Holder *holder(const core::Snapshot &s, const QString &id) {
        for (const auto &h : s.holders) {
            if (h.id == id)
                return &h;
        }
        return nullptr;
    }

    RedisReply cmd(const QList<QByteArray> &args) { return m_server.command(args); }

    // A connection subscribed to the notify channels of `tags` for semaphore `name`, once every
    // subscription is confirmed; what each channel hears lands in heard[tag].
    // A subscriber to some stores' notify channels of one semaphore, and what each channel heard.
    struct NotifyListener {
        std::unique_ptr<RedisConnection> conn;
        std::map<QByteArray, QList<QByteArray>> heard; // node-based: references to a list stay valid
    };

    // Null unless every subscription was confirmed.
    std::unique_ptr<NotifyListener> listen(const QString &name, const QList<QByteArray> &tags) {
        auto l = std::make_unique<NotifyListener>();
        l->conn = std::make_unique<RedisConnection>(m_server.settings());
        l->conn->open();
        auto confirmed = std::make_shared<int>(0); // the callback outlives this call (resubscribes)
        for (const QByteArray &tag : tags) {
            l->heard[tag];
            l->conn->subscribe(
                m_kind.notifyChannel(name, tag),
                [heard = &l->heard, tag](const QByteArray &m) { (*heard)[tag] << m; },
                [confirmed] { ++*confirmed; });
        }
        if (!QTest::qWaitFor([&] { return *confirmed >= tags.size(); }, 10000))
            return nullptr;
        return l;
    }

    // Makes a queued waiter's lease run out, as if it had stopped renewing: its record
    // "ticket|ttl|lease|tag|info" gets a lease long past.
    void killWaiter(const QByteArray &name, const QByteArray &waiter) {
        const QByteArray key = '{' + name + "}:waiting";
        QList<QByteArray> fields = cmd({"HGET", key, waiter}).str.split('|');
        QVERIFY2(fields.size() >= 5, qPrintable(cmd({"HGET", key, waiter}).describe()));
        fields[2] = "1";
        cmd({"HSET", key, waiter, fields.join('|')});
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

    void keysAreHashTagged() {
        const auto keys = m_kind.keysOf(QStringLiteral("orders"));
        QCOMPARE(keys, (QList<QByteArray>{"{orders}:holders", "{orders}:meta", "{orders}:owners",
                                          "{orders}:queue", "{orders}:waiting"}));
        QCOMPARE(m_kind.releaseChannel(QStringLiteral("orders")), QByteArray("{orders}:released"));
    }

    void snapshotIsExact() {
        const auto r = ref(QStringLiteral("orders"), 5);
        const auto alpha = acquire(r, QStringLiteral("alpha"), 30000);
        QCOMPARE(alpha.status, core::AcquireResult::Status::Granted);
        const qint64 first = *alpha.grant.token; // a new counter starts from the clock
        QCOMPARE(acquire(r, QStringLiteral("beta"), 60000).status, core::AcquireResult::Status::Granted);
        QCOMPARE(acquire(r, QStringLiteral("gamma"), 10000).status, core::AcquireResult::Status::Granted);

        const core::Snapshot s = snapshot(r);
        QVERIFY2(s.warnings.isEmpty(), qPrintable(s.warnings.join(QStringLiteral("; "))));
        QCOMPARE(s.limit, std::optional<qint64>(5));
        QCOMPARE(s.limitSource, core::LimitSource::Stored);
        QCOMPARE(s.counter, std::optional<qint64>(first + 2));
        QCOMPARE(s.keys.size(), 5);
        QCOMPARE(s.holders.size(), 3);
        QVERIFY(s.serverNowMs > 0);
        // Rank is expiry order: gamma (10 s), alpha (30 s), beta (60 s).
        QCOMPARE(s.holders.at(0).id, QStringLiteral("gamma"));
        QCOMPARE(s.holders.at(1).id, QStringLiteral("alpha"));
        QCOMPARE(s.holders.at(2).id, QStringLiteral("beta"));
        const struct {
            const char *id;
            qint64 token;
            qint64 ttl;
        } expected[] = {{"gamma", first + 2, 10000}, {"alpha", first, 30000}, {"beta", first + 1, 60000}};
        for (int i = 0; i < 3; ++i) {
            const core::Holder &h = s.holders.at(i);
            QCOMPARE(h.rank, std::optional<qint64>(i));
            QCOMPARE(h.token, std::optional<qint64>(expected[i].token));
            QCOMPARE(h.state, core::HolderState::Live);
            const qint64 ttl = *h.ttlMs(s.serverNowMs);
            QVERIFY2(ttl <= expected[i].ttl && ttl > expected[i].ttl - 10000,
                     qPrintable(QString::number(ttl)));
            // The expiry shown is exactly what Redis holds.
            const RedisReply score = cmd({"ZSCORE", "{orders}:holders", expected[i].id});
            QCOMPARE(score.toInteger(), h.expiresAtMs);
            QVERIFY(h.acquiredAtMs.has_value());
            QVERIFY(h.details.value(QStringLiteral("client")).toString().contains(QStringLiteral("pid")));
        }
        QCOMPARE(cmd({"HGET", "{orders}:meta", "limit"}).toInteger(), std::optional<qint64>(5));
    }

    void busyCarriesHoldersAndTokensRise() {
        const auto r = ref(QStringLiteral("pair"), 2);
        const auto a = acquire(r, QStringLiteral("a"), 20000);
        const auto b = acquire(r, QStringLiteral("b"), 40000);
        QVERIFY(a.grant.token);
        QCOMPARE(b.grant.token, std::optional<qint64>(*a.grant.token + 1));
        const auto c = acquire(r, QStringLiteral("c"));
        QCOMPARE(c.status, core::AcquireResult::Status::Busy);
        QCOMPARE(c.holders.size(), 2);
        QCOMPARE(c.holders.at(0).id, QStringLiteral("a"));
        QCOMPARE(c.holders.at(0).token, a.grant.token);
        QCOMPARE(c.earliestExpiryMs, a.grant.expiresAtMs);
        QVERIFY(c.retryAfterMs && *c.retryAfterMs <= 20000 && *c.retryAfterMs > 0);

        const auto released =
            awaitCall<core::ReleaseResult>([&](auto done) { m_kind.release(*m_conn, a.grant, done); });
        QCOMPARE(released->status, core::ReleaseResult::Status::Ok);
        const auto c2 = acquire(r, QStringLiteral("c"));
        QCOMPARE(c2.status, core::AcquireResult::Status::Granted);
        QCOMPARE(c2.grant.token, std::optional<qint64>(*a.grant.token + 2));
        // The limit stored by the first acquire wins over a later caller's profile.
        QCOMPARE(acquire(ref(QStringLiteral("pair"), 10), QStringLiteral("d")).status,
                 core::AcquireResult::Status::Busy);
    }

    // Issue 30 item 4: what an uncontended acquire/release pair costs the server, counted by Redis
    // itself (INFO commandstats: the commands the scripts run). Every one of them serves the grant,
    // its token, its holder record, the FIFO gate, compare-and-act or the release notification (a
    // PUBLISH that wakes clients retrying after a pause); the limit is read again at a release only
    // when somebody waits for the slot, and expired leases are looked for only when they could be in
    // somebody's way (the semaphore is full, or others queue).
    void uncontendedPairRunsFewCommands() {
        const auto r = ref(QStringLiteral("count"));
        const auto warm = acquire(r, QStringLiteral("warm")); // creates the semaphore
        QCOMPARE(warm.status, core::AcquireResult::Status::Granted);
        QCOMPARE(release(warm.grant).status, core::ReleaseResult::Status::Ok);
        cmd({"CONFIG", "RESETSTAT"});
        const auto a = acquire(r, QStringLiteral("a"));
        QCOMPARE(a.status, core::AcquireResult::Status::Granted);
        QCOMPARE(release(a.grant).status, core::ReleaseResult::Status::Ok);
        const QByteArray info = cmd({"INFO", "commandstats"}).str;
        qint64 scripts = 0;
        qint64 inner = 0;
        QStringList seen;
        for (const QByteArray &line : info.split('\n')) {
            if (!line.startsWith("cmdstat_"))
                continue;
            const QByteArray name = line.mid(8, line.indexOf(':') - 8);
            const qsizetype at = line.indexOf("calls=") + 6;
            const qint64 calls = line.mid(at, line.indexOf(',', at) - at).toLongLong();
            if (name == "evalsha" || name == "eval")
                scripts += calls;
            else if (!name.startsWith("config") && !name.startsWith("info"))
                inner += calls;
            seen << QStringLiteral("%1=%2").arg(QString::fromLatin1(name)).arg(calls);
        }
        QCOMPARE(scripts, 2);
        QVERIFY2(inner <= 18, qPrintable(seen.join(QLatin1Char(' '))));
        // The pair did all it must: a fresh token, and nothing left behind.
        QCOMPARE(a.grant.token, std::optional<qint64>(*warm.grant.token + 1));
        QCOMPARE(cmd({"ZCARD", "{count}:holders"}).integer, 0LL);
        QCOMPARE(cmd({"HLEN", "{count}:owners"}).integer, 0LL);
    }

    // An expired lease left in the holders set is counted against the limit (never over-admits)
    // and purged once it is in somebody's way.
    void expiredLeaseIsPurgedWhenInTheWay() {
        const auto r = ref(QStringLiteral("inway"), 2);
        const auto a = acquire(r, QStringLiteral("a"));
        const auto b = acquire(r, QStringLiteral("b"));
        QCOMPARE(b.status, core::AcquireResult::Status::Granted);
        cmd({"ZADD", "{inway}:holders", "XX", "1", "a"}); // a's lease ran out
        const auto c = acquire(r, QStringLiteral("c"));
        QCOMPARE(c.status, core::AcquireResult::Status::Granted);
        QCOMPARE(cmd({"ZSCORE", "{inway}:holders", "a"}).isNil(), true);
        QCOMPARE(cmd({"HEXISTS", "{inway}:owners", "a"}).integer, 0LL);
        QCOMPARE(acquire(r, QStringLiteral("d")).status, core::AcquireResult::Status::Busy);
        // The expired holder itself asks again: its old lease is gone, and it queues like anyone.
        QCOMPARE(acquire(r, QStringLiteral("a")).status, core::AcquireResult::Status::Busy);
    }

    void acquiringTwiceIsAnError() {
        const auto r = ref(QStringLiteral("twice"));
        const auto x = acquire(r, QStringLiteral("x"));
        QCOMPARE(x.status, core::AcquireResult::Status::Granted);
        const auto again = acquire(r, QStringLiteral("x"));
        QCOMPARE(again.status, core::AcquireResult::Status::Error);
        QVERIFY(again.error.contains(QStringLiteral("already holds")));
        QCOMPARE(snapshot(r).counter, x.grant.token);
    }

    void refreshExtendsAndNeverReacquires() {
        const auto r = ref(QStringLiteral("lease"));
        const auto g = acquire(r, QStringLiteral("worker"), 5000);
        auto ok =
            awaitCall<core::RefreshResult>([&](auto done) { m_kind.refresh(*m_conn, g.grant, 60000, done); });
        QCOMPARE(ok->status, core::RefreshResult::Status::Ok);
        QVERIFY(*ok->expiresAtMs > *g.grant.expiresAtMs);
        QCOMPARE(cmd({"ZSCORE", "{lease}:holders", "worker"}).toInteger(), ok->expiresAtMs);

        // The lease runs out (expiry moved into the past): refresh says Lost and removes the record.
        cmd({"ZADD", "{lease}:holders", "XX", "1", "worker"});
        auto lost =
            awaitCall<core::RefreshResult>([&](auto done) { m_kind.refresh(*m_conn, g.grant, 60000, done); });
        QCOMPARE(lost->status, core::RefreshResult::Status::Lost);
        QVERIFY(cmd({"ZSCORE", "{lease}:holders", "worker"}).isNil());
        QVERIFY(cmd({"HGET", "{lease}:owners", "worker"}).isNil());

        // Force-released: Lost too, and nothing is re-created.
        const auto g2 = acquire(r, QStringLiteral("worker2"));
        const core::Snapshot s = snapshot(r);
        auto forced = awaitCall<core::ForceReleaseResult>([&](auto done) {
            m_kind.forceRelease(*m_conn, r, *holder(s, QStringLiteral("worker2")), std::nullopt, done);
        });
        QCOMPARE(forced->status, core::ForceReleaseResult::Status::Released);
        lost = awaitCall<core::RefreshResult>(
            [&](auto done) { m_kind.refresh(*m_conn, g2.grant, 60000, done); });
        QCOMPARE(lost->status, core::RefreshResult::Status::Lost);
        QCOMPARE(cmd({"ZCARD", "{lease}:holders"}).toInteger(), std::optional<qint64>(0));

        // A release with a stale grant does not remove the next acquisition of the same id.
        const auto again = acquire(r, QStringLiteral("worker2"));
        QVERIFY(*again.grant.token > *g2.grant.token);
        auto stale =
            awaitCall<core::ReleaseResult>([&](auto done) { m_kind.release(*m_conn, g2.grant, done); });
        QCOMPARE(stale->status, core::ReleaseResult::Status::NotHeld);
        QVERIFY(!cmd({"ZSCORE", "{lease}:holders", "worker2"}).isNil());
    }

    void forceReleaseIsCompareAndAct() {
        const auto r = ref(QStringLiteral("cas"));
        const auto first = acquire(r, QStringLiteral("victim"));
        const core::Holder observed = *holder(snapshot(r), QStringLiteral("victim"));
        QCOMPARE(observed.token, first.grant.token);

        // The holder re-acquires between the operator's look and the force-release.
        QCOMPARE(awaitCall<core::ReleaseResult>([&](auto done) {
                     m_kind.release(*m_conn, first.grant, done);
                 })->status,
                 core::ReleaseResult::Status::Ok);
        const auto second = acquire(r, QStringLiteral("victim"));
        QVERIFY(*second.grant.token > *first.grant.token);

        auto changed = awaitCall<core::ForceReleaseResult>(
            [&](auto done) { m_kind.forceRelease(*m_conn, r, observed, std::nullopt, done); });
        QCOMPARE(changed->status, core::ForceReleaseResult::Status::Changed);
        QVERIFY(changed->message.contains(QString::number(*second.grant.token)));
        QCOMPARE(snapshot(r).holders.size(), 1); // nothing removed

        const core::Holder fresh = *holder(snapshot(r), QStringLiteral("victim"));
        auto released = awaitCall<core::ForceReleaseResult>(
            [&](auto done) { m_kind.forceRelease(*m_conn, r, fresh, std::nullopt, done); });
        QCOMPARE(released->status, core::ForceReleaseResult::Status::Released);
        auto gone = awaitCall<core::ForceReleaseResult>(
            [&](auto done) { m_kind.forceRelease(*m_conn, r, fresh, std::nullopt, done); });
        QCOMPARE(gone->status, core::ForceReleaseResult::Status::Gone);
    }

    void expiredButPresentIsFlaggedAndPurged() {
        const auto r = ref(QStringLiteral("stale"), 2);
        acquire(r, QStringLiteral("live"));
        acquire(r, QStringLiteral("dead"));
        cmd({"ZADD", "{stale}:holders", "XX", "1000", "dead"});
        const core::Snapshot s = snapshot(r);
        QCOMPARE(holder(s, QStringLiteral("dead"))->state, core::HolderState::ExpiredPresent);
        QCOMPARE(holder(s, QStringLiteral("live"))->state, core::HolderState::Live);
        auto purged =
            awaitCall<core::MaintenanceResult>([&](auto done) { m_kind.purgeExpired(*m_conn, r, done); });
        QVERIFY(purged->ok);
        QCOMPARE(purged->affected, 1);
        QCOMPARE(purged->message, QStringLiteral("removed 1 expired holder and 0 dead waiters"));
        QCOMPARE(snapshot(r).holders.size(), 1);
        QVERIFY(cmd({"HGET", "{stale}:owners", "dead"}).isNil());
    }

    void overLimitHoldersAreFlagged() {
        const auto r = ref(QStringLiteral("over"), 3);
        for (const char *h : {"a", "b", "c"})
            acquire(r, QString::fromLatin1(h));
        auto lowered =
            awaitCall<core::MaintenanceResult>([&](auto done) { m_kind.setLimit(*m_conn, r, 2, done); });
        QVERIFY(lowered->ok);
        const core::Snapshot s = snapshot(r);
        QCOMPARE(s.limit, std::optional<qint64>(2));
        QCOMPARE(s.countInState(core::HolderState::OverLimit), 1);
        QVERIFY(!s.warnings.isEmpty());
        QCOMPARE(acquire(r, QStringLiteral("d")).status, core::AcquireResult::Status::Busy);
        auto bad =
            awaitCall<core::MaintenanceResult>([&](auto done) { m_kind.setLimit(*m_conn, r, 0, done); });
        QVERIFY(!bad->ok);
    }

    void fifoGateHoldsBackNewcomers() {
        const auto r = ref(QStringLiteral("queue"), 1);
        const auto a = acquire(r, QStringLiteral("a"));
        const auto b = acquire(r, QStringLiteral("b"), 30000, true);
        const auto c = acquire(r, QStringLiteral("c"), 30000, true);
        QCOMPARE(b.queuePosition, std::optional<qint64>(0));
        QCOMPARE(c.queuePosition, std::optional<qint64>(1));
        QCOMPARE(snapshot(r).countInState(core::HolderState::Waiting), 2);

        awaitCall<core::ReleaseResult>([&](auto done) { m_kind.release(*m_conn, a.grant, done); });
        // A slot is free, but b and c queued first: the newcomer and c must wait, b gets it.
        QCOMPARE(acquire(r, QStringLiteral("newcomer")).status, core::AcquireResult::Status::Busy);
        QCOMPARE(acquire(r, QStringLiteral("c"), 30000, true).status, core::AcquireResult::Status::Busy);
        QCOMPARE(acquire(r, QStringLiteral("b"), 30000, true).status, core::AcquireResult::Status::Granted);

        // A waiter that gives up leaves the queue.
        bool left = false;
        m_kind.leaveQueue(*m_conn, r, "c", -1, [&left] { left = true; });
        QTRY_VERIFY_WITH_TIMEOUT(left, 10000);
        QCOMPARE(cmd({"LLEN", "{queue}:queue"}).toInteger(), std::optional<qint64>(0));
        QCOMPARE(cmd({"HLEN", "{queue}:waiting"}).toInteger(), std::optional<qint64>(0));

        // A waiter that stops renewing drops out of the queue by itself.
        acquire(r, QStringLiteral("ghost"), 30000, true);
        killWaiter("queue", "ghost");
        auto purged =
            awaitCall<core::MaintenanceResult>([&](auto done) { m_kind.purgeExpired(*m_conn, r, done); });
        QCOMPARE(purged->affected, 1);
    }

    // A release grants its slot to the head of the queue in the same script and publishes the grant
    // on that waiter's notify channel: token, expiry and ticket; nobody else hears of it.
    void releaseHandsTheSlotToTheHeadOfTheQueue() {
        const auto r = ref(QStringLiteral("handoff"), 1);
        const auto listener = listen(r.name, {"tagb", "tagc"});
        QVERIFY(listener);
        const QList<QByteArray> &toB = listener->heard["tagb"];
        const QList<QByteArray> &toC = listener->heard["tagc"];

        const auto a = acquire(r, QStringLiteral("a"), 30000);
        QVERIFY(a.grant.token);
        const qint64 first = *a.grant.token;
        const auto [b, bTicket] = queued(r, QStringLiteral("b"), "tagb", 20000);
        const auto [c, cTicket] = queued(r, QStringLiteral("c"), "tagc", 40000);
        QCOMPARE(b.status, core::AcquireResult::Status::Busy);
        QCOMPARE(c.status, core::AcquireResult::Status::Busy);
        QVERIFY(b.holders.size() == 1 && b.holders.at(0).id == QStringLiteral("a"));
        QVERIFY(bTicket > 0 && cTicket > bTicket);
        QCOMPARE(c.queuePosition, std::optional<qint64>(1));

        QCOMPARE(release(a.grant).status, core::ReleaseResult::Status::Ok);
        QTRY_COMPARE_WITH_TIMEOUT(toB.size(), 1, 10000);
        const auto handOff = m_kind.parseHandOff(toB.at(0));
        QVERIFY2(handOff.has_value(), toB.at(0).constData());
        QCOMPARE(handOff->holder, QByteArray("b"));
        QCOMPARE(handOff->ticket, bTicket);
        QCOMPARE(handOff->token, first + 1);
        // b holds now, with its own ttl, in Redis, without having asked again.
        QCOMPARE(cmd({"ZSCORE", "{handoff}:holders", "b"}).toInteger(),
                 std::optional<qint64>(handOff->expiresAtMs));
        const core::Snapshot s = snapshot(r);
        QCOMPARE(s.countInState(core::HolderState::Live), 1);
        QCOMPARE(holder(s, QStringLiteral("b"))->token, std::optional<qint64>(first + 1));
        const qint64 ttl = *holder(s, QStringLiteral("b"))->ttlMs(s.serverNowMs);
        QVERIFY2(ttl <= 20000 && ttl > 10000, qPrintable(QString::number(ttl)));
        QCOMPARE(s.countInState(core::HolderState::Waiting), 1);
        QVERIFY(toC.isEmpty());

        // Another acquisition of the id b (not that queue entry) is the usual error ...
        const auto other = queued(r, QStringLiteral("b"), "tagb", 20000, cTicket + 100).first;
        QCOMPARE(other.status, core::AcquireResult::Status::Error);
        QVERIFY(other.error.contains(QStringLiteral("already holds")));
        // ... while a retry of that queue entry (its message lost, say) picks the same grant up.
        const auto [again, againTicket] = queued(r, QStringLiteral("b"), "tagb", 20000, bTicket);
        QCOMPARE(again.status, core::AcquireResult::Status::Granted);
        QCOMPARE(again.grant.token, std::optional<qint64>(first + 1));
        QCOMPARE(again.grant.expiresAtMs, std::optional<qint64>(handOff->expiresAtMs));
        // ... once: after that, a second acquire of b is the usual error.
        QCOMPARE(queued(r, QStringLiteral("b"), "tagb").first.status, core::AcquireResult::Status::Error);

        // b's release hands on to c; tokens keep rising.
        QCOMPARE(release(again.grant).status, core::ReleaseResult::Status::Ok);
        QTRY_COMPARE_WITH_TIMEOUT(toC.size(), 1, 10000);
        QCOMPARE(m_kind.parseHandOff(toC.at(0))->token, first + 2);
        QCOMPARE(m_kind.parseHandOff(toC.at(0))->ticket, cTicket);
        QCOMPARE(cmd({"LLEN", "{handoff}:queue"}).toInteger(), std::optional<qint64>(0));
        QCOMPARE(toB.size(), 1);
    }

    // A release that leaves its slot free, nobody being queued for it, says so on the release channel
    // (an empty message): clients that retry after a pause ask now. A slot handed to the head of the
    // queue is not free, and is told to its waiter alone.
    void aSlotLeftFreeIsAnnounced() {
        const auto r = ref(QStringLiteral("announce"), 1);
        RedisConnection subscriber(m_server.settings());
        subscriber.open();
        QList<QByteArray> heard;
        bool subscribed = false;
        subscriber.subscribe(
            m_kind.releaseChannel(r.name), [&heard](const QByteArray &m) { heard << m; },
            [&subscribed] { subscribed = true; });
        QTRY_VERIFY_WITH_TIMEOUT(subscribed, 10000);

        const auto a = acquire(r, QStringLiteral("a"));
        QCOMPARE(a.status, core::AcquireResult::Status::Granted);
        const auto [b, bTicket] = queued(r, QStringLiteral("b"), "tagb");
        QCOMPARE(b.status, core::AcquireResult::Status::Busy);
        QCOMPARE(release(a.grant).status, core::ReleaseResult::Status::Ok); // handed to b
        const auto picked = queued(r, QStringLiteral("b"), "tagb", 30000, bTicket).first;
        QCOMPARE(picked.status, core::AcquireResult::Status::Granted);
        QCOMPARE(release(picked.grant).status, core::ReleaseResult::Status::Ok); // left free
        // A marker published after both releases arrives after whatever they published.
        cmd({"PUBLISH", m_kind.releaseChannel(r.name), "end"});
        QTRY_VERIFY_WITH_TIMEOUT(heard.contains("end"), 10000);
        QCOMPARE(heard, (QList<QByteArray>{QByteArray(), "end"}));
    }

    // A release by the store a waiter waits in hands it the slot in the release's own reply and
    // publishes nothing; a waiter of another store is told on its channel, as before.
    void releaseReturnsHandOffsToItsOwnStore() {
        const auto r = ref(QStringLiteral("own"), 1);
        const auto listener = listen(r.name, {"mine", "other"});
        QVERIFY(listener);
        const QList<QByteArray> &toMine = listener->heard["mine"];
        const QList<QByteArray> &toOther = listener->heard["other"];

        const auto a = acquire(r, QStringLiteral("a"));
        const qint64 bTicket = queued(r, QStringLiteral("b"), "mine").second;
        const qint64 cTicket = queued(r, QStringLiteral("c"), "other").second;
        auto releaseAs = [&](const core::Grant &g, const QByteArray &tag) {
            std::optional<std::pair<core::ReleaseResult, QList<WaitQueueKind::HandOff>>> out;
            m_kind.releaseHandingOff(*m_conn, g, tag,
                                     [&out](const core::ReleaseResult &res,
                                            const QList<WaitQueueKind::HandOff> &h) { out.emplace(res, h); });
            if (!QTest::qWaitFor([&out] { return out.has_value(); }, 10000))
                return std::pair<core::ReleaseResult, QList<WaitQueueKind::HandOff>>{};
            return *out;
        };

        const auto [released, handOffs] = releaseAs(a.grant, "mine");
        QCOMPARE(released.status, core::ReleaseResult::Status::Ok);
        QCOMPARE(handOffs.size(), 1);
        QCOMPARE(handOffs.at(0).holder, QByteArray("b"));
        QCOMPARE(handOffs.at(0).ticket, bTicket);
        QCOMPARE(handOffs.at(0).token, *a.grant.token + 1);
        QCOMPARE(cmd({"ZSCORE", "{own}:holders", "b"}).toInteger(),
                 std::optional<qint64>(handOffs.at(0).expiresAtMs));
        // Nothing was published: a marker sent after the release is the first message to arrive.
        cmd({"PUBLISH", m_kind.notifyChannel(r.name, "mine"), "marker"});
        QTRY_COMPARE_WITH_TIMEOUT(toMine.size(), 1, 10000);
        QCOMPARE(toMine.at(0), QByteArray("marker"));

        // b, released by the store tagged "mine", hands on to c of another store: published.
        core::Grant b;
        b.ref = r;
        b.rawHolder = "b";
        b.holder = QStringLiteral("b");
        b.token = handOffs.at(0).token;
        const auto [releasedB, none] = releaseAs(b, "mine");
        QCOMPARE(releasedB.status, core::ReleaseResult::Status::Ok);
        QVERIFY(none.isEmpty());
        QTRY_COMPARE_WITH_TIMEOUT(toOther.size(), 1, 10000);
        QCOMPARE(m_kind.parseHandOff(toOther.at(0))->ticket, cTicket);
    }

    // A waiter that asks again keeps its place and its ticket: the ask renews its waiter lease.
    void renewalKeepsItsPlace() {
        const auto r = ref(QStringLiteral("renew"), 1);
        acquire(r, QStringLiteral("a"));
        queued(r, QStringLiteral("b"), "t");
        const auto [c, cTicket] = queued(r, QStringLiteral("c"), "t");
        queued(r, QStringLiteral("d"), "t");
        QCOMPARE(c.queuePosition, std::optional<qint64>(1));
        // Its lease long past (it stopped renewing, say): asking again still keeps its place, and
        // the lease starts over from the server's "now".
        killWaiter("renew", "c");
        const auto [again, againTicket] = queued(r, QStringLiteral("c"), "t", 30000, cTicket);
        QCOMPARE(again.status, core::AcquireResult::Status::Busy);
        QCOMPARE(again.queuePosition, std::optional<qint64>(1));
        QCOMPARE(againTicket, cTicket);
        const qint64 serverNowMs = cmd({"TIME"}).elements.value(0).str.toLongLong() * 1000;
        const QList<QByteArray> record = cmd({"HGET", "{renew}:waiting", "c"}).str.split('|');
        QVERIFY2(record.size() >= 5 && record.at(2).toLongLong() > serverNowMs, record.join('|').constData());
        QCOMPARE(cmd({"LRANGE", "{renew}:queue", "0", "-1"}).elements.size(), 3);
        QCOMPARE(cmd({"LINDEX", "{renew}:queue", "1"}).str, QByteArray("c"));
    }

    // The snapshot tells the operator about waiters that stopped renewing, queue entries nobody
    // stands behind and hand-offs not picked up yet; repair and purge clean up.
    void deadStrayAndUnclaimedWaitersAreShown() {
        const auto r = ref(QStringLiteral("odd"), 1);
        const auto a = acquire(r, QStringLiteral("a"));
        queued(r, QStringLiteral("w1"), "t");
        queued(r, QStringLiteral("w2"), "t");
        queued(r, QStringLiteral("w3"), "t");
        killWaiter("odd", "w2");
        cmd({"RPUSH", "{odd}:queue", "ghost"});                    // an entry without a record
        cmd({"HSET", "{odd}:waiting", "lonely", "9|30000|1|t|x"}); // a record nobody queues

        core::Snapshot s = snapshot(r);
        const QString warnings = s.warnings.join(QLatin1Char('\n'));
        QVERIFY2(warnings.contains(QStringLiteral("1 waiter stopped renewing its place; it drops out when it "
                                                  "reaches the head of the queue, or at a purge")),
                 qPrintable(warnings));
        QVERIFY2(warnings.contains(QStringLiteral("1 queue entry without a waiter record")),
                 qPrintable(warnings));
        QCOMPARE(s.countInState(core::HolderState::Waiting), 3);
        QCOMPARE(holder(s, QStringLiteral("ghost"))->state, core::HolderState::Orphan);
        QVERIFY(*holder(s, QStringLiteral("w2"))->expiresAtMs < s.serverNowMs);
        QCOMPARE(holder(s, QStringLiteral("w3"))->rank, std::optional<qint64>(2));

        auto repaired =
            awaitCall<core::MaintenanceResult>([&](auto done) { m_kind.repair(*m_conn, r, done); });
        QVERIFY2(repaired->ok, qPrintable(repaired->message));
        QCOMPARE(repaired->affected, 2); // ghost's entry and lonely's record
        QCOMPARE(repaired->message,
                 QStringLiteral("dropped 0 owner records without a holder and 2 stray queue entries"));
        QVERIFY(cmd({"HGET", "{odd}:waiting", "lonely"}).isNil());
        QCOMPARE(cmd({"LLEN", "{odd}:queue"}).toInteger(), std::optional<qint64>(3));

        auto purged =
            awaitCall<core::MaintenanceResult>([&](auto done) { m_kind.purgeExpired(*m_conn, r, done); });
        QCOMPARE(purged->affected, 1); // w2
        QCOMPARE(purged->message, QStringLiteral("removed 0 expired holders and 1 dead waiter"));
        QCOMPARE(cmd({"LRANGE", "{odd}:queue", "0", "-1"}).elements.size(), 2);

        // The release hands the slot to w1, and its holder row says it came from the queue.
        QCOMPARE(release(a.grant).status, core::ReleaseResult::Status::Ok);
        s = snapshot(r);
        const core::Holder *w1 = holder(s, QStringLiteral("w1"));
        QVERIFY(w1 && w1->state == core::HolderState::Live);
        QVERIFY2(w1->details.value(QStringLiteral("hand_off"))
                     .toString()
                     .contains(QStringLiteral("handed over by a release")),
                 qPrintable(w1->details.value(QStringLiteral("hand_off")).toString()));
        QVERIFY(!holder(s, QStringLiteral("w3"))->details.contains(QStringLiteral("hand_off")));
    }

    // Keys edited by hand so that a queued id also holds a slot: the queue does not grant it a second
    // time, the slot goes to the next in line, and the queued acquisition cannot claim the slot the
    // other one holds.
    void aQueuedIdThatHoldsIsNotGrantedTwice() {
        const auto r = ref(QStringLiteral("twice"), 2);
        acquire(r, QStringLiteral("a"));
        const auto b = acquire(r, QStringLiteral("b"));
        const qint64 xTicket = queued(r, QStringLiteral("x"), "t").second;
        queued(r, QStringLiteral("y"), "t");
        cmd({"ZADD", "{twice}:holders", "99999999999999", "x"});
        cmd({"HSET", "{twice}:owners", "x", "77|1|edited by hand"});
        cmd({"ZREM", "{twice}:holders", "a"}); // room for exactly one more

        QCOMPARE(release(b.grant).status, core::ReleaseResult::Status::Ok);
        QVERIFY(!cmd({"ZSCORE", "{twice}:holders", "y"}).isNil());
        QCOMPARE(cmd({"HGET", "{twice}:owners", "x"}).str, QByteArray("77|1|edited by hand"));
        QVERIFY(cmd({"HGET", "{twice}:waiting", "x"}).isNil());
        const auto retry = queued(r, QStringLiteral("x"), "t", 30000, xTicket).first;
        QCOMPARE(retry.status, core::AcquireResult::Status::Error);
        QVERIFY2(retry.error.contains(QStringLiteral("already holds")), qPrintable(retry.error));
    }

    // A waiter that gives up just after a release handed it a slot gives that slot back, and it goes
    // on to the next in line; a waiter whose lease ran out is skipped.
    void leavingReturnsASlotHandedOffMeanwhile() {
        const auto r = ref(QStringLiteral("late"), 1);
        const auto a = acquire(r, QStringLiteral("a"));
        queued(r, QStringLiteral("dead"), "chan");
        const qint64 bTicket = queued(r, QStringLiteral("b"), "chan").second;
        queued(r, QStringLiteral("c"), "chan");
        killWaiter("late", "dead");
        QCOMPARE(release(a.grant).status, core::ReleaseResult::Status::Ok);
        QVERIFY(!cmd({"ZSCORE", "{late}:holders", "b"}).isNil());
        QVERIFY(cmd({"ZSCORE", "{late}:holders", "dead"}).isNil());
        QVERIFY(cmd({"HGET", "{late}:waiting", "dead"}).isNil());

        // Only that queue entry gives the slot back: a leave naming another ticket (or none) of the
        // same id leaves it where it is.
        bool left = false;
        for (const qint64 ticket : {qint64(-1), bTicket + 100}) {
            left = false;
            m_kind.leaveQueue(*m_conn, r, "b", ticket, [&left] { left = true; });
            QTRY_VERIFY_WITH_TIMEOUT(left, 10000);
            QVERIFY(!cmd({"ZSCORE", "{late}:holders", "b"}).isNil());
        }
        left = false;
        m_kind.leaveQueue(*m_conn, r, "b", bTicket, [&left] { left = true; });
        QTRY_VERIFY_WITH_TIMEOUT(left, 10000);
        QVERIFY(cmd({"ZSCORE", "{late}:holders", "b"}).isNil());
        QVERIFY(cmd({"HGET", "{late}:waiting", "b"}).isNil());
        const core::Snapshot s = snapshot(r);
        QCOMPARE(s.countInState(core::HolderState::Live), 1);
        QCOMPARE(holder(s, QStringLiteral("c"))->token, std::optional<qint64>(*a.grant.token + 2));
        QCOMPARE(s.countInState(core::HolderState::Waiting), 0);

        // Leaving again (nothing queued, nothing handed) changes nothing.
        left = false;
        m_kind.leaveQueue(*m_conn, r, "b", bTicket, [&left] { left = true; });
        QTRY_VERIFY_WITH_TIMEOUT(left, 10000);
        QVERIFY(!cmd({"ZSCORE", "{late}:holders", "c"}).isNil());
    }

    // Freed room reaches the queue whatever frees it: purge of an expired lease, force-release,
    // a raised limit.
    void everySlotFreedGoesToTheQueue() {
        const auto r = ref(QStringLiteral("freed"), 1);
        const auto a = acquire(r, QStringLiteral("a"));
        queued(r, QStringLiteral("w1"), "chan");
        queued(r, QStringLiteral("w2"), "chan");
        queued(r, QStringLiteral("w3"), "chan");
        cmd({"ZADD", "{freed}:holders", "XX", "1", "a"});
        awaitCall<core::MaintenanceResult>([&](auto done) { m_kind.purgeExpired(*m_conn, r, done); });
        QVERIFY(!cmd({"ZSCORE", "{freed}:holders", "w1"}).isNil());

        const core::Holder w1 = *holder(snapshot(r), QStringLiteral("w1"));
        const auto forced = awaitCall<core::ForceReleaseResult>(
            [&](auto done) { m_kind.forceRelease(*m_conn, r, w1, std::nullopt, done); });
        QCOMPARE(forced->status, core::ForceReleaseResult::Status::Released);
        QVERIFY(!cmd({"ZSCORE", "{freed}:holders", "w2"}).isNil());
        QVERIFY(cmd({"HGET", "{freed}:waiting", "w1"}).isNil());

        awaitCall<core::MaintenanceResult>([&](auto done) { m_kind.setLimit(*m_conn, r, 2, done); });
        const core::Snapshot s = snapshot(r);
        QCOMPARE(s.countInState(core::HolderState::Live), 2);
        QCOMPARE(holder(s, QStringLiteral("w3"))->token, std::optional<qint64>(*a.grant.token + 3));
        QCOMPARE(s.countInState(core::HolderState::Waiting), 0);
    }

    // A key of the wrong type fails every write script with an error that names the key, before
    // anything was written.
    void wrongTypeOfAnyKeyWritesNothing() {
        const auto r = ref(QStringLiteral("typed"), 1);
        const QList<QByteArray> keys = m_kind.keysOf(QStringLiteral("typed"));
        for (const QByteArray &bad : keys) {
            cmd({"FLUSHALL"});
            const auto a = acquire(r, QStringLiteral("a"));
            QCOMPARE(a.status, core::AcquireResult::Status::Granted);
            queued(r, QStringLiteral("w"), "chan");
            cmd({"DEL", bad});
            cmd({"SET", bad, "oops"});
            QList<QByteArray> before;
            for (const QByteArray &k : keys)
                before << cmd({"DUMP", k}).str;

            const auto viaAcquire = acquire(r, QStringLiteral("new"));
            const auto viaQueue = queued(r, QStringLiteral("w"), "chan").first;
            const auto viaRelease = release(a.grant);
            // A try-once acquire that finds no room writes nothing and so may not need to look at the
            // waiter records at all; otherwise every call fails on the bad key.
            QVERIFY(viaAcquire.status != core::AcquireResult::Status::Granted);
            QStringList errors{viaQueue.error, viaRelease.error};
            if (viaAcquire.status == core::AcquireResult::Status::Error || !bad.endsWith(":waiting"))
                errors << viaAcquire.error;
            for (const QString &error : errors) {
                QVERIFY2(error.contains(QStringLiteral("WRONGTYPE")) &&
                             error.contains(QString::fromUtf8(bad)) &&
                             error.contains(QStringLiteral("is a string")),
                         qPrintable(QString::fromUtf8(bad) + QStringLiteral(": ") + error));
            }
            for (int i = 0; i < keys.size(); ++i)
                QVERIFY2(cmd({"DUMP", keys.at(i)}).str == before.at(i),
                         QByteArray(keys.at(i) + " changed with " + bad + " bad").constData());
        }
    }

    void wrongTypeIsAWarningNotACrash() {
        const auto r = ref(QStringLiteral("broken"));
        cmd({"SET", "{broken}:meta", "not a hash"});
        const core::Snapshot s = snapshot(r);
        QVERIFY(!s.warnings.isEmpty());
        QVERIFY2(s.warnings.join(QLatin1Char(' ')).contains(QStringLiteral("is a string")),
                 qPrintable(s.warnings.join(QLatin1Char(' '))));
        // Said before any write is offered, with what the operator can do instead.
        QVERIFY2(s.writeRefusal.contains(QStringLiteral("{broken}:meta is a string, not the hash")),
                 qPrintable(s.writeRefusal));
        QVERIFY(!s.writeRefusalAdvice.isEmpty());
        const auto a = acquire(r, QStringLiteral("x"));
        QCOMPARE(a.status, core::AcquireResult::Status::Error);
        QVERIFY(a.error.contains(QStringLiteral("WRONGTYPE")));
        // The string was not touched, and other semaphores still work.
        QCOMPARE(cmd({"GET", "{broken}:meta"}).str, QByteArray("not a hash"));
        QCOMPARE(acquire(ref(QStringLiteral("fine")), QStringLiteral("x")).status,
                 core::AcquireResult::Status::Granted);
    }

    // A holders key of the wrong type and no meta (a key someone SET by hand): the acquire names the
    // key and its type. It said "METAMISSING … run repair", and repair then failed with WRONGTYPE.
    void wrongTypeHoldersWithoutMetaSaysWrongType() {
        const auto r = ref(QStringLiteral("handmade"));
        cmd({"SET", "{handmade}:holders", "3"});
        const auto a = acquire(r, QStringLiteral("x"));
        QCOMPARE(a.status, core::AcquireResult::Status::Error);
        QVERIFY2(a.error.contains(QStringLiteral("WRONGTYPE")) &&
                     a.error.contains(QStringLiteral("{handmade}:holders")),
                 qPrintable(a.error));
        QVERIFY2(!a.error.contains(QStringLiteral("METAMISSING")), qPrintable(a.error));
        QCOMPARE(cmd({"GET", "{handmade}:holders"}).str, QByteArray("3"));
        QCOMPARE(cmd({"EXISTS", "{handmade}:meta"}).integer, 0);
    }

    // Owner records left without a holder are counted in words, and repair drops them.
    void ownerRecordsWithoutAHolderAreCounted_data() {
        QTest::addColumn<int>("orphans");
        QTest::addColumn<QString>("warning");
        QTest::addColumn<QString>("repairMessage");
        QTest::newRow("one") << 1 << QStringLiteral("1 owner record without a holder; repair removes it")
                             << QStringLiteral(
                                    "dropped 1 owner record without a holder and 0 stray queue entries");
        QTest::newRow("two") << 2 << QStringLiteral("2 owner records without a holder; repair removes them")
                             << QStringLiteral(
                                    "dropped 2 owner records without a holder and 0 stray queue entries");
    }
    void ownerRecordsWithoutAHolderAreCounted() {
        QFETCH(int, orphans);
        QFETCH(QString, warning);
        QFETCH(QString, repairMessage);
        const auto r = ref(QStringLiteral("owners"), 3);
        acquire(r, QStringLiteral("held"));
        for (int i = 0; i < orphans; ++i)
            cmd({"HSET", "{owners}:owners", "gone" + QByteArray::number(i), "9|1|x"});
        const QStringList warnings = snapshot(r).warnings;
        QVERIFY2(warnings.contains(warning), qPrintable(warnings.join(QLatin1Char('\n'))));
        auto repaired =
            awaitCall<core::MaintenanceResult>([&](auto done) { m_kind.repair(*m_conn, r, done); });
        QVERIFY2(repaired->ok, qPrintable(repaired->message));
        QCOMPARE(repaired->message, repairMessage);
        QVERIFY(snapshot(r).warnings.isEmpty());
    }

    void garbageIsReportedAndRepaired() {
        const auto r = ref(QStringLiteral("junk"));
        const qint64 good = acquire(r, QStringLiteral("good")).grant.token.value_or(0);
        QVERIFY(good > 9);
        cmd({"ZADD", "{junk}:holders", "99999999999999", "nobody", "99999999999999", "norecord"});
        cmd({"HSET", "{junk}:owners", "orphan", "9|1|x", "nobody", "5|1|x", "good", "garbage"});
        cmd({"HSET", "{junk}:meta", "fence", "zero"});
        const core::Snapshot s = snapshot(r);
        const QString all = s.warnings.join(QLatin1Char('\n'));
        QVERIFY2(all.contains(QStringLiteral("malformed")), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("no owner record")), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("fencing counter")), qPrintable(all));

        auto repaired =
            awaitCall<core::MaintenanceResult>([&](auto done) { m_kind.repair(*m_conn, r, done); });
        QVERIFY2(repaired->ok, qPrintable(repaired->message));
        QVERIFY(cmd({"HGET", "{junk}:owners", "orphan"}).isNil());
        // The counter was unreadable, so how far it went is unknown: it starts again from the clock,
        // above every token it handed out (the orphan's 9, good's) ...
        const qint64 fence = cmd({"HGET", "{junk}:meta", "fence"}).toInteger().value_or(0);
        QVERIFY2(fence > good, qPrintable(QString::number(fence)));
        // ... and tokens keep rising after the repair.
        QCOMPARE(acquire(r, QStringLiteral("next")).grant.token, std::optional<qint64>(fence + 1));
    }

    // issue 14 item 3: the meta deleted or evicted under holders. An acquire must not create it anew
    // with its own limit and a fence from 0 (a newcomer would carry a holder's token): it refuses,
    // `show` says why, repair rebuilds the counter above every token on record (an expired
    // holder's too) and keeps whatever limit is left; tokens never repeat.
    void lostMetaIsRefusedAndRepaired_data() {
        QTest::addColumn<QList<QByteArray>>("damage");
        QTest::addColumn<bool>("limitSurvives");
        QTest::newRow("meta deleted") << QList<QByteArray>{"DEL", "{lost}:meta"} << false;
        QTest::newRow("fence field lost") << QList<QByteArray>{"HDEL", "{lost}:meta", "fence"} << true;
    }
    void lostMetaIsRefusedAndRepaired() {
        QFETCH(QList<QByteArray>, damage);
        QFETCH(bool, limitSurvives);
        const auto r = ref(QStringLiteral("lost"), 3);
        const qint64 first = acquire(r, QStringLiteral("a")).grant.token.value_or(0);
        QCOMPARE(acquire(r, QStringLiteral("b")).grant.token, std::optional<qint64>(first + 1));
        QCOMPARE(acquire(r, QStringLiteral("x")).grant.token, std::optional<qint64>(first + 2));
        cmd({"ZADD", "{lost}:holders", "XX", "1", "x"}); // x's lease is over; its token was handed out
        cmd(damage);

        // Another caller's profile says 5: the semaphore must not take it, nor a token from 0.
        const auto refused = acquire(ref(QStringLiteral("lost"), 5), QStringLiteral("c"));
        QCOMPARE(refused.status, core::AcquireResult::Status::Error);
        QVERIFY2(refused.error.contains(QStringLiteral("meta missing — run repair")),
                 qPrintable(refused.error));
        QCOMPARE(refused.error.contains(QStringLiteral("set-limit")), !limitSurvives);
        QVERIFY(cmd({"ZSCORE", "{lost}:holders", "c"}).isNil());
        QCOMPARE(cmd({"HEXISTS", "{lost}:meta", "fence"}).integer, 0LL);
        QVERIFY(!cmd({"HGET", "{lost}:owners", "x"}).isNil()); // nothing was purged either

        const QString warnings = snapshot(r).warnings.join(QLatin1Char('\n'));
        QVERIFY2(warnings.contains(QStringLiteral("meta missing — run repair")), qPrintable(warnings));

        auto repaired =
            awaitCall<core::MaintenanceResult>([&](auto done) { m_kind.repair(*m_conn, r, done); });
        QVERIFY2(repaired->ok, qPrintable(repaired->message));
        QCOMPARE(repaired->message.contains(QStringLiteral("set-limit")), !limitSurvives);
        const qint64 fence = cmd({"HGET", "{lost}:meta", "fence"}).toInteger().value_or(0);
        QVERIFY2(fence >= first + 2, qPrintable(QString::number(fence)));
        QVERIFY(cmd({"ZSCORE", "{lost}:holders", "x"}).isNil());
        QVERIFY(!snapshot(r).warnings.join(QLatin1Char('\n')).contains(QStringLiteral("meta missing")));

        if (!limitSurvives) {
            // Nothing on record proves the limit: the operator sets it.
            const auto noLimit = acquire(ref(QStringLiteral("lost"), 5), QStringLiteral("c"));
            QCOMPARE(noLimit.status, core::AcquireResult::Status::Error);
            QVERIFY2(noLimit.error.contains(QStringLiteral("set-limit")), qPrintable(noLimit.error));
            QVERIFY(snapshot(r).warnings.join(QLatin1Char('\n')).contains(QStringLiteral("no limit")));
            auto set =
                awaitCall<core::MaintenanceResult>([&](auto done) { m_kind.setLimit(*m_conn, r, 3, done); });
            QVERIFY2(set->ok, qPrintable(set->message));
        }
        QCOMPARE(cmd({"HGET", "{lost}:meta", "limit"}).toInteger(), std::optional<qint64>(3));
        const auto c = acquire(ref(QStringLiteral("lost"), 5), QStringLiteral("c"));
        QCOMPARE(c.status, core::AcquireResult::Status::Granted);
        QCOMPARE(c.grant.token, std::optional<qint64>(fence + 1));
        QCOMPARE(acquire(r, QStringLiteral("d")).status, core::AcquireResult::Status::Busy);
    }

    // set-limit on a semaphore whose meta was lost restores the limit with a counter above the
    // tokens on record, never one from 0.
    void setLimitAfterLostMetaKeepsTokensRising() {
        const auto r = ref(QStringLiteral("reset"), 2);
        QCOMPARE(acquire(r, QStringLiteral("a")).status, core::AcquireResult::Status::Granted);
        const qint64 b = acquire(r, QStringLiteral("b")).grant.token.value_or(0);
        QVERIFY(b > 0);
        cmd({"DEL", "{reset}:meta"});
        auto set =
            awaitCall<core::MaintenanceResult>([&](auto done) { m_kind.setLimit(*m_conn, r, 3, done); });
        QVERIFY2(set->ok, qPrintable(set->message));
        QVERIFY(acquire(r, QStringLiteral("c")).grant.token.value_or(0) > b);
    }

    // issue 29 item 1: a token never goes back, whatever lost the meta. a, b, c and d come and go
    // (token 4 in the old counting from 0), the meta is lost, and the next grant must still carry a
    // higher token than d's: d, paused past its lease, may still present it to the resource.
    void tokensNeverGoBackAcrossALostMeta_data() {
        QTest::addColumn<QString>("restart");
        QTest::newRow("acquire creates it anew") << QStringLiteral("acquire");
        QTest::newRow("set-limit creates it anew") << QStringLiteral("set-limit");
        QTest::newRow("repair rebuilds it under a holder") << QStringLiteral("repair");
    }
    void tokensNeverGoBackAcrossALostMeta() {
        QFETCH(QString, restart);
        const auto r = ref(QStringLiteral("gone"), 2);
        const bool keepHolder = restart == QStringLiteral("repair");
        if (keepHolder)
            QCOMPARE(acquire(r, QStringLiteral("stays")).status, core::AcquireResult::Status::Granted);
        qint64 last = 0;
        for (const char *id : {"a", "b", "c", "d"}) {
            const auto g = acquire(r, QString::fromLatin1(id));
            QCOMPARE(g.status, core::AcquireResult::Status::Granted);
            QVERIFY(*g.grant.token > last);
            last = *g.grant.token;
            QCOMPARE(release(g.grant).status, core::ReleaseResult::Status::Ok);
        }
        QCOMPARE(cmd({"DEL", "{gone}:meta"}).integer, 1LL);
        if (restart == QStringLiteral("set-limit") || keepHolder) {
            if (keepHolder) {
                const auto repaired =
                    awaitCall<core::MaintenanceResult>([&](auto done) { m_kind.repair(*m_conn, r, done); });
                QVERIFY2(repaired && repaired->ok, repaired ? qPrintable(repaired->message) : "no reply");
            }
            const auto set =
                awaitCall<core::MaintenanceResult>([&](auto done) { m_kind.setLimit(*m_conn, r, 2, done); });
            QVERIFY2(set && set->ok, set ? qPrintable(set->message) : "no reply");
        }
        const auto e = acquire(r, QStringLiteral("e"));
        QCOMPARE(e.status, core::AcquireResult::Status::Granted);
        QVERIFY2(*e.grant.token > last,
                 qPrintable(QStringLiteral("e got token %1 after d's %2").arg(*e.grant.token).arg(last)));
    }

    // A new counter starts from the server's clock in microseconds (README: fencing tokens): exact
    // as a double (below 2^53), so a JSON reader or a Lua script reads it unchanged.
    void aNewCounterStartsFromTheServerClock() {
        const auto before = cmd({"TIME"});
        const auto a = acquire(ref(QStringLiteral("clock")), QStringLiteral("a"));
        const auto after = cmd({"TIME"});
        QCOMPARE(a.status, core::AcquireResult::Status::Granted);
        auto micros = [](const RedisReply &t) {
            return t.elements.at(0).toInteger().value_or(0) * 1000000 +
                   t.elements.at(1).toInteger().value_or(0);
        };
        QVERIFY2(*a.grant.token > micros(before) && *a.grant.token <= micros(after) + 1,
                 qPrintable(QString::number(*a.grant.token)));
        QVERIFY(*a.grant.token < (qint64(1) << 53));
        QCOMPARE(snapshot(ref(QStringLiteral("clock"))).counter, a.grant.token);
    }

    // A semaphore that never existed is still created by its first acquire.
    void firstAcquireStillCreates() {
        const auto r = ref(QStringLiteral("fresh"), 4);
        QCOMPARE(acquire(r, QStringLiteral("a")).status, core::AcquireResult::Status::Granted);
        QCOMPARE(cmd({"HGET", "{fresh}:meta", "limit"}).toInteger(), std::optional<qint64>(4));
    }

    void hugeAndBinaryHolderIds() {
        const auto r = ref(QStringLiteral("bin"));
        const QByteArray raw("\x01\x02\xff\x00z", 5);
        cmd({"ZADD", "{bin}:holders", "99999999999999", raw});
        const core::Snapshot s = snapshot(r);
        QCOMPARE(s.holders.size(), 1);
        QCOMPARE(s.holders.at(0).id, QStringLiteral("0x0102ff007a"));
        QCOMPARE(s.holders.at(0).rawId, raw);
        const auto bad = acquire(r, QStringLiteral("two\nlines"));
        QCOMPARE(bad.status, core::AcquireResult::Status::Error);
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestLeasedKind)
#include "tst_leasedkind.moc"
