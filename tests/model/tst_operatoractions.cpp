#include "InMemorySemaphoreStore.h"
#include "TestMain.h"
#include "TestWait.h"
#include "model/OperatorActions.h"
#include "monitor/HistoryStore.h"
#include "monitor/HistoryWorker.h"

#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

using namespace semscope;
using core::ForceReleaseResult;
using model::OperatorActions;

namespace {
core::SemaphoreRef jobs() {
    core::SemaphoreRef r;
    r.kind = core::Kind::Leased;
    r.name = QStringLiteral("jobs");
    r.profile.limit = 3;
    return r;
}
} // namespace

class TestOperatorActions : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void acquireRememberedAndReleased();
    void forceReleaseOutcomes();
    void forceReleaseTheHistoryCouldNotMarkSaysSo();
    void productionNeedsTheNameTyped_data();
    void productionNeedsTheNameTyped();
    void readOnlyRefusesEveryWrite();
    void productionInvalidateNeedsTheNameTyped();

private:
    std::unique_ptr<model::ConnectionController> controller(model::Environment env, bool readOnly);
    std::optional<core::Holder> holderNamed(model::ConnectionController &c, const QString &id);
    // Acquires a slot of jobs() as "victim" through `actions`; the holder as a snapshot shows it.
    std::optional<core::Holder> acquireVictim(OperatorActions &actions, model::ConnectionController &c);

    std::shared_ptr<test::InMemorySemaphoreServer> m_server;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<core::AuditLog> m_audit;
};

void TestOperatorActions::init() {
    m_server = std::make_shared<test::InMemorySemaphoreServer>();
    m_dir = std::make_unique<QTemporaryDir>();
    m_audit = std::make_unique<core::AuditLog>(m_dir->path() + QStringLiteral("/audit.jsonl"));
}

void TestOperatorActions::cleanup() {
    m_audit.reset();
    m_dir.reset();
}

std::unique_ptr<model::ConnectionController> TestOperatorActions::controller(model::Environment env,
                                                                             bool readOnly) {
    auto config = model::ConnectionConfig::create(core::Backend::Redis);
    config.name = QStringLiteral("test");
    config.environment = env;
    config.readOnly = readOnly;
    auto server = m_server;
    auto c = std::make_unique<model::ConnectionController>(
        config, [server] { return std::make_unique<test::InMemorySemaphoreStore>(server); });
    c->open();
    return c;
}

std::optional<core::Holder> TestOperatorActions::acquireVictim(OperatorActions &actions,
                                                               model::ConnectionController &c) {
    std::optional<core::AcquireResult> a;
    actions.acquire(jobs(), QStringLiteral("victim"), 30000, this, [&](core::AcquireResult r) { a = r; });
    if (!QTest::qWaitFor([&] { return a.has_value(); }, 10000) ||
        a->status != core::AcquireResult::Status::Granted)
        return std::nullopt;
    return holderNamed(c, QStringLiteral("victim"));
}

std::optional<core::Holder> TestOperatorActions::holderNamed(model::ConnectionController &c,
                                                             const QString &id) {
    std::optional<core::Snapshot> snap;
    c.snapshot(jobs(), this, [&](core::Snapshot s) { snap = s; });
    if (!QTest::qWaitFor([&] { return snap.has_value(); }, 10000))
        return std::nullopt;
    for (const auto &h : snap->holders) {
        if (h.id == id)
            return h;
    }
    return std::nullopt;
}

void TestOperatorActions::acquireRememberedAndReleased() {
    auto c = controller(model::Environment::Development, false);
    OperatorActions actions(c.get(), m_audit.get());
    QSignalSpy grants(&actions, &OperatorActions::grantsChanged);
    std::optional<core::AcquireResult> acquired;
    actions.acquire(jobs(), QStringLiteral("ops@laptop"), 30000, this,
                    [&](core::AcquireResult r) { acquired = r; });
    QTRY_VERIFY(acquired.has_value());
    QCOMPARE(acquired->status, core::AcquireResult::Status::Granted);
    QCOMPARE(actions.grants().size(), 1);
    QVERIFY(actions.grantFor(jobs(), acquired->grant.rawHolder).has_value());

    std::optional<core::ReleaseResult> released;
    actions.release(acquired->grant, this, [&](core::ReleaseResult r) { released = r; });
    QTRY_VERIFY(released.has_value());
    QCOMPARE(released->status, core::ReleaseResult::Status::Ok);
    QVERIFY(actions.grants().isEmpty());
    QCOMPARE(grants.count(), 2);
    const auto log = m_audit->readRecent();
    QCOMPARE(log.size(), 2);
    QCOMPARE(log.at(0).action, QStringLiteral("acquire"));
    QCOMPARE(log.at(0).result, QStringLiteral("granted"));
    QCOMPARE(log.at(1).action, QStringLiteral("release"));
    QCOMPARE(log.at(1).environment, QStringLiteral("development"));
}

void TestOperatorActions::forceReleaseOutcomes() {
    auto c = controller(model::Environment::Development, false);
    OperatorActions actions(c.get(), m_audit.get());
    std::optional<core::AcquireResult> a;
    actions.acquire(jobs(), QStringLiteral("victim"), 30000, this, [&](core::AcquireResult r) { a = r; });
    QTRY_VERIFY(a.has_value());
    const auto seen = holderNamed(*c, QStringLiteral("victim"));
    QVERIFY(seen);

    // The holder re-acquires (new token) behind the operator's back: changed, nothing done.
    std::optional<core::ReleaseResult> rel;
    c->release(a->grant, this, [&](core::ReleaseResult r) { rel = r; });
    QTRY_VERIFY(rel.has_value());
    a.reset();
    actions.acquire(jobs(), QStringLiteral("victim"), 30000, this, [&](core::AcquireResult r) { a = r; });
    QTRY_VERIFY(a.has_value());
    std::optional<ForceReleaseResult> fr;
    actions.forceRelease(jobs(), *seen, std::nullopt, {}, this, [&](ForceReleaseResult r) { fr = r; });
    QTRY_VERIFY(fr.has_value());
    QCOMPARE(fr->status, ForceReleaseResult::Status::Changed);
    QVERIFY(holderNamed(*c, QStringLiteral("victim")).has_value());

    // Looking again and releasing what is there now works; a second try finds it gone.
    const auto now = holderNamed(*c, QStringLiteral("victim"));
    fr.reset();
    QSignalSpy finished(&actions, &OperatorActions::actionFinished);
    actions.forceRelease(jobs(), *now, std::nullopt, {}, this, [&](ForceReleaseResult r) { fr = r; });
    QTRY_VERIFY(fr.has_value());
    QCOMPARE(fr->status, ForceReleaseResult::Status::Released);
    // The outcome is said once: "released victim", not "released (released victim)".
    QCOMPARE(finished.size(), 1);
    const QString summary = finished.at(0).at(0).toString();
    QVERIFY2(summary.endsWith(QStringLiteral(": released victim")), qPrintable(summary));
    fr.reset();
    actions.forceRelease(jobs(), *now, std::nullopt, {}, this, [&](ForceReleaseResult r) { fr = r; });
    QTRY_VERIFY(fr.has_value());
    QCOMPARE(fr->status, ForceReleaseResult::Status::Gone);

    QStringList results;
    for (const auto &e : m_audit->readRecent()) {
        if (e.action == QLatin1String("force-release"))
            results << e.result;
    }
    QCOMPARE(results, (QStringList{"changed", "released", "gone"}));
    const auto last = m_audit->readRecent(1).first();
    QCOMPARE(last.observed.value(QStringLiteral("id")).toString(), QStringLiteral("victim"));
    QVERIFY(last.observed.contains(QStringLiteral("token")));
}

void TestOperatorActions::forceReleaseTheHistoryCouldNotMarkSaysSo() {
    // Another process holds the shared history past the busy timeout: the force-release goes ahead
    // (the operator's write is not held back for a record), and the result says a watch will not
    // be told who removed the holder.
    const QString path = m_dir->path() + QStringLiteral("/history.sqlite");
    QVERIFY(monitor::HistoryStore(path).isAvailable()); // the file exists before it is locked
    monitor::HistoryWorker history(path, 50);
    // Opened (on its thread) before the other connection locks the file.
    QVERIFY(test::waitForCallback([&](std::function<void()> done) { history.flush(nullptr, done); }));
    QVERIFY(history.isAvailable());
    {
        QSqlDatabase other = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("other"));
        other.setDatabaseName(path);
        QVERIFY(other.open());
        QSqlQuery lock(other);
        QVERIFY(lock.exec(QStringLiteral("BEGIN EXCLUSIVE")));

        auto c = controller(model::Environment::Development, false);
        OperatorActions actions(c.get(), m_audit.get());
        actions.setHistory(&history);
        const auto seen = acquireVictim(actions, *c);
        QVERIFY(seen);
        std::optional<ForceReleaseResult> fr;
        actions.forceRelease(jobs(), *seen, std::nullopt, {}, this, [&](ForceReleaseResult r) { fr = r; });
        QTRY_VERIFY(fr.has_value());
        QCOMPARE(fr->status, ForceReleaseResult::Status::Released);
        QVERIFY2(fr->message.contains(QStringLiteral("the shared history did not record this force-release")),
                 qPrintable(fr->message));
        QVERIFY2(fr->message.contains(QStringLiteral("locked")), qPrintable(fr->message));
        QVERIFY(!holderNamed(*c, QStringLiteral("victim")).has_value());
        QVERIFY(lock.exec(QStringLiteral("ROLLBACK")));
        other.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("other"));
}

void TestOperatorActions::productionNeedsTheNameTyped_data() {
    QTest::addColumn<QString>("typed");
    QTest::addColumn<bool>("released");
    QTest::newRow("nothing") << QString() << false;
    QTest::newRow("prefix") << QStringLiteral("job") << false;
    QTest::newRow("other case") << QStringLiteral("JOBS") << false;
    QTest::newRow("exact") << QStringLiteral("jobs") << true;
    QTest::newRow("exact with spaces") << QStringLiteral("  jobs ") << true;
}

void TestOperatorActions::productionNeedsTheNameTyped() {
    QFETCH(QString, typed);
    QFETCH(bool, released);
    auto c = controller(model::Environment::Production, false);
    OperatorActions actions(c.get(), m_audit.get());
    QVERIFY(actions.needsTypedConfirmation());
    const auto seen = acquireVictim(actions, *c);
    QVERIFY(seen);
    std::optional<ForceReleaseResult> fr;
    actions.forceRelease(jobs(), *seen, std::nullopt, typed, this, [&](ForceReleaseResult r) { fr = r; });
    QTRY_VERIFY(fr.has_value());
    QCOMPARE(fr->status == ForceReleaseResult::Status::Released, released);
    QCOMPARE(holderNamed(*c, QStringLiteral("victim")).has_value(), !released);
    QCOMPARE(m_audit->readRecent(1).first().result,
             released ? QStringLiteral("released") : QStringLiteral("refused"));
}

void TestOperatorActions::readOnlyRefusesEveryWrite() {
    // Put a holder there through a writable connection first.
    auto writer = controller(model::Environment::Development, false);
    std::optional<core::AcquireResult> a;
    core::AcquireRequest req;
    req.holder = QStringLiteral("victim");
    writer->acquire(jobs(), req, {}, this, [&](core::AcquireResult r) { a = r; });
    QTRY_VERIFY(a.has_value());
    const qint64 callsBefore = m_server->acquireCalls;

    auto c = controller(model::Environment::Development, true);
    OperatorActions actions(c.get(), m_audit.get());
    QVERIFY(!actions.canWrite());
    int answered = 0;
    actions.acquire(jobs(), QStringLiteral("x"), 1000, this, [&](core::AcquireResult r) {
        QCOMPARE(r.status, core::AcquireResult::Status::Error);
        ++answered;
    });
    actions.forceRelease(jobs(), *holderNamed(*c, QStringLiteral("victim")), std::nullopt,
                         QStringLiteral("jobs"), this, [&](ForceReleaseResult r) {
                             QCOMPARE(r.status, ForceReleaseResult::Status::Error);
                             ++answered;
                         });
    actions.purgeExpired(jobs(), this, [&](core::MaintenanceResult r) {
        QVERIFY(!r.ok);
        ++answered;
    });
    actions.repair(jobs(), this, [&](core::MaintenanceResult r) {
        QVERIFY(!r.ok);
        ++answered;
    });
    actions.release(a->grant, this, [&](core::ReleaseResult r) {
        QCOMPARE(r.status, core::ReleaseResult::Status::Error);
        ++answered;
    });
    actions.invalidateSession(jobs(), core::Holder{}, jobs().name, this, [&](core::MaintenanceResult r) {
        QVERIFY(!r.ok);
        ++answered;
    });
    QTRY_COMPARE(answered, 6);
    QCOMPARE(m_server->acquireCalls, callsBefore);
    QVERIFY(holderNamed(*c, QStringLiteral("victim")).has_value());
    const auto log = m_audit->readRecent();
    QCOMPARE(log.size(), 6);
    for (const auto &e : log)
        QCOMPARE(e.result, QStringLiteral("refused"));
}

void TestOperatorActions::productionInvalidateNeedsTheNameTyped() {
    // Invalidating a session ends every lock taken with it: on production it asks for the name
    // like a force-release, and the guard is here, not only in the dialog.
    auto c = controller(model::Environment::Production, false);
    OperatorActions actions(c.get(), m_audit.get());
    core::SemaphoreRef consul;
    consul.kind = core::Kind::Consul;
    consul.name = QStringLiteral("service/jobs");
    core::Holder holder;
    holder.id = QStringLiteral("5a3c8c1e-2d4f-4b8e-9a71-0c6f2e9d1b47");
    holder.rawId = holder.id.toUtf8();
    std::optional<core::MaintenanceResult> result;
    actions.invalidateSession(consul, holder, QStringLiteral("service/job"), this,
                              [&](core::MaintenanceResult r) { result = r; });
    QTRY_VERIFY(result.has_value());
    QVERIFY(!result->ok);
    QVERIFY2(result->message.contains(QLatin1String("type the semaphore name")), qPrintable(result->message));
    const auto entry = m_audit->readRecent(1).first();
    QCOMPARE(entry.action, QStringLiteral("invalidate-session"));
    QCOMPARE(entry.result, QStringLiteral("refused"));
    QCOMPARE(entry.observed.value(QStringLiteral("session")).toString(), holder.id);
}

SEMSCOPE_TEST_MAIN(TestOperatorActions)
#include "tst_operatoractions.moc"
