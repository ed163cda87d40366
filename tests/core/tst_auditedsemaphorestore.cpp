#include "InMemorySemaphoreStore.h"
#include "TestMain.h"
#include "TestWait.h"
#include "core/audit/AuditedSemaphoreStore.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace semscope;

namespace {
// A store that pushes changes (as Consul's blocking queries do).
class PushingStore : public test::InMemorySemaphoreStore {
public:
    using InMemorySemaphoreStore::InMemorySemaphoreStore;
    bool canWatch() const override { return true; }
    void watch(const core::SemaphoreRef &ref, core::Callback<core::Snapshot>) override {
        watched << ref.name;
    }
    void unwatch(const core::SemaphoreRef &ref) override { watched.removeAll(ref.name); }
    bool watchReleases(const core::SemaphoreRef &ref, std::function<void()>) override {
        releasesWatched << ref.name;
        return true;
    }
    void unwatchReleases(const core::SemaphoreRef &ref) override { releasesWatched.removeAll(ref.name); }
    void readClientLiveness(const QList<core::Holder> &holders, const QSet<QString> &,
                            core::Callback<QHash<QString, core::HolderClientLiveness>> done) override {
        QHash<QString, core::HolderClientLiveness> out;
        core::HolderClientLiveness gone;
        gone.identityKey = QStringLiteral("pid:1@vm");
        gone.liveness.state = core::ClientLiveness::State::Gone;
        for (const core::Holder &h : holders)
            out.insert(h.id, gone);
        done(out);
    }
    QStringList watched;
    QStringList releasesWatched;
};
} // namespace

// The store semscope-cli writes through: every write is in the audit log with its outcome, reads
// are not, and everything else (connection state, pushed changes) passes through untouched.
class TestAuditedSemaphoreStore : public QObject {
    Q_OBJECT

    // The answer, or an empty one when none came.
    template <typename R, typename Call>
    static R await(Call call) {
        return test::awaitCall<R>(std::move(call)).value_or(R{});
    }

private Q_SLOTS:
    void writesAreLoggedWithTheirOutcome() {
        QTemporaryDir dir;
        core::AuditLog log(dir.filePath(QStringLiteral("audit.jsonl")));
        core::AuditedSemaphoreStore store(
            std::make_unique<test::InMemorySemaphoreStore>(std::make_shared<test::InMemorySemaphoreServer>()),
            &log, QStringLiteral("redis://10.0.0.5:6379/0"), {});
        core::SemaphoreRef ref;
        ref.kind = core::Kind::Leased;
        ref.name = QStringLiteral("jobs");
        ref.profile.limit = 1;
        core::AcquireRequest request;
        request.holder = QStringLiteral("w1");
        const auto granted = await<core::AcquireResult>(
            [&](auto done) { store.acquire(ref, request, core::Cancellation(), done); });
        QCOMPARE(granted.status, core::AcquireResult::Status::Granted);
        request.holder = QStringLiteral("w2");
        const auto busy = await<core::AcquireResult>(
            [&](auto done) { store.acquire(ref, request, core::Cancellation(), done); });
        QCOMPARE(busy.status, core::AcquireResult::Status::Busy);
        const auto snap = await<core::Snapshot>([&](auto done) { store.snapshot(ref, done); });
        QCOMPARE(snap.holders.size(), 1);
        const auto forced = await<core::ForceReleaseResult>(
            [&](auto done) { store.forceRelease(ref, snap.holders.constFirst(), std::nullopt, done); });
        QCOMPARE(forced.status, core::ForceReleaseResult::Status::Released);
        const auto released =
            await<core::ReleaseResult>([&](auto done) { store.release(granted.grant, done); });
        QCOMPARE(released.status, core::ReleaseResult::Status::NotHeld);

        const QList<core::AuditEntry> entries = log.readRecent();
        QStringList seen;
        for (const core::AuditEntry &e : entries)
            seen << QStringLiteral("%1 %2 %3").arg(e.action, e.holder, e.result);
        QCOMPARE(seen, (QStringList{QStringLiteral("acquire w1 granted"), QStringLiteral("acquire w2 busy"),
                                    QStringLiteral("force-release w1 released"),
                                    QStringLiteral("release w1 not-held")}));
        QCOMPARE(entries.at(2).observed.value(QStringLiteral("id")).toString(), QStringLiteral("w1"));
        QCOMPARE(entries.at(0).semaphore, QStringLiteral("leased:jobs"));
        QCOMPARE(entries.at(0).connection, QStringLiteral("redis://10.0.0.5:6379/0"));
    }

    void connectionStateAndPushedChangesPassThrough() {
        QTemporaryDir dir;
        core::AuditLog log(dir.filePath(QStringLiteral("audit.jsonl")));
        auto inner = std::make_unique<PushingStore>(std::make_shared<test::InMemorySemaphoreServer>());
        PushingStore *innerStore = inner.get();
        core::AuditedSemaphoreStore store(std::move(inner), &log, QStringLiteral("memory://test"), {});
        QVERIFY(store.canWatch()); // else `watch` would poll a Consul agent instead of blocking queries
        core::SemaphoreRef ref;
        ref.name = QStringLiteral("jobs");
        store.watch(ref, [](core::Snapshot) {});
        QCOMPARE(innerStore->watched, QStringList{QStringLiteral("jobs")});
        store.unwatch(ref);
        QVERIFY(innerStore->watched.isEmpty());
        // A load test's retrying clients are woken through the release notifications it passes on.
        QVERIFY(store.watchReleases(ref, [] {}));
        QCOMPARE(innerStore->releasesWatched, QStringList{QStringLiteral("jobs")});
        store.unwatchReleases(ref);
        QVERIFY(innerStore->releasesWatched.isEmpty());
        // And `show` asks it whether each holder's client is still there.
        core::Holder holder;
        holder.id = QStringLiteral("w1");
        const auto clients = await<QHash<QString, core::HolderClientLiveness>>(
            [&](auto done) { store.readClientLiveness({holder}, {}, done); });
        QCOMPARE(clients.value(QStringLiteral("w1")).liveness.state, core::ClientLiveness::State::Gone);
        QSignalSpy states(&store, &core::SemaphoreStore::connectionStateChanged);
        Q_EMIT innerStore->connectionStateChanged(QStringLiteral("lost: test"));
        QCOMPARE(states.size(), 1);
        QCOMPARE(states.at(0).at(0).toString(), QStringLiteral("lost: test"));
        // Failovers reach the GUI through this store too (the controller listens to it).
        QSignalSpy events(&store, &core::SemaphoreStore::topologyEvent);
        Q_EMIT innerStore->topologyEvent(core::TopologyEvent::make(
            core::TopologyEvent::Kind::MasterSwitched, QStringLiteral("failover: master moved from a to b"),
            QStringLiteral("a"), QStringLiteral("b")));
        QCOMPARE(events.size(), 1);
        QCOMPARE(events.at(0).at(0).value<core::TopologyEvent>().to, QStringLiteral("b"));
        QVERIFY(log.readRecent().isEmpty());
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestAuditedSemaphoreStore)
#include "tst_auditedsemaphorestore.moc"
