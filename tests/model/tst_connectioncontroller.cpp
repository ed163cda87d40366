#include "InMemorySemaphoreStore.h"
#include "model/ConnectionController.h"

#include <QSignalSpy>
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
        InMemorySemaphoreStore::snapshot(ref, std::move(done));
    }
    static inline std::atomic<QThread *> calledOn{nullptr};
};

model::StoreFactory memoryFactory(std::shared_ptr<test::InMemorySemaphoreServer> server) {
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
    void readOnlyReachesTheStore();
    void failingFactoryReportsFailed();
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

QTEST_MAIN(TestConnectionController)
#include "tst_connectioncontroller.moc"
