#include "InMemorySemaphoreStore.h"
#include "RedisServer.h"
#include "TestMain.h"
#include "model/ConnectionController.h"
#include "model/ConnectionStores.h"

#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QtTest>

using namespace semscope;
using model::ConnectionController;

namespace {
// Records the thread each store call ran on, to prove the store lives off the GUI thread.
class ThreadNotingStore : public test::InMemorySemaphoreStore {
public:
    using InMemorySemaphoreStore::InMemorySemaphoreStore;
    void snapshot(const core::SemaphoreRef &ref, core::Callback<core::Snapshot> done) override {
        calledOn = QThread::currentThread();
        ++snapshots;
        InMemorySemaphoreStore::snapshot(ref, std::move(done));
    }
    static inline std::atomic<QThread *> calledOn{nullptr};
    static inline std::atomic<int> snapshots{0};
};

core::StoreFactory memoryFactory(std::shared_ptr<test::InMemorySemaphoreServer> server) {
    return [server] { return std::make_unique<ThreadNotingStore>(server); };
}

core::SemaphoreRef jobs() {
    core::SemaphoreRef r;
    r.kind = core::Kind::Leased;
    r.name = QStringLiteral("jobs");
    r.profile.limit = 2;
    return r;
}
} // namespace

class TestConnectionController : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void runsStoreOnWorkerAndAnswersOnGuiThread();
    void dropsAnswersForDeletedContext();
    void askersOfOneSemaphoreShareItsRead();
    void aWriteIsSeenByTheNextSharedRead();
    void readOnlyReachesTheStore();
    void failingFactoryReportsFailed();
    void silentServerFailsAtTheDeadline();
    void refusedServerKeepsItsReasonWhileRetrying();
    void unreachableServerStaysFailedWhileRetrying();
    void wrongPasswordStopsRetryingAndSaysWhy();
    void refusedConsulTokenNeedsCredentials();
};

void TestConnectionController::runsStoreOnWorkerAndAnswersOnGuiThread() {
    auto server = std::make_shared<test::InMemorySemaphoreServer>();
    ConnectionController c(model::ConnectionConfig::create(core::Backend::Redis), memoryFactory(server));
    c.open();
    bool granted = false;
    QThread *answeredOn = nullptr;
    core::AcquireRequest req;
    req.holder = QStringLiteral("me");
    c.acquire(jobs(), req, {}, this, [&](core::AcquireResult r) {
        granted = r.status == core::AcquireResult::Status::Granted;
        answeredOn = QThread::currentThread();
    });
    QTRY_VERIFY(answeredOn);
    QVERIFY(granted);
    QCOMPARE(answeredOn, QThread::currentThread());

    core::Snapshot snap;
    c.snapshot(jobs(), this, [&](core::Snapshot s) { snap = s; });
    QTRY_COMPARE(snap.holders.size(), 1);
    QVERIFY(ThreadNotingStore::calledOn.load() != nullptr);
    QVERIFY(ThreadNotingStore::calledOn.load() != QThread::currentThread());
    QTRY_COMPARE(c.pendingOperations(), 0);
}

void TestConnectionController::dropsAnswersForDeletedContext() {
    auto server = std::make_shared<test::InMemorySemaphoreServer>();
    ConnectionController c(model::ConnectionConfig::create(core::Backend::Redis), memoryFactory(server));
    c.open();
    auto *context = new QObject;
    bool called = false;
    c.snapshot(jobs(), context, [&](core::Snapshot) { called = true; });
    delete context;
    // A second call with a live context tells us the first answer has come back (in order).
    bool second = false;
    c.snapshot(jobs(), this, [&](core::Snapshot) { second = true; });
    QTRY_VERIFY(second);
    QVERIFY(!called);
}

// The list, the page and the ★ watcher read the same semaphore on the same beat (issue 30): one read
// on the connection serves the three; an explicit refresh still reads.
void TestConnectionController::askersOfOneSemaphoreShareItsRead() {
    auto server = std::make_shared<test::InMemorySemaphoreServer>();
    ConnectionController c(model::ConnectionConfig::create(core::Backend::Redis), memoryFactory(server));
    c.open();
    ThreadNotingStore::snapshots = 0;
    QObject list, page, watcher;
    int answered = 0;
    for (QObject *asker : {&list, &page, &watcher})
        c.snapshot(
            jobs(), asker, [&](core::Snapshot) { ++answered; }, 1000);
    QTRY_COMPARE(answered, 3);
    QCOMPARE(ThreadNotingStore::snapshots.load(), 1);
    c.snapshot(
        jobs(), &watcher, [&](core::Snapshot) { ++answered; }, 1000); // the list's, still young
    QTRY_COMPARE(answered, 4);
    QCOMPARE(ThreadNotingStore::snapshots.load(), 1);
    c.snapshot(jobs(), &page, [&](core::Snapshot) { ++answered; }); // Refresh: a read sent now
    QTRY_COMPARE(answered, 5);
    QCOMPARE(ThreadNotingStore::snapshots.load(), 2);
    QCOMPARE(c.snapshotReadsIssued(), quint64(2));
}

// A write through the connection makes every earlier read old news, however young.
void TestConnectionController::aWriteIsSeenByTheNextSharedRead() {
    auto server = std::make_shared<test::InMemorySemaphoreServer>();
    ConnectionController c(model::ConnectionConfig::create(core::Backend::Redis), memoryFactory(server));
    c.open();
    std::optional<core::Snapshot> before, after;
    QObject list, page; // two askers: the page would share the list's read, were it not for the write
    c.snapshot(
        jobs(), &list, [&](core::Snapshot s) { before = s; }, 60000);
    QTRY_VERIFY(before);
    QCOMPARE(before->holders.size(), 0);
    bool granted = false;
    core::AcquireRequest req;
    req.holder = QStringLiteral("me");
    c.acquire(jobs(), req, {}, this,
              [&](core::AcquireResult r) { granted = r.status == core::AcquireResult::Status::Granted; });
    QTRY_VERIFY(granted);
    c.snapshot(
        jobs(), &page, [&](core::Snapshot s) { after = s; }, 60000);
    QTRY_VERIFY(after);
    QCOMPARE(after->holders.size(), 1);
}

void TestConnectionController::readOnlyReachesTheStore() {
    auto server = std::make_shared<test::InMemorySemaphoreServer>();
    auto config = model::ConnectionConfig::create(core::Backend::Redis);
    config.readOnly = true;
    ConnectionController c(config, memoryFactory(server));
    c.open();
    std::optional<core::AcquireResult> result;
    c.acquire(jobs(), {}, {}, this, [&](core::AcquireResult r) { result = r; });
    QTRY_VERIFY(result.has_value());
    QCOMPARE(result->status, core::AcquireResult::Status::Error);
    QVERIFY(result->error.contains(QLatin1String("read-only")));
}

void TestConnectionController::failingFactoryReportsFailed() {
    ConnectionController c(
        model::ConnectionConfig::create(core::Backend::Redis),
        []() -> std::unique_ptr<core::SemaphoreStore> { throw std::runtime_error("bad URL"); });
    QSignalSpy state(&c, &ConnectionController::stateChanged);
    c.open();
    QTRY_COMPARE(c.state(), ConnectionController::State::Failed);
    QCOMPARE(c.stateText(), QStringLiteral("bad URL"));
    // Calls still answer (with an error) instead of hanging.
    std::optional<core::DiscoverResult> result;
    c.discover({}, this, {}, [&](core::DiscoverResult r) { result = r; });
    QTRY_VERIFY(result.has_value());
    QVERIFY(!result->ok);
}

void TestConnectionController::silentServerFailsAtTheDeadline() {
    // Accepts the connection, never answers: the black hole that used to stay "connecting".
    QTcpServer blackHole;
    QVERIFY(blackHole.listen(QHostAddress::LocalHost));
    QList<QTcpSocket *> accepted;
    connect(&blackHole, &QTcpServer::newConnection, this, [&] {
        while (auto *socket = blackHole.nextPendingConnection())
            accepted << socket;
    });
    auto config = model::ConnectionConfig::create(core::Backend::Consul);
    config.address = QStringLiteral("http://127.0.0.1:%1").arg(blackHole.serverPort());
    ConnectionController c(config, model::storeFactoryFor(config));
    c.setConnectDeadlineMs(300);
    c.open();
    c.discover({}, this, {}, [](core::DiscoverResult) {});
    QTRY_COMPARE(c.state(), ConnectionController::State::Failed);
    QVERIFY2(c.stateText().contains(config.endpoint()), qPrintable(c.stateText()));
    QVERIFY2(c.stateText().contains(QLatin1String("did not answer")), qPrintable(c.stateText()));
    qDeleteAll(accepted);
}

void TestConnectionController::refusedServerKeepsItsReasonWhileRetrying() {
    // A port nobody listens on: every attempt is refused and the controller says so each time,
    // also in "reconnecting in …", not only for the moment the attempt fails.
    QTcpServer probe;
    QVERIFY(probe.listen(QHostAddress::LocalHost));
    const quint16 port = probe.serverPort();
    probe.close();
    auto config = model::ConnectionConfig::create(core::Backend::Redis);
    config.port = port;
    ConnectionController c(config, model::storeFactoryFor(config));
    c.open();
    QTRY_COMPARE_WITH_TIMEOUT(c.state(), ConnectionController::State::Reconnecting, 10000);
    QVERIFY2(c.stateText().contains(QLatin1String("last attempt:")), qPrintable(c.stateText()));
    QVERIFY2(c.stateText().contains(QLatin1String("refused"), Qt::CaseInsensitive),
             qPrintable(c.stateText()));
}

void TestConnectionController::unreachableServerStaysFailedWhileRetrying() {
    // Once the connect deadline has passed, the retries that follow must not flip the state (and
    // the connection's icon) back through lost and reconnecting each time: it stays failed, and
    // only the text follows the attempts, until one succeeds.
    test::RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    server.stop(); // its port stays ours, refused until restart()
    auto config = model::ConnectionConfig::create(core::Backend::Redis);
    config.port = server.port();
    ConnectionController c(config, model::storeFactoryFor(config));
    c.setConnectDeadlineMs(1000);
    c.open();
    QTRY_COMPARE_WITH_TIMEOUT(c.state(), ConnectionController::State::Failed, 10000);
    QSignalSpy changes(&c, &ConnectionController::stateChanged);
    // Two more attempts are reported (each a "lost" and a "reconnecting in …").
    QTRY_VERIFY_WITH_TIMEOUT(changes.size() >= 4, 20000);
    for (const QList<QVariant> &change : std::as_const(changes))
        QCOMPARE(change.at(0).value<ConnectionController::State>(), ConnectionController::State::Failed);
    QVERIFY2(c.stateText().contains(QLatin1String("unreachable since")), qPrintable(c.stateText()));
    QVERIFY2(c.stateText().contains(QLatin1String("refused"), Qt::CaseInsensitive),
             qPrintable(c.stateText()));
    // Issue 31 item 4: a refusal is said first, not "did not answer within 10 s" (the port is wrong or
    // the server down, not the network).
    QVERIFY2(c.stateText().contains(QLatin1String("refused the connection")), qPrintable(c.stateText()));
    QVERIFY2(!c.stateText().contains(QLatin1String("did not answer")), qPrintable(c.stateText()));
    // The server comes back: the next attempt connects and the state follows.
    QVERIFY2(server.restart(), qPrintable(server.errorString()));
    QTRY_COMPARE_WITH_TIMEOUT(c.state(), ConnectionController::State::Connected, 30000);
}

void TestConnectionController::wrongPasswordStopsRetryingAndSaysWhy() {
    test::RedisServer server;
    test::RedisServer::Options options;
    options.aclUser = QStringLiteral("ops");
    options.aclPassword = QStringLiteral("right");
    QVERIFY2(server.start(options), qPrintable(server.errorString()));
    auto config = model::ConnectionConfig::create(core::Backend::Redis);
    config.port = server.port();
    config.user = QStringLiteral("ops");
    config.hasSecret = true;
    config.secret = QStringLiteral("wrong");
    ConnectionController c(config, model::storeFactoryFor(config));
    QSignalSpy changes(&c, &ConnectionController::stateChanged);
    c.open();
    QTRY_COMPARE_WITH_TIMEOUT(c.state(), ConnectionController::State::Failed, 10000);
    QVERIFY(c.needsCredentials());
    QVERIFY2(c.stateText().contains(QLatin1String("WRONGPASS")), qPrintable(c.stateText()));
    QVERIFY2(c.stateText().contains(config.endpoint()), qPrintable(c.stateText()));
    // No retry follows (a retry would say "reconnecting" within 100-800 ms), and the reason stays:
    // a window of 1.5 s in which nothing may happen.
    const qsizetype seen = changes.size();
    QTest::qWait(1500);
    QCOMPARE(changes.size(), seen);
    QCOMPARE(c.state(), ConnectionController::State::Failed);
    // Calls answer at once instead of waiting for a connection that will not come.
    std::optional<core::DiscoverResult> result;
    c.discover({}, this, {}, [&](core::DiscoverResult r) { result = r; });
    QTRY_VERIFY(result.has_value());
    QVERIFY(!result->ok);
    QCOMPARE(c.state(), ConnectionController::State::Failed);
}

void TestConnectionController::refusedConsulTokenNeedsCredentials() {
    // A store without connection states reports a refused token through its answers.
    auto server = std::make_shared<test::InMemorySemaphoreServer>();
    class RefusingStore : public test::InMemorySemaphoreStore {
    public:
        using InMemorySemaphoreStore::InMemorySemaphoreStore;
        void discover(const core::DiscoverRequest &, core::Cancellation,
                      core::Callback<core::DiscoverProgress>,
                      core::Callback<core::DiscoverResult> done) override {
            core::DiscoverResult r;
            r.error = QStringLiteral("listing keys failed: Unexpected response code: 403 (ACL not found)");
            done(r);
        }
    };
    auto config = model::ConnectionConfig::create(core::Backend::Consul);
    ConnectionController c(config, [server] { return std::make_unique<RefusingStore>(server); });
    c.open();
    c.discover({}, this, {}, [](core::DiscoverResult) {});
    QTRY_VERIFY(c.needsCredentials());
    QCOMPARE(c.state(), ConnectionController::State::Failed);
    QVERIFY2(c.stateText().contains(QLatin1String("ACL not found")), qPrintable(c.stateText()));
    QVERIFY2(c.stateText().contains(config.endpoint()), qPrintable(c.stateText()));
}

SEMSCOPE_TEST_MAIN(TestConnectionController)
#include "tst_connectioncontroller.moc"
