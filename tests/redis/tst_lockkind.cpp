// The `lock` layout (SET key token NX PX) against a real redis-server, interoperating with the
// seed client's own steps (seed 002): `SET key id NX PX ms` to lock and its compare-and-delete
// script to unlock.
#include "RedisServer.h"
#include "TestMain.h"
#include "TestWait.h"
#include "redis/RedisConnection.h"
#include "redis/kinds/LockKind.h"

#include <QtTest>

using namespace semscope;
using namespace semscope::redis;
using semscope::test::awaitCall;

namespace {
// Seed 002's release, literally.
const QByteArray kSeedRelease =
    "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";
} // namespace

class TestLockKind : public QObject {
    Q_OBJECT

private:
    test::RedisServer m_server;
    std::unique_ptr<RedisConnection> m_conn;
    LockKind m_kind;

    static core::SemaphoreRef ref(const QString &name) {
        core::SemaphoreRef r;
        r.kind = core::Kind::Lock;
        r.name = name;
        return r;
    }

    core::AcquireResult acquire(const QString &name, const QString &token, qint64 ttlMs = 30000) {
        core::AcquireRequest req;
        req.holder = token;
        req.ttlMs = ttlMs;
        return awaitCall<core::AcquireResult>(
                   [&](auto done) { m_kind.tryAcquire(*m_conn, ref(name), req, done); })
            .value_or(core::AcquireResult{});
    }

    core::Snapshot snapshot(const QString &name) {
        return awaitCall<core::Snapshot>([&](auto done) { m_kind.snapshot(*m_conn, ref(name), done); })
            .value_or(core::Snapshot{});
    }

    RedisReply cmd(const QList<QByteArray> &args) { return m_server.command(args); }
    // The seed's lock(): true when SET NX PX answered OK.
    bool seedLock(const QByteArray &key, const QByteArray &id, int ms) {
        return cmd({"SET", key, id, "NX", "PX", QByteArray::number(ms)}).str == "OK";
    }
    // The seed's releaseLock(): true when the script answered 1.
    bool seedRelease(const QByteArray &key, const QByteArray &id) {
        return cmd({"EVAL", kSeedRelease, "1", key, id}).toInteger() == 1;
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

    void seedLockIsShownExactly() {
        QVERIFY(seedLock("job:daily", "request-17", 30000));
        const core::Snapshot s = snapshot(QStringLiteral("job:daily"));
        QVERIFY2(s.warnings.isEmpty(), qPrintable(s.warnings.join(QLatin1Char(';'))));
        QCOMPARE(s.limit, std::optional<qint64>(1));
        QCOMPARE(s.keys, QStringList{QStringLiteral("job:daily")});
        QCOMPARE(s.holders.size(), 1);
        const core::Holder &h = s.holders.at(0);
        QCOMPARE(h.id, QStringLiteral("request-17"));
        QCOMPARE(h.rawId, QByteArray("request-17"));
        QCOMPARE(h.state, core::HolderState::Live);
        const qint64 ttl = *h.ttlMs(s.serverNowMs);
        QVERIFY2(ttl > 20000 && ttl <= 30000, qPrintable(QString::number(ttl)));

        QVERIFY(snapshot(QStringLiteral("job:none")).holders.isEmpty());
    }

    void semscopeAndSeedInteroperate() {
        // The seed holds: semscope is denied and told who holds it.
        QVERIFY(seedLock("job", "seed-1", 30000));
        auto denied = acquire(QStringLiteral("job"), QStringLiteral("semscope-1"));
        QCOMPARE(denied.status, core::AcquireResult::Status::Busy);
        QCOMPARE(denied.holders.size(), 1);
        QCOMPARE(denied.holders.at(0).id, QStringLiteral("seed-1"));
        QVERIFY(denied.retryAfterMs && *denied.retryAfterMs <= 30000);
        QVERIFY(seedRelease("job", "seed-1"));

        // semscope holds: the seed's SET NX fails, its release with another id does nothing, and
        // its release with semscope's token frees the lock.
        auto granted = acquire(QStringLiteral("job"), QStringLiteral("semscope-1"), 20000);
        QCOMPARE(granted.status, core::AcquireResult::Status::Granted);
        QCOMPARE(cmd({"GET", "job"}).str, QByteArray("semscope-1"));
        const qint64 pttl = cmd({"PTTL", "job"}).toInteger().value_or(-9);
        QVERIFY(pttl > 10000 && pttl <= 20000);
        QVERIFY(!seedLock("job", "seed-2", 30000));
        QVERIFY(!seedRelease("job", "seed-2"));
        QVERIFY(seedRelease("job", "semscope-1"));

        // semscope's release leaves nothing behind; the seed can lock again.
        granted = acquire(QStringLiteral("job"), QStringLiteral("semscope-2"));
        auto released =
            awaitCall<core::ReleaseResult>([&](auto done) { m_kind.release(*m_conn, granted.grant, done); });
        QCOMPARE(released->status, core::ReleaseResult::Status::Ok);
        QCOMPARE(cmd({"EXISTS", "job"}).toInteger(), std::optional<qint64>(0));
        QVERIFY(seedLock("job", "seed-3", 30000));
        // A release by a holder that no longer holds is NotHeld and leaves the seed's lock alone.
        released =
            awaitCall<core::ReleaseResult>([&](auto done) { m_kind.release(*m_conn, granted.grant, done); });
        QCOMPARE(released->status, core::ReleaseResult::Status::NotHeld);
        QCOMPARE(cmd({"GET", "job"}).str, QByteArray("seed-3"));
    }

    void refreshIsCompareAndExpire() {
        auto granted = acquire(QStringLiteral("r"), QStringLiteral("me"), 5000);
        auto ok = awaitCall<core::RefreshResult>(
            [&](auto done) { m_kind.refresh(*m_conn, granted.grant, 60000, done); });
        QCOMPARE(ok->status, core::RefreshResult::Status::Ok);
        QVERIFY(cmd({"PTTL", "r"}).toInteger().value_or(0) > 50000);
        // Lost to someone else (expired and re-taken): Lost, and their TTL is untouched.
        cmd({"SET", "r", "other", "PX", "4000"});
        auto lost = awaitCall<core::RefreshResult>(
            [&](auto done) { m_kind.refresh(*m_conn, granted.grant, 60000, done); });
        QCOMPARE(lost->status, core::RefreshResult::Status::Lost);
        QVERIFY(cmd({"PTTL", "r"}).toInteger().value_or(99999) <= 4000);
        cmd({"DEL", "r"});
        lost = awaitCall<core::RefreshResult>(
            [&](auto done) { m_kind.refresh(*m_conn, granted.grant, 60000, done); });
        QCOMPARE(lost->status, core::RefreshResult::Status::Lost);
        QCOMPARE(cmd({"EXISTS", "r"}).toInteger(), std::optional<qint64>(0)); // never re-acquired
    }

    void forceReleaseIsCompareAndDelete() {
        QVERIFY(seedLock("f", "first", 30000));
        const core::Holder observed = snapshot(QStringLiteral("f")).holders.value(0);
        // Between the look and the action the lock changed hands.
        QVERIFY(seedRelease("f", "first"));
        QVERIFY(seedLock("f", "second", 30000));
        auto changed = awaitCall<core::ForceReleaseResult>([&](auto done) {
            m_kind.forceRelease(*m_conn, ref(QStringLiteral("f")), observed, std::nullopt, done);
        });
        QCOMPARE(changed->status, core::ForceReleaseResult::Status::Changed);
        QCOMPARE(cmd({"GET", "f"}).str, QByteArray("second"));

        const core::Holder now = snapshot(QStringLiteral("f")).holders.value(0);
        auto released = awaitCall<core::ForceReleaseResult>([&](auto done) {
            m_kind.forceRelease(*m_conn, ref(QStringLiteral("f")), now, std::nullopt, done);
        });
        QCOMPARE(released->status, core::ForceReleaseResult::Status::Released);
        auto gone = awaitCall<core::ForceReleaseResult>([&](auto done) {
            m_kind.forceRelease(*m_conn, ref(QStringLiteral("f")), now, std::nullopt, done);
        });
        QCOMPARE(gone->status, core::ForceReleaseResult::Status::Gone);
    }

    void lockWithoutTtlIsFlagged() {
        cmd({"SET", "forever", "crashed-holder"});
        const core::Snapshot s = snapshot(QStringLiteral("forever"));
        QCOMPARE(s.holders.size(), 1);
        QVERIFY(!s.holders.at(0).expiresAtMs);
        QVERIFY(s.warnings.contains(QStringLiteral("no TTL: held forever if the holder crashed")));
    }

    void badDataIsAWarning() {
        cmd({"HSET", "hashy", "a", "b"});
        core::Snapshot s = snapshot(QStringLiteral("hashy"));
        QVERIFY(s.holders.isEmpty());
        QVERIFY(s.warnings.value(0).contains(QStringLiteral("is a hash")));
        QVERIFY2(s.writeRefusal.contains(QStringLiteral("hashy is a hash, not the string")),
                 qPrintable(s.writeRefusal));
        const auto a = acquire(QStringLiteral("hashy"), QStringLiteral("x"));
        QCOMPARE(a.status, core::AcquireResult::Status::Error);
        QVERIFY(a.error.contains(QStringLiteral("WRONGTYPE")));

        // A 10 MB value: shown cut with a warning, not force-released by a cut value.
        cmd({"SET", "huge", QByteArray(10 * 1024 * 1024, 'v'), "PX", "60000"});
        s = snapshot(QStringLiteral("huge"));
        QCOMPARE(s.holders.size(), 1);
        QCOMPARE(s.holders.at(0).rawId.size(), LockKind::kValueCap);
        QVERIFY(s.warnings.join(QLatin1Char(' ')).contains(QStringLiteral("10485760 bytes")));
        auto refused = awaitCall<core::ForceReleaseResult>([&](auto done) {
            m_kind.forceRelease(*m_conn, ref(QStringLiteral("huge")), s.holders.at(0), std::nullopt, done);
        });
        QCOMPARE(refused->status, core::ForceReleaseResult::Status::Error);
        QCOMPARE(cmd({"EXISTS", "huge"}).toInteger(), std::optional<qint64>(1));
        // Binary tokens are shown as hex.
        cmd({"SET", "bin", QByteArray("\x00\x01\xfe", 3), "PX", "60000"});
        QCOMPARE(snapshot(QStringLiteral("bin")).holders.value(0).id, QStringLiteral("0x0001fe"));
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestLockKind)
#include "tst_lockkind.moc"
