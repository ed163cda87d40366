// ConsulSemaphoreStore against the in-process Consul API double: the three .lock dialects, the
// official protocol, stale holders, watching, garbage and faults.
#include "ConsulTestTarget.h"
#include "StoreWrites.h"
#include "TestMain.h"
#include "TestWait.h"
#include "consul/ConsulSemaphoreStore.h"
#include "consul/ConsulTypes.h"

#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>

using namespace semscope;
using namespace semscope::consul;

namespace {

const QByteArray kMagic = QByteArray::number(kSemaphoreFlagValue);

} // namespace

class TestConsulStore : public QObject {
    Q_OBJECT

    std::unique_ptr<ConsulDouble> m_double;
    std::unique_ptr<ConsulClient> m_raw; // plays the other programs (Go API, the seed's Java client)
    std::unique_ptr<ConsulSemaphoreStore> m_store;
    QString m_prefix;
    int m_counter = 0;

    HttpResult http(const QByteArray &method, const QString &target, const QByteArray &body = QByteArray()) {
        return syncRequest(*m_raw, method, target, body);
    }

    // A session the way a foreign client makes one; returns its id.
    QString foreignSession(const QByteArray &json) {
        const HttpResult r = http("PUT", QStringLiteral("/v1/session/create"), json);
        const auto m =
            QRegularExpression(QStringLiteral("\"ID\":\"([^\"]+)\"")).match(QString::fromUtf8(r.body));
        return m.captured(1);
    }

    std::optional<KvEntry> entry(const QString &key) {
        const HttpResult r = http("GET", QStringLiteral("/v1/kv/") + key);
        if (r.status != 200)
            return std::nullopt;
        QString error;
        auto list = parseKvEntries(r.body, &error);
        if (!list || list->isEmpty())
            return std::nullopt;
        return list->first();
    }

    core::SemaphoreRef ref(std::optional<qint64> limit = std::nullopt) const {
        core::SemaphoreRef r;
        r.kind = core::Kind::Consul;
        r.name = m_prefix;
        r.profile.limit = limit;
        return r;
    }

    core::Snapshot snapshot(const core::SemaphoreRef &r) {
        auto s = semscope::test::awaitCall<core::Snapshot>(
            [&](core::Callback<core::Snapshot> cb) { m_store->snapshot(r, cb); });
        return s.value_or(core::Snapshot{});
    }

    core::AcquireResult acquire(const core::SemaphoreRef &r, qint64 waitMs = 0, qint64 ttlMs = 10000,
                                core::Cancellation cancel = {}) {
        core::AcquireRequest req;
        req.waitMs = waitMs;
        req.ttlMs = ttlMs;
        auto a = semscope::test::awaitCall<core::AcquireResult>(
            [&](core::Callback<core::AcquireResult> cb) { m_store->acquire(r, req, cancel, cb); });
        return a.value_or(core::AcquireResult{});
    }

    core::ReleaseResult release(const core::Grant &g) {
        auto r = semscope::test::awaitCall<core::ReleaseResult>(
            [&](core::Callback<core::ReleaseResult> cb) { m_store->release(g, cb); });
        return r.value_or(core::ReleaseResult{});
    }

    // `.lock` plus one holder written the way a foreign client does (contender with acquire, then CAS).
    QString foreignHolder(const QByteArray &lockTemplate, quint64 flags, const QByteArray &sessionJson) {
        const QString sid = foreignSession(sessionJson);
        const QString f = QString::number(flags);
        if (http("PUT", QStringLiteral("/v1/kv/%1/%2?acquire=%2&flags=%3").arg(m_prefix, sid, f), "").body !=
            "true")
            return {};
        QByteArray lock = lockTemplate;
        lock.replace("{sid}", sid.toUtf8());
        if (http("PUT", QStringLiteral("/v1/kv/%1/.lock?cas=0&flags=%2").arg(m_prefix, f), lock).body !=
            "true")
            return {};
        return sid;
    }

private Q_SLOTS:
    void init() {
        m_double = std::make_unique<ConsulDouble>();
        QVERIFY(m_double->listen());
        m_double->setTtlMultiplier(1);
        m_double->setMinSessionTtlMs(100);
        ConsulConfig config;
        config.address = m_double->url();
        m_raw = std::make_unique<ConsulClient>(config);
        m_store = std::make_unique<ConsulSemaphoreStore>(config);
        m_prefix = QStringLiteral("semaphore/jobs%1").arg(++m_counter);
    }

    void cleanup() {
        m_store.reset();
        m_raw.reset();
        m_double.reset();
    }

    // The three dialects are shown correctly and semscope's acquire/release keep them byte-for-byte.
    void dialects_data() {
        QTest::addColumn<QByteArray>("lock"); // with {sid} for the foreign holder
        QTest::addColumn<quint64>("flags");
        QTest::addColumn<QByteArray>("afterAcquire"); // {sid} foreign, {me} semscope
        QTest::addColumn<QString>("dialect");
        QTest::addColumn<QByteArray>("sessionJson");
        QTest::newRow("go api map + magic flags")
            << QByteArray(R"({"Limit":2,"Holders":{"{sid}":true}})") << kSemaphoreFlagValue
            << QByteArray(R"({"Limit":2,"Holders":{{SORTED}}})") << QStringLiteral("go-map")
            << QByteArray(R"({"Name":"Consul API Semaphore","TTL":"15s","Behavior":"delete"})");
        QTest::newRow("guide array") << QByteArray(R"({"Limit": 2, "Holders": ["{sid}"]})") << quint64(0)
                                     << QByteArray(R"({"Limit":2,"Holders":["{sid}","{me}"]})")
                                     << QStringLiteral("guide-array") << QByteArray(R"({"Name":"guide"})");
        QTest::newRow("seed lower-case array")
            << QByteArray(R"({"limit":2,"holders":["{sid}"]})") << quint64(0)
            << QByteArray(R"({"limit":2,"holders":["{sid}","{me}"]})") << QStringLiteral("seed-array")
            << QByteArray(R"({"Name":"semaphore"})");
    }
    void dialects() {
        QFETCH(QByteArray, lock);
        QFETCH(quint64, flags);
        QFETCH(QByteArray, afterAcquire);
        QFETCH(QString, dialect);
        QFETCH(QByteArray, sessionJson);
        const QString foreign = foreignHolder(lock, flags, sessionJson);
        QVERIFY(!foreign.isEmpty());
        const QByteArray before = entry(m_prefix + QStringLiteral("/.lock"))->value;

        core::Snapshot s = snapshot(ref());
        QCOMPARE(s.limit, std::optional<qint64>(2));
        QCOMPARE(s.limitSource, core::LimitSource::Stored);
        QCOMPARE(s.details.value(QStringLiteral("dialect")).toString(), dialect);
        QCOMPARE(s.details.value(QStringLiteral("flags")).toString(), QString::number(flags));
        QCOMPARE(s.holders.size(), 1);
        QCOMPARE(s.holders[0].id, foreign);
        QCOMPARE(s.holders[0].state, core::HolderState::Live);
        QCOMPARE(s.holders[0].details.value(QStringLiteral("node")).toString(), m_double->nodeName());
        QCOMPARE(s.holders[0].details.value(QStringLiteral("checks")).toStringList(),
                 QStringList{"serfHealth"});
        QVERIFY(!s.holders[0].details.value(QStringLiteral("behavior")).toString().isEmpty());

        const core::AcquireResult a = acquire(ref());
        QVERIFY2(a.status == core::AcquireResult::Status::Granted, qPrintable(a.error));
        const QString me = a.grant.holder;
        QByteArray expected = afterAcquire;
        QStringList both{foreign, me};
        both.sort();
        expected.replace("{SORTED}", QStringLiteral(R"("%1":true,"%2":true)").arg(both[0], both[1]).toUtf8());
        expected.replace("{sid}", foreign.toUtf8()).replace("{me}", me.toUtf8());
        const KvEntry held = *entry(m_prefix + QStringLiteral("/.lock"));
        QCOMPARE(held.value, expected);
        QCOMPARE(held.flags, flags);
        const KvEntry contender = *entry(m_prefix + QLatin1Char('/') + me);
        QCOMPARE(contender.session, me);
        QCOMPARE(contender.flags, flags);

        s = snapshot(ref());
        QCOMPARE(s.countInState(core::HolderState::Live), qint64(2));

        QCOMPARE(release(a.grant).status, core::ReleaseResult::Status::Ok);
        const KvEntry after = *entry(m_prefix + QStringLiteral("/.lock"));
        QCOMPARE(after.flags, flags);
        // The foreign writer's spacing is not kept (semscope writes compact JSON like Go does), but
        // names, container and order are: for compact originals this is the original, byte for byte.
        QByteArray compactBefore = before;
        compactBefore.replace(": ", ":").replace(", ", ",");
        QCOMPARE(after.value, compactBefore);
        QVERIFY(!entry(m_prefix + QLatin1Char('/') + me));
        QTRY_VERIFY_WITH_TIMEOUT(m_double->state().session(me) == nullptr, 10000);
    }

    void officialFirstAcquirerCreatesTheGoDialect() {
        const core::AcquireResult a = acquire(ref(3));
        QVERIFY2(a.status == core::AcquireResult::Status::Granted, qPrintable(a.error));
        const KvEntry lock = *entry(m_prefix + QStringLiteral("/.lock"));
        QCOMPARE(lock.flags, kSemaphoreFlagValue);
        QCOMPARE(lock.value,
                 QStringLiteral(R"({"Limit":3,"Holders":{"%1":true}})").arg(a.grant.holder).toUtf8());
        const DoubleState::Session *s = m_double->state().session(a.grant.holder);
        QVERIFY(s);
        QCOMPARE(s->behavior, QStringLiteral("delete"));
        QCOMPARE(a.grant.token, std::optional<qint64>(qint64(lock.modifyIndex)));
        QCOMPARE(release(a.grant).status, core::ReleaseResult::Status::Ok);
        // Release never deletes .lock (issue #933); destroy does.
        QVERIFY(entry(m_prefix + QStringLiteral("/.lock")));
        auto d = semscope::test::awaitCall<core::MaintenanceResult>(
            [&](core::Callback<core::MaintenanceResult> cb) { m_store->destroy(ref(), cb); });
        QVERIFY2(d && d->ok, d ? qPrintable(d->message) : "timeout");
        QVERIFY(!entry(m_prefix + QStringLiteral("/.lock")));
    }

    // Destroy deletes nothing while someone holds, and says how many in words.
    void destroyRefusesWhileHeld_data() {
        QTest::addColumn<int>("holders");
        QTest::addColumn<QString>("message");
        QTest::newRow("one") << 1 << QStringLiteral("Semaphore in use (1 live holder)");
        QTest::newRow("two") << 2 << QStringLiteral("Semaphore in use (2 live holders)");
    }
    void destroyRefusesWhileHeld() {
        QFETCH(int, holders);
        QFETCH(QString, message);
        for (int i = 0; i < holders; ++i) {
            const core::AcquireResult a = acquire(ref(3));
            QVERIFY2(a.status == core::AcquireResult::Status::Granted, qPrintable(a.error));
        }
        auto d = semscope::test::awaitCall<core::MaintenanceResult>(
            [&](core::Callback<core::MaintenanceResult> cb) { m_store->destroy(ref(), cb); });
        QVERIFY(d);
        QVERIFY(!d->ok);
        QCOMPARE(d->message, message);
        QVERIFY(entry(m_prefix + QStringLiteral("/.lock")));
    }

    void limitConflictIsAnErrorAndWritesNothing() {
        QVERIFY(
            !foreignHolder(R"({"Limit":2,"Holders":{"{sid}":true}})", kSemaphoreFlagValue, "{}").isEmpty());
        const KvEntry before = *entry(m_prefix + QStringLiteral("/.lock"));
        const core::AcquireResult a = acquire(ref(5));
        QCOMPARE(a.status, core::AcquireResult::Status::Error);
        QVERIFY2(a.error.contains(QStringLiteral("semaphore limit conflict (lock: 2, local: 5)")),
                 qPrintable(a.error));
        QCOMPARE(entry(m_prefix + QStringLiteral("/.lock"))->modifyIndex, before.modifyIndex);
    }

    void busyWhenFullAndTryOnce() {
        QVERIFY(!foreignHolder(R"({"limit":1,"holders":["{sid}"]})", 0, "{}").isEmpty());
        const core::AcquireResult a = acquire(ref());
        QCOMPARE(a.status, core::AcquireResult::Status::Busy);
        QCOMPARE(a.holders.size(), 1);
    }

    // A holder whose session is invalidated shows as stale within one blocking-query round, and
    // the next acquirer prunes it and gets the slot.
    void staleHolderIsShownAndPruned_data() {
        QTest::addColumn<QString>("how");
        QTest::newRow("ttl lapse") << QStringLiteral("ttl");
        QTest::newRow("session destroy") << QStringLiteral("destroy");
        QTest::newRow("serfHealth critical") << QStringLiteral("serf");
    }
    void staleHolderIsShownAndPruned() {
        QFETCH(QString, how);
        const QByteArray session = how == QLatin1String("ttl") ? R"({"TTL":"300ms","Behavior":"delete"})"
                                                               : R"({"TTL":"60s","Behavior":"delete"})";
        const QString dead =
            foreignHolder(R"({"Limit":1,"Holders":{"{sid}":true}})", kSemaphoreFlagValue, session);
        QVERIFY(!dead.isEmpty());

        QList<core::Snapshot> seen;
        m_store->watch(ref(), [&seen](core::Snapshot s) { seen.append(s); });
        QTRY_COMPARE_WITH_TIMEOUT(seen.size(), 1, 20000);
        if (how == QLatin1String("ttl")) {
            // Nothing to do: the double's TTL timer (x1) fires after 300 ms without a renew.
            QCOMPARE(seen[0].countInState(core::HolderState::Live), qint64(1));
        }
        QTRY_COMPARE_WITH_TIMEOUT(m_double->openBlockingQueries(), 1, 20000);
        const int roundsBefore = int(seen.size());
        if (how == QLatin1String("destroy"))
            QCOMPARE(http("PUT", QStringLiteral("/v1/session/destroy/") + dead, "").body, QByteArray("true"));
        else if (how == QLatin1String("serf"))
            m_double->setSerfHealthCritical(true);
        QTRY_VERIFY_WITH_TIMEOUT(seen.size() > roundsBefore, 20000);
        const core::Snapshot &next = seen[roundsBefore];
        QCOMPARE(next.holders.size(), 1);
        QCOMPARE(next.holders[0].id, dead);
        QCOMPARE(next.holders[0].state, core::HolderState::Stale);
        m_store->unwatch(ref());
        if (how == QLatin1String("serf"))
            m_double->setSerfHealthCritical(false);

        const core::AcquireResult a = acquire(ref());
        QVERIFY2(a.status == core::AcquireResult::Status::Granted, qPrintable(a.error));
        const KvEntry lock = *entry(m_prefix + QStringLiteral("/.lock"));
        QCOMPARE(lock.value,
                 QStringLiteral(R"({"Limit":1,"Holders":{"%1":true}})").arg(a.grant.holder).toUtf8());
    }

    void waitingAcquirerGetsTheSlotWhenTheHolderDies() {
        const QString dead = foreignHolder(R"({"Limit":1,"Holders":{"{sid}":true}})", kSemaphoreFlagValue,
                                           R"({"Behavior":"delete"})");
        std::optional<core::AcquireResult> result;
        core::AcquireRequest req;
        req.waitMs = 60000;
        m_store->acquire(ref(), req, {}, [&result](core::AcquireResult r) { result = r; });
        // The waiter shows up as a contender and then sits in one blocking query.
        QTRY_COMPARE_WITH_TIMEOUT(m_double->openBlockingQueries(), 1, 20000);
        core::Snapshot s = snapshot(ref());
        QCOMPARE(s.countInState(core::HolderState::Waiting), qint64(1));
        const qint64 before = m_double->requestCount();
        m_double->invalidateSession(dead);
        QTRY_VERIFY_WITH_TIMEOUT(result.has_value(), 20000);
        QVERIFY2(result->status == core::AcquireResult::Status::Granted, qPrintable(result->error));
        QVERIFY(m_double->requestCount() - before <= 4); // woke once, read, one txn
    }

    void idleWatchIsOneOpenBlockingQuery() {
        QVERIFY(
            !foreignHolder(R"({"Limit":2,"Holders":{"{sid}":true}})", kSemaphoreFlagValue, "{}").isEmpty());
        m_store->setWatchWaitMs(200);
        int calls = 0;
        m_store->watch(ref(), [&calls](core::Snapshot) { ++calls; });
        QTRY_COMPARE_WITH_TIMEOUT(calls, 1, 20000);
        QTRY_COMPARE_WITH_TIMEOUT(m_double->openBlockingQueries(), 1, 20000);
        const qint64 requestsBefore = m_double->requestCount();
        const qint64 timeoutsBefore = m_double->blockingTimeouts();
        QTRY_VERIFY_WITH_TIMEOUT(m_double->blockingTimeouts() >= timeoutsBefore + 5, 30000);
        const qint64 rounds = m_double->blockingTimeouts() - timeoutsBefore;
        const qint64 requests = m_double->requestCount() - requestsBefore;
        QVERIFY2(requests <= rounds + 1,
                 qPrintable(QStringLiteral("%1 requests for %2 idle rounds").arg(requests).arg(rounds)));
        QTRY_COMPARE_WITH_TIMEOUT(m_double->openBlockingQueries(), 1, 20000); // re-opened after each timeout
        QCOMPARE(calls, 1); // nothing changed, nothing reported
        // A change is reported by the open query.
        QVERIFY(
            http("PUT", QStringLiteral("/v1/kv/%1/00000000-0000-0000-0000-000000000001").arg(m_prefix), "")
                .status == 200);
        QTRY_COMPARE_WITH_TIMEOUT(calls, 2, 20000);
        m_store->unwatch(ref());
        QTRY_COMPARE_WITH_TIMEOUT(m_double->openBlockingQueries(), 0, 20000);
    }

    void garbageLock_data() {
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<QString>("message");
        QTest::newRow("not json") << QByteArray("holders: a, b") << QStringLiteral(".lock is not JSON");
        QTest::newRow("a list") << QByteArray("[1,2]") << QStringLiteral(".lock is a JSON array");
        QTest::newRow("limit is a string")
            << QByteArray(R"({"Limit":"3","Holders":{}})") << QStringLiteral(".lock limit is a string");
        QTest::newRow("negative limit") << QByteArray(R"({"limit":-2,"holders":[]})")
                                        << QStringLiteral(".lock limit must be positive, found -2");
        QTest::newRow("holders is a string")
            << QByteArray(R"({"Limit":3,"Holders":"abc"})") << QStringLiteral(".lock holders is a string");
        QTest::newRow("holder is a number") << QByteArray(R"({"limit":3,"holders":["a",7]})")
                                            << QStringLiteral(".lock holders[1] is a number");
        QTest::newRow("deep nesting") << QByteArray(100000, '[') << QStringLiteral(".lock is not JSON");
    }
    void garbageLock() {
        QFETCH(QByteArray, value);
        QFETCH(QString, message);
        QCOMPARE(http("PUT", QStringLiteral("/v1/kv/%1/.lock").arg(m_prefix), value).body,
                 QByteArray("true"));
        const KvEntry before = *entry(m_prefix + QStringLiteral("/.lock"));
        const core::Snapshot s = snapshot(ref(3));
        QVERIFY2(s.warnings.join(QLatin1Char('\n')).contains(message),
                 qPrintable(s.warnings.join(QLatin1Char('\n'))));
        const core::AcquireResult a = acquire(ref(3));
        QCOMPARE(a.status, core::AcquireResult::Status::Error);
        QVERIFY2(a.error.contains(message), qPrintable(a.error));
        const KvEntry after = *entry(m_prefix + QStringLiteral("/.lock"));
        QCOMPARE(after.modifyIndex, before.modifyIndex);
        QCOMPARE(after.value, value);
        QTRY_COMPARE_WITH_TIMEOUT(m_double->state().sessions().size(), qsizetype(0), 10000); // cleaned up
    }

    void fiveThousandStaleHolders() {
        QStringList holders;
        for (int i = 0; i < 5000; ++i)
            holders << QStringLiteral("\"%1\"").arg(QUuid::createUuid().toString(QUuid::WithoutBraces));
        const QByteArray value =
            QStringLiteral(R"({"limit":3,"holders":[%1]})").arg(holders.join(QLatin1Char(','))).toUtf8();
        QCOMPARE(http("PUT", QStringLiteral("/v1/kv/%1/.lock").arg(m_prefix), value).body,
                 QByteArray("true"));
        const core::Snapshot s = snapshot(ref());
        QCOMPARE(s.holders.size(), 5000);
        QCOMPARE(s.countInState(core::HolderState::Stale), qint64(5000));
        QVERIFY2(
            s.warnings.contains(QStringLiteral("5000 stale holders in .lock: their sessions are gone; the "
                                               "next acquire or a purge prunes them")),
            qPrintable(s.warnings.join(QLatin1Char('\n'))));
        const core::AcquireResult a = acquire(ref());
        QVERIFY2(a.status == core::AcquireResult::Status::Granted, qPrintable(a.error));
        QCOMPARE(entry(m_prefix + QStringLiteral("/.lock"))->value,
                 QStringLiteral(R"({"limit":3,"holders":["%1"]})").arg(a.grant.holder).toUtf8());
    }

    void serverErrorMidAcquireWritesNothing() {
        QVERIFY(
            !foreignHolder(R"({"Limit":2,"Holders":{"{sid}":true}})", kSemaphoreFlagValue, "{}").isEmpty());
        const KvEntry before = *entry(m_prefix + QStringLiteral("/.lock"));
        m_double->failRequests(1, 500, "No cluster leader", QStringLiteral("PUT /v1/txn"));
        const core::AcquireResult a = acquire(ref());
        QCOMPARE(a.status, core::AcquireResult::Status::Error);
        QVERIFY2(a.error.contains(QStringLiteral(
                     "failed to update lock: Unexpected response code: 500 (No cluster leader)")),
                 qPrintable(a.error));
        const KvEntry after = *entry(m_prefix + QStringLiteral("/.lock"));
        QCOMPARE(after.modifyIndex, before.modifyIndex);
        QCOMPARE(after.value, before.value);
        QTRY_COMPARE_WITH_TIMEOUT(m_double->state().sessions().size(), qsizetype(1),
                                  10000); // only the foreign one
        QCOMPARE(m_double->state().list(m_prefix + QLatin1Char('/')).size(),
                 qsizetype(2)); // .lock + foreign contender
    }

    void droppedConnectionMidWait() {
        QVERIFY(
            !foreignHolder(R"({"Limit":1,"Holders":{"{sid}":true}})", kSemaphoreFlagValue, "{}").isEmpty());
        const KvEntry before = *entry(m_prefix + QStringLiteral("/.lock"));
        m_double->setDropBlockingQueries(true);
        const core::AcquireResult a = acquire(ref(), 60000);
        QCOMPARE(a.status, core::AcquireResult::Status::Error);
        QVERIFY2(a.error.startsWith(QStringLiteral("failed to read prefix %1: ").arg(m_prefix)),
                 qPrintable(a.error));
        m_double->setDropBlockingQueries(false);
        const KvEntry after = *entry(m_prefix + QStringLiteral("/.lock"));
        QCOMPARE(after.modifyIndex, before.modifyIndex);
        QTRY_COMPARE_WITH_TIMEOUT(m_double->state().list(m_prefix + QLatin1Char('/')).size(), qsizetype(2),
                                  10000);
    }

    void cancelWhileWaiting() {
        QVERIFY(
            !foreignHolder(R"({"Limit":1,"Holders":{"{sid}":true}})", kSemaphoreFlagValue, "{}").isEmpty());
        core::Cancellation cancel;
        std::optional<core::AcquireResult> result;
        core::AcquireRequest req;
        req.waitMs = 60000;
        m_store->acquire(ref(), req, cancel, [&result](core::AcquireResult r) { result = r; });
        QTRY_COMPARE_WITH_TIMEOUT(m_double->openBlockingQueries(), 1, 20000);
        cancel.cancel();
        QTRY_VERIFY_WITH_TIMEOUT(result.has_value(), 20000);
        QCOMPARE(result->status, core::AcquireResult::Status::Error);
        QCOMPARE(result->error, QStringLiteral("acquire cancelled"));
        QTRY_COMPARE_WITH_TIMEOUT(m_double->state().sessions().size(), qsizetype(1), 10000);
    }

    void forceReleaseComparesTheObservedModifyIndex() {
        const QString foreign =
            foreignHolder(R"({"Limit":3,"Holders":{"{sid}":true}})", kSemaphoreFlagValue, "{}");
        const core::Snapshot seen = snapshot(ref());
        QCOMPARE(seen.holders.size(), 1);
        // Somebody else acquires meanwhile: the .lock the operator saw is gone.
        const core::AcquireResult other = acquire(ref());
        QCOMPARE(other.status, core::AcquireResult::Status::Granted);
        auto changed = semscope::test::awaitCall<core::ForceReleaseResult>(
            [&](core::Callback<core::ForceReleaseResult> cb) {
                m_store->forceRelease(ref(), seen.holders[0], seen.version, cb);
            });
        QCOMPARE(changed->status, core::ForceReleaseResult::Status::Changed);
        QVERIFY(entry(m_prefix + QStringLiteral("/.lock"))->value.contains(foreign.toUtf8()));

        const core::Snapshot now = snapshot(ref());
        core::Holder target;
        for (const auto &h : now.holders) {
            if (h.id == foreign)
                target = h;
        }
        auto released = semscope::test::awaitCall<core::ForceReleaseResult>(
            [&](core::Callback<core::ForceReleaseResult> cb) {
                m_store->forceRelease(ref(), target, now.version, true, cb);
            });
        QVERIFY2(released->status == core::ForceReleaseResult::Status::Released,
                 qPrintable(released->message));
        const KvEntry lock = *entry(m_prefix + QStringLiteral("/.lock"));
        QVERIFY(!lock.value.contains(foreign.toUtf8()));
        QCOMPARE(lock.flags, kSemaphoreFlagValue);
        QVERIFY(m_double->state().session(foreign) == nullptr); // invalidated too
        auto gone = semscope::test::awaitCall<core::ForceReleaseResult>(
            [&](core::Callback<core::ForceReleaseResult> cb) {
                m_store->forceRelease(ref(), target, std::nullopt, cb);
            });
        QCOMPARE(gone->status, core::ForceReleaseResult::Status::Gone);
    }

    void refreshRenewsAndDetectsLoss() {
        const core::AcquireResult a = acquire(ref(1), 0, 1000);
        QVERIFY2(a.status == core::AcquireResult::Status::Granted, qPrintable(a.error));
        QCOMPARE(m_store->heldGrants(), 1);
        auto ok = semscope::test::awaitCall<core::RefreshResult>(
            [&](core::Callback<core::RefreshResult> cb) { m_store->refresh(a.grant, 1000, cb); });
        QCOMPARE(ok->status, core::RefreshResult::Status::Ok);
        // The store renews at TTL/2 on its own: the 1 s session outlives several TTLs.
        const qint64 renewsBefore =
            m_double->requestLog().filter(QStringLiteral("/v1/session/renew/")).size();
        QTRY_VERIFY_WITH_TIMEOUT(m_double->requestLog().filter(QStringLiteral("/v1/session/renew/")).size() >=
                                     renewsBefore + 4,
                                 20000);
        QVERIFY(m_double->state().session(a.grant.holder) != nullptr);
        QSignalSpy lost(m_store.get(), &ConsulSemaphoreStore::grantLost);
        m_double->invalidateSession(a.grant.holder);
        auto gone = semscope::test::awaitCall<core::RefreshResult>(
            [&](core::Callback<core::RefreshResult> cb) { m_store->refresh(a.grant, 1000, cb); });
        QCOMPARE(gone->status, core::RefreshResult::Status::Lost);
        QCOMPARE(m_store->heldGrants(), 0);
    }

    void purgePrunesStaleHoldersAndOrphans() {
        const QString dead =
            foreignHolder(R"({"limit":3,"holders":["{sid}"]})", 0, R"({"Behavior":"release"})");
        m_double->invalidateSession(dead); // behaviour release: the contender stays, without a session
        core::Snapshot s = snapshot(ref());
        QCOMPARE(s.countInState(core::HolderState::Stale), qint64(1));
        QCOMPARE(s.countInState(core::HolderState::Orphan),
                 qint64(0)); // its contender is listed as the holder
        // Counts said in words, not "holder(s)".
        QVERIFY2(s.warnings.contains(QStringLiteral("1 stale holder in .lock: its session is gone; the next "
                                                    "acquire or a purge prunes it")),
                 qPrintable(s.warnings.join(QLatin1Char('\n'))));
        auto r = semscope::test::awaitCall<core::MaintenanceResult>(
            [&](core::Callback<core::MaintenanceResult> cb) { m_store->purgeExpired(ref(), cb); });
        QVERIFY2(r->ok, qPrintable(r->message));
        QCOMPARE(r->affected, qint64(2));
        QCOMPARE(r->message, QStringLiteral("pruned 1 stale holder, deleted 1 orphan contender key"));
        QCOMPARE(entry(m_prefix + QStringLiteral("/.lock"))->value,
                 QByteArray(R"({"limit":3,"holders":[]})"));
        QVERIFY(!entry(m_prefix + QLatin1Char('/') + dead));
    }

    void mutexIsRecognised() {
        const QString sid = foreignSession(R"({"Name":"Consul API Lock"})");
        QCOMPARE(
            http("PUT",
                 QStringLiteral("/v1/kv/%1/.lock?acquire=%2&flags=%3").arg(m_prefix, sid).arg(kLockFlagValue),
                 "")
                .body,
            QByteArray("true"));
        core::SemaphoreRef mref = ref();
        mref.kind = core::Kind::ConsulMutex;
        const core::Snapshot s = snapshot(mref);
        QCOMPARE(s.limit, std::optional<qint64>(1));
        QCOMPARE(s.holders.size(), 1);
        QCOMPARE(s.holders[0].id, sid);
        QCOMPARE(s.holders[0].details.value(QStringLiteral("sessionName")).toString(),
                 QStringLiteral("Consul API Lock"));
        const core::AcquireResult a = acquire(ref(2));
        QCOMPARE(a.status, core::AcquireResult::Status::Error);
        QVERIFY2(a.error.contains(QStringLiteral("mutex")), qPrintable(a.error));

        auto d =
            semscope::test::awaitCall<core::DiscoverResult>([&](core::Callback<core::DiscoverResult> cb) {
                core::DiscoverRequest req;
                req.match = QStringLiteral("semaphore/");
                m_store->discover(req, {}, {}, cb);
            });
        QVERIFY(d->ok);
        QCOMPARE(d->semaphores.size(), 1);
        QCOMPARE(d->semaphores[0].ref.kind, core::Kind::ConsulMutex);
        QCOMPARE(d->semaphores[0].ref.name, m_prefix);

        auto f = semscope::test::awaitCall<core::ForceReleaseResult>(
            [&](core::Callback<core::ForceReleaseResult> cb) {
                m_store->forceRelease(mref, s.holders[0], s.version, cb);
            });
        QVERIFY2(f->status == core::ForceReleaseResult::Status::Released, qPrintable(f->message));
        const KvEntry lock = *entry(m_prefix + QStringLiteral("/.lock"));
        QVERIFY(lock.session.isEmpty());
        QCOMPARE(lock.flags, kLockFlagValue);
    }

    void sessionsAcrossTheClusterAndInvalidate() {
        const core::AcquireResult a = acquire(ref(2));
        QVERIFY(a.status == core::AcquireResult::Status::Granted);
        auto list = semscope::test::awaitCall<ConsulSemaphoreStore::SessionsOutcome>(
            [&](core::Callback<ConsulSemaphoreStore::SessionsOutcome> cb) { m_store->listSessions(cb); });
        QVERIFY(list->ok);
        QCOMPARE(list->sessions.size(), 1);
        QCOMPARE(list->sessions[0].id, a.grant.holder);
        auto inv = semscope::test::awaitCall<core::MaintenanceResult>(
            [&](core::Callback<core::MaintenanceResult> cb) {
                m_store->invalidateSession(a.grant.holder, cb);
            });
        QVERIFY2(inv->ok, qPrintable(inv->message));
        QCOMPARE(snapshot(ref()).countInState(core::HolderState::Stale), qint64(1));
    }

    void readOnlyStoreRefusesWrites() {
        m_store->setReadOnly(true);
        const core::AcquireResult a = acquire(ref(2));
        QCOMPARE(a.status, core::AcquireResult::Status::Error);
        QVERIFY(a.error.contains(QStringLiteral("read-only")));
        QCOMPARE(m_double->requestCount(), qint64(0));
    }

    // Every write of the interface (tests/support/StoreWrites.h) and Consul's own: each is refused
    // with the same text, later (never inside the call), and sends the agent nothing.
    void readOnlyRefusesEachWrite_data() {
        QTest::addColumn<QString>("write");
        for (const QString &name : test::everyStoreWrite().keys())
            QTest::newRow(qPrintable(name)) << name;
        QTest::newRow("force-release invalidating the session")
            << QStringLiteral("force-release invalidating");
        QTest::newRow("destroy") << QStringLiteral("destroy");
        QTest::newRow("invalidate-session") << QStringLiteral("invalidate-session");
    }

    void readOnlyRefusesEachWrite() {
        QFETCH(QString, write);
        const auto maintenance = [](std::function<void(test::WriteAnswer)> done) {
            return [done](const core::MaintenanceResult &r) { done({r.ok, r.message}); };
        };
        QMap<QString, test::WriteCall> calls = test::everyStoreWrite();
        calls.insert(QStringLiteral("force-release invalidating"),
                     [this](core::SemaphoreStore &, const core::SemaphoreRef &r, auto done) {
                         core::Holder h;
                         h.id = QStringLiteral("00000000-0000-0000-0000-000000000001");
                         m_store->forceRelease(
                             r, h, std::nullopt, true, [done](const core::ForceReleaseResult &f) {
                                 done({f.status != core::ForceReleaseResult::Status::Error, f.message});
                             });
                     });
        calls.insert(QStringLiteral("destroy"),
                     [this, maintenance](core::SemaphoreStore &, const core::SemaphoreRef &r, auto done) {
                         m_store->destroy(r, maintenance(done));
                     });
        calls.insert(QStringLiteral("invalidate-session"),
                     [this, maintenance](core::SemaphoreStore &, const core::SemaphoreRef &, auto done) {
                         m_store->invalidateSession(QStringLiteral("00000000-0000-0000-0000-000000000001"),
                                                    maintenance(done));
                     });
        m_store->setReadOnly(true);
        const qint64 before = m_double->requestCount();
        const test::WriteOutcome out = test::runWrite(calls.value(write), *m_store, ref(2));
        QVERIFY(out.answer.has_value());
        QVERIFY(!out.answer->ok);
        QCOMPARE(out.answer->text, QStringLiteral("refused: this connection is read-only"));
        QVERIFY(!out.answeredBeforeReturn);
        QCOMPARE(m_double->requestCount(), before);
    }

    void watchSurvivesAnIndexGoingBackwards() {
        // A tombstone carries the highest index of the prefix; once the server reaps it, the index
        // the watch holds is ahead of the server. The watch must start over from 0, not hang.
        QVERIFY(!foreignHolder("{\"Limit\":2,\"Holders\":{\"{sid}\":true}}", kSemaphoreFlagValue, "{}")
                     .isEmpty());
        const QString extra = m_prefix + QStringLiteral("/00000000-0000-0000-0000-00000000000a");
        QCOMPARE(http("PUT", QStringLiteral("/v1/kv/") + extra, "").body, QByteArray("true"));
        QCOMPARE(http("DELETE", QStringLiteral("/v1/kv/") + extra).body, QByteArray("true"));
        m_store->setWatchWaitMs(200);
        QList<core::Snapshot> seen;
        m_store->watch(ref(), [&seen](core::Snapshot s) { seen.append(s); });
        QTRY_COMPARE_WITH_TIMEOUT(seen.size(), 1, 20000);
        const quint64 before = seen[0].details.value(QStringLiteral("index")).toString().toULongLong();
        m_double->reapTombstones();
        QTRY_VERIFY_WITH_TIMEOUT(seen.size() >= 2, 20000);
        const quint64 after = seen.last().details.value(QStringLiteral("index")).toString().toULongLong();
        QVERIFY2(after < before, qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(after)));
        // Still watching: a new change arrives.
        const qsizetype count = seen.size();
        QCOMPARE(http("PUT", QStringLiteral("/v1/kv/") + extra, "").body, QByteArray("true"));
        QTRY_VERIFY_WITH_TIMEOUT(seen.size() > count, 20000);
        QVERIFY(seen.last().details.value(QStringLiteral("index")).toString().toULongLong() > before);
        m_store->unwatch(ref());
    }

    void waitIndexResetsWhenItGoesBackwards() {
        QCOMPARE(ConsulClient::nextWaitIndex(10, 12), quint64(12));
        QCOMPARE(ConsulClient::nextWaitIndex(12, 12), quint64(12));
        QCOMPARE(ConsulClient::nextWaitIndex(12, 5), quint64(0));
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestConsulStore)
#include "tst_consul_store.moc"
