// The read-only gate of core::SemaphoreStore, the one place every write of every store passes:
// each write of the interface (tests/support/StoreWrites.h) is refused with one text, later (never
// inside the call), without reaching the store's implementation; a writable store's writes reach it.
#include "InMemorySemaphoreStore.h"
#include "StoreWrites.h"
#include "TestMain.h"

#include <QtTest>

using namespace semscope;

namespace {

// Counts the writes that got past the gate into the implementation.
class CountingStore : public test::InMemorySemaphoreStore {
public:
    using InMemorySemaphoreStore::InMemorySemaphoreStore;
    int reached = 0;

protected:
    void doAcquire(const core::SemaphoreRef &ref, const core::AcquireRequest &request,
                   core::Cancellation cancel, core::Callback<core::AcquireResult> done) override {
        ++reached;
        InMemorySemaphoreStore::doAcquire(ref, request, std::move(cancel), std::move(done));
    }
    void doRefresh(const core::Grant &grant, qint64 ttlMs,
                   core::Callback<core::RefreshResult> done) override {
        ++reached;
        InMemorySemaphoreStore::doRefresh(grant, ttlMs, std::move(done));
    }
    void doRelease(const core::Grant &grant, core::Callback<core::ReleaseResult> done) override {
        ++reached;
        InMemorySemaphoreStore::doRelease(grant, std::move(done));
    }
    void doForceRelease(const core::SemaphoreRef &ref, const core::Holder &observed,
                        std::optional<qint64> observedVersion,
                        core::Callback<core::ForceReleaseResult> done) override {
        ++reached;
        InMemorySemaphoreStore::doForceRelease(ref, observed, observedVersion, std::move(done));
    }
    void doPurgeExpired(const core::SemaphoreRef &ref,
                        core::Callback<core::MaintenanceResult> done) override {
        ++reached;
        InMemorySemaphoreStore::doPurgeExpired(ref, std::move(done));
    }
    void doRepair(const core::SemaphoreRef &ref, core::Callback<core::MaintenanceResult> done) override {
        ++reached;
        InMemorySemaphoreStore::doRepair(ref, std::move(done));
    }
    void doSetLimit(const core::SemaphoreRef &ref, qint64 limit,
                    core::Callback<core::MaintenanceResult> done) override {
        ++reached;
        InMemorySemaphoreStore::doSetLimit(ref, limit, std::move(done));
    }
};

core::SemaphoreRef jobs() {
    core::SemaphoreRef ref;
    ref.kind = core::Kind::Leased;
    ref.name = QStringLiteral("jobs");
    ref.profile.limit = 2;
    return ref;
}

void addEveryWrite() {
    QTest::addColumn<QString>("write");
    for (const QString &name : test::everyStoreWrite().keys())
        QTest::newRow(qPrintable(name)) << name;
}

} // namespace

class TestReadOnlyStore : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void readOnlyRefusesBeforeTheImplementation_data() { addEveryWrite(); }
    void readOnlyRefusesBeforeTheImplementation() {
        QFETCH(QString, write);
        auto server = std::make_shared<test::InMemorySemaphoreServer>();
        CountingStore store(server);
        store.setReadOnly(true);
        const test::WriteOutcome out = test::runWrite(test::everyStoreWrite().value(write), store, jobs());
        QVERIFY(out.answer.has_value());
        QVERIFY(!out.answer->ok);
        QCOMPARE(out.answer->text, QStringLiteral("refused: this connection is read-only"));
        QVERIFY(!out.answeredBeforeReturn);
        QCOMPARE(store.reached, 0);
        QVERIFY(server->semaphores.isEmpty());
    }

    void writableStorePassesTheGate_data() { addEveryWrite(); }
    void writableStorePassesTheGate() {
        QFETCH(QString, write);
        CountingStore store(std::make_shared<test::InMemorySemaphoreServer>());
        const test::WriteOutcome out = test::runWrite(test::everyStoreWrite().value(write), store, jobs());
        QVERIFY(out.answer.has_value());
        QCOMPARE(store.reached, 1);
        QVERIFY(out.answer->text != QStringLiteral("refused: this connection is read-only"));
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestReadOnlyStore)
#include "tst_readonlystore.moc"
