// MetricsCollector: the exporter's values follow the watcher's rounds, events and failures are
// counted, and taking a snapshot of the metrics never asks the store anything.
#include "InMemorySemaphoreStore.h"
#include "TestMain.h"
#include "TestWait.h"
#include "monitor/MetricsCollector.h"
#include "monitor/SemaphoreWatcher.h"

#include <QSignalSpy>
#include <QTest>

using namespace semscope;
using test::waitFor;

namespace {

// The in-memory store, with reads and discoveries that can be made to fail and are counted.
class FlakyStore : public test::InMemorySemaphoreStore {
public:
    using InMemorySemaphoreStore::InMemorySemaphoreStore;
    bool failReads = false;
    bool failDiscovery = false;
    int reads = 0;

    void snapshot(const core::SemaphoreRef &ref, core::Callback<core::Snapshot> done) override {
        ++reads;
        if (!failReads) {
            InMemorySemaphoreStore::snapshot(ref, std::move(done));
            return;
        }
        core::Snapshot s;
        s.ref = ref;
        s.warnings << QStringLiteral("connection lost");
        later([done, s] { done(s); });
    }
    void discover(const core::DiscoverRequest &request, core::Cancellation cancel,
                  core::Callback<core::DiscoverProgress> progress,
                  core::Callback<core::DiscoverResult> done) override {
        if (!failDiscovery) {
            InMemorySemaphoreStore::discover(request, cancel, std::move(progress), std::move(done));
            return;
        }
        core::DiscoverResult r;
        r.error = QStringLiteral("SCAN refused");
        later([done, r] { done(r); });
    }
};

core::SemaphoreRef jobs() {
    core::SemaphoreRef ref;
    ref.kind = core::Kind::Leased;
    ref.name = QStringLiteral("jobs");
    return ref;
}

} // namespace

class TestMetricsCollector : public QObject {
    Q_OBJECT

    std::shared_ptr<test::InMemorySemaphoreServer> m_server;
    std::unique_ptr<FlakyStore> m_store;

    core::Grant acquire(const QString &holder) {
        core::Grant grant;
        core::AcquireRequest request;
        request.holder = holder;
        request.ttlMs = 60000;
        test::waitForCallback([&](std::function<void()> done) {
            m_store->acquire(jobs(), request, core::Cancellation(), [&, done](const core::AcquireResult &r) {
                grant = r.grant;
                done();
            });
        });
        return grant;
    }

    static std::optional<qint64> used(const monitor::MetricsSnapshot &m) {
        for (const monitor::SemaphoreMetrics &s : m.semaphores)
            if (s.name == QLatin1String("jobs"))
                return s.used;
        return std::nullopt;
    }

private Q_SLOTS:
    void init() {
        m_server = std::make_shared<test::InMemorySemaphoreServer>();
        m_server->semaphores[QStringLiteral("jobs")].limit = 3;
        m_server->semaphores[QStringLiteral("jobs")].limitStored = true;
        m_store = std::make_unique<FlakyStore>(m_server);
    }

    void valuesFollowRoundsAndEventsAreCounted() {
        acquire(QStringLiteral("a"));
        const core::Grant b = acquire(QStringLiteral("b"));
        monitor::WatchOptions options;
        options.intervalMs = 20;
        monitor::SemaphoreWatcher watcher(*m_store, options);
        monitor::MetricsCollector collector(watcher, core::Backend::Redis, QStringLiteral("memory://test"));
        QCOMPARE(collector.snapshot().endpoint, QStringLiteral("memory://test"));
        QVERIFY(collector.snapshot().semaphores.isEmpty()); // nothing before the first round
        QVERIFY(!collector.snapshot().discoveryDurationSeconds);
        watcher.start();
        QVERIFY(waitFor([&] { return used(collector.snapshot()) == 2; }));
        const monitor::MetricsSnapshot first = collector.snapshot();
        QCOMPARE(first.semaphores.constFirst().limit, std::optional<qint64>(3));
        QVERIFY(first.discoveryDurationSeconds.has_value());
        QCOMPARE(first.scrapeErrors, 0);

        test::waitForCallback([&](std::function<void()> done) {
            m_store->release(b, [done](const core::ReleaseResult &) { done(); });
        });
        acquire(QStringLiteral("c"));
        acquire(QStringLiteral("d"));
        QVERIFY(waitFor([&] { return used(collector.snapshot()) == 3; }));
        QVERIFY(waitFor(
            [&] { return collector.snapshot().holderEvents.value(QStringLiteral("acquired")) == 2; }));
        QCOMPARE(collector.snapshot().holderEvents.value(QStringLiteral("released")), 1);
    }

    void snapshotsDoNotReadTheStore() {
        acquire(QStringLiteral("a"));
        monitor::WatchOptions options;
        options.intervalMs = 3600000; // one round, then nothing for an hour
        monitor::SemaphoreWatcher watcher(*m_store, options);
        monitor::MetricsCollector collector(watcher, core::Backend::Redis, QStringLiteral("memory://test"));
        QSignalSpy updated(&collector, &monitor::MetricsCollector::updated);
        watcher.start();
        QVERIFY(updated.wait());
        const int reads = m_store->reads;
        for (int i = 0; i < 100; ++i)
            QCOMPARE(used(collector.snapshot()), std::optional<qint64>(1));
        QCOMPARE(m_store->reads, reads);
    }

    void failedReadsAndDiscoveriesAreCounted() {
        acquire(QStringLiteral("a"));
        monitor::WatchOptions options;
        options.intervalMs = 20;
        options.discoveryIntervalMs = 20;
        monitor::SemaphoreWatcher watcher(*m_store, options);
        monitor::MetricsCollector collector(watcher, core::Backend::Redis, QStringLiteral("memory://test"));
        watcher.start();
        QVERIFY(waitFor([&] { return used(collector.snapshot()) == 1; }));
        m_store->failReads = true;
        QVERIFY(waitFor([&] { return collector.snapshot().scrapeErrors >= 2; }));
        QCOMPARE(used(collector.snapshot()), std::optional<qint64>(1)); // the last values stay
        m_store->failReads = false;
        m_store->failDiscovery = true;
        const qint64 before = collector.snapshot().scrapeErrors;
        QVERIFY(waitFor([&] { return collector.snapshot().scrapeErrors >= before + 2; }));
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestMetricsCollector)
#include "tst_metricscollector.moc"
