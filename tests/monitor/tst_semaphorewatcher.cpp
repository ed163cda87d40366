#include "InMemorySemaphoreStore.h"
#include "TestWait.h"

#include "TestMain.h"
#include "monitor/HistoryStore.h"
#include "monitor/HistoryWorker.h"
#include "monitor/SemaphoreWatcher.h"

#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace semscope;
using monitor::HolderEvent;
using monitor::SemaphoreWatcher;
using test::InMemorySemaphoreServer;
using test::InMemorySemaphoreStore;

namespace {

// Collects every event a watcher reports.
struct Recorder {
    explicit Recorder(SemaphoreWatcher &w) {
        QObject::connect(&w, &SemaphoreWatcher::events, &w,
                         [this](const QList<HolderEvent> &l) { all << l; });
    }
    bool has(const QString &event, const QString &holder = {}, const QString &name = {}) const {
        return std::any_of(all.begin(), all.end(), [&](const HolderEvent &e) {
            return e.event == event && (holder.isEmpty() || e.holder == holder) &&
                   (name.isEmpty() || e.ref.name == name);
        });
    }
    int count(const QString &event) const {
        return int(
            std::count_if(all.begin(), all.end(), [&](const HolderEvent &e) { return e.event == event; }));
    }
    QList<HolderEvent> all;
};

// A store whose snapshots are answered only when the test says so, and that counts them.
class HeldStore : public InMemorySemaphoreStore {
public:
    using InMemorySemaphoreStore::InMemorySemaphoreStore;
    void snapshot(const core::SemaphoreRef &ref, core::Callback<core::Snapshot> done) override {
        ++asked[ref.name];
        ++inFlight;
        maxInFlight = qMax(maxInFlight, inFlight);
        held << [this, ref, done] {
            --inFlight;
            InMemorySemaphoreStore::snapshot(ref, done);
        };
    }
    void answerAll() {
        const auto now = std::exchange(held, {});
        for (const auto &f : now)
            f();
    }
    QHash<QString, int> asked;
    int inFlight = 0;
    int maxInFlight = 0;
    QList<std::function<void()>> held;
};

// Reads its semaphores as a `slots` layout would: holders with a slot and no time at all.
class SlotsLikeStore : public InMemorySemaphoreStore {
public:
    using InMemorySemaphoreStore::InMemorySemaphoreStore;
    QString endpoint() const override { return QStringLiteral("memory://slots"); }
    void snapshot(const core::SemaphoreRef &ref, core::Callback<core::Snapshot> done) override {
        InMemorySemaphoreStore::snapshot(ref, [done](core::Snapshot s) {
            s.ref.kind = core::Kind::Slots;
            qint64 slot = 0;
            for (core::Holder &h : s.holders) {
                h.acquiredAtMs.reset();
                h.expiresAtMs.reset();
                h.state = core::HolderState::Live;
                h.slot = ++slot;
            }
            done(s);
        });
    }
};

// Fails every read, the way a store that lost its server answers.
class FailingStore : public InMemorySemaphoreStore {
public:
    using InMemorySemaphoreStore::InMemorySemaphoreStore;
    bool fail = false;
    void snapshot(const core::SemaphoreRef &ref, core::Callback<core::Snapshot> done) override {
        if (!fail) {
            InMemorySemaphoreStore::snapshot(ref, done);
            return;
        }
        core::Snapshot s;
        s.ref = ref;
        s.warnings << QStringLiteral("connection lost");
        QMetaObject::invokeMethod(
            this, [done, s] { done(s); }, Qt::QueuedConnection);
    }
};

// Pushes changes instead of being polled (like Consul's blocking queries).
class PushingStore : public InMemorySemaphoreStore {
public:
    using InMemorySemaphoreStore::InMemorySemaphoreStore;
    bool canWatch() const override { return true; }
    void watch(const core::SemaphoreRef &ref, core::Callback<core::Snapshot> onChange) override {
        ++watchCalls;
        watchers.insert(ref.name, onChange);
        push(ref);
    }
    void unwatch(const core::SemaphoreRef &ref) override { watchers.remove(ref.name); }
    void snapshot(const core::SemaphoreRef &ref, core::Callback<core::Snapshot> done) override {
        ++snapshotCalls;
        InMemorySemaphoreStore::snapshot(ref, done);
    }
    void push(const core::SemaphoreRef &ref) {
        if (auto f = watchers.value(ref.name))
            InMemorySemaphoreStore::snapshot(ref, f);
    }
    QHash<QString, core::Callback<core::Snapshot>> watchers;
    int watchCalls = 0;
    int snapshotCalls = 0;
};

void hold(InMemorySemaphoreServer &server, const QString &sem, const QString &holder, qint64 ttlMs,
          qint64 token = 1) {
    std::lock_guard lock(server.mutex);
    auto &s = server.semaphores[sem];
    s.limit = 3;
    s.limitStored = true;
    const qint64 now = server.nowMs();
    s.holders.insert(holder, {now + ttlMs, now, token});
}

void drop(InMemorySemaphoreServer &server, const QString &sem, const QString &holder) {
    std::lock_guard lock(server.mutex);
    server.semaphores[sem].holders.remove(holder);
}

void remove(InMemorySemaphoreServer &server, const QString &sem) {
    std::lock_guard lock(server.mutex);
    server.semaphores.remove(sem);
}

// Hints the test gives by hand; remembers what it was asked to follow.
class ScriptedHints : public core::SemaphoreChangeHints {
public:
    void followSemaphores(const QList<core::Snapshot> &snapshots) override {
        followed.clear();
        for (const core::Snapshot &s : snapshots)
            followed << s.ref.name;
        ++follows;
    }
    void setNewKeysWanted(bool wanted) override { newKeysWanted = wanted; }
    QStringList followed;
    int follows = 0;
    bool newKeysWanted = false;
};

monitor::WatchOptions fast() {
    monitor::WatchOptions o;
    o.intervalMs = 20;
    o.discoveryIntervalMs = 100;
    return o;
}

} // namespace

class TestSemaphoreWatcher : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void reportsAcquireReleaseAndExpiry();
    void presentAtStartIsNoNews();
    void appearsAndDisappears();
    void kindAndAcceptNarrowIt();
    void readsAreBoundedAndNeverRepeatedWhileOutstanding();
    void failedReadIsReportedNotDiffed();
    void pushingStoreIsFollowedNotPolled();
    void watchesExactlyTheGivenSemaphores();
    void changeHintsAreReadAtOnce();
    void stuckHolderIsStillStaleAfterARestart();
    void withoutHistoryTheAgeCountsFromTheStart();
    void aBusyHistoryNeverStopsTheWatchersThread();
    void aNewKeyHintBringsDiscoveryForward();
    void stopEndsEverything();
};

void TestSemaphoreWatcher::reportsAcquireReleaseAndExpiry() {
    auto server = std::make_shared<InMemorySemaphoreServer>();
    hold(*server, "jobs", "resident", 60000);
    InMemorySemaphoreStore store(server);
    SemaphoreWatcher w(store, fast());
    Recorder r(w);
    QSignalSpy rounds(&w, &SemaphoreWatcher::roundFinished);
    w.start();
    QVERIFY(rounds.wait());
    QVERIFY(r.all.isEmpty());
    QCOMPARE(w.latest().size(), 1);
    QCOMPARE(w.latest().constFirst().holders.size(), 1);

    hold(*server, "jobs", "a", 60000, 2);
    QVERIFY(test::waitFor([&] { return r.has("acquired", "a"); }));
    drop(*server, "jobs", "a");
    QVERIFY(test::waitFor([&] { return r.has("released", "a"); }));
    hold(*server, "jobs", "short", 150, 3);
    QVERIFY(test::waitFor([&] { return r.has("expired", "short"); }));
    QCOMPARE(r.count("acquired"), r.has("acquired", "short") ? 2 : 1); // a 150 ms hold may fall between reads
    QVERIFY(!r.has("released", "short"));
    const HolderEvent &acquired =
        *std::find_if(r.all.begin(), r.all.end(), [](auto &e) { return e.holder == "a"; });
    QCOMPARE(acquired.token, 2);
    QVERIFY(acquired.ttlMs && *acquired.ttlMs > 50000);
}

void TestSemaphoreWatcher::presentAtStartIsNoNews() {
    auto server = std::make_shared<InMemorySemaphoreServer>();
    hold(*server, "a", "h1", 60000);
    hold(*server, "b", "h2", -5); // already expired: a condition, reported at once
    InMemorySemaphoreStore store(server);
    SemaphoreWatcher w(store, fast());
    Recorder r(w);
    QSignalSpy rounds(&w, &SemaphoreWatcher::roundFinished);
    w.start();
    QVERIFY(rounds.wait());
    QVERIFY(!r.has("appeared"));
    QVERIFY(!r.has("acquired"));
    QVERIFY(r.has("expired", "h2"));
}

void TestSemaphoreWatcher::appearsAndDisappears() {
    auto server = std::make_shared<InMemorySemaphoreServer>();
    hold(*server, "old", "h", 60000);
    InMemorySemaphoreStore store(server);
    SemaphoreWatcher w(store, fast());
    Recorder r(w);
    QSignalSpy discoveries(&w, &SemaphoreWatcher::discoveryFinished);
    w.start();
    QVERIFY(discoveries.wait());
    QCOMPARE(discoveries.constFirst().at(1).toBool(), true);
    hold(*server, "new", "n", 60000);
    QVERIFY(test::waitFor([&] { return r.has("appeared", {}, "new"); }));
    QVERIFY(!r.has("acquired", "n")); // the first read of a new semaphore says appeared, with its use
    remove(*server, "old");
    QVERIFY(test::waitFor([&] { return r.has("disappeared", {}, "old"); }));
    // Its holder's departure comes first.
    const auto released = std::find_if(r.all.begin(), r.all.end(), [](auto &e) { return e.holder == "h"; });
    const auto gone =
        std::find_if(r.all.begin(), r.all.end(), [](auto &e) { return e.event == "disappeared"; });
    QVERIFY(released != r.all.end());
    QVERIFY(released < gone);
    QCOMPARE(w.watched().size(), 1);
}

void TestSemaphoreWatcher::kindAndAcceptNarrowIt() {
    auto server = std::make_shared<InMemorySemaphoreServer>();
    hold(*server, "yes-1", "h", 60000);
    hold(*server, "no-1", "h", 60000);
    InMemorySemaphoreStore store(server);
    auto options = fast();
    options.accept = [](const core::DiscoveredSemaphore &d) { return d.ref.name.startsWith("yes"); };
    SemaphoreWatcher w(store, options);
    QSignalSpy rounds(&w, &SemaphoreWatcher::roundFinished);
    w.start();
    QVERIFY(rounds.wait());
    QCOMPARE(w.watched().size(), 1);
    QCOMPARE(w.watched().constFirst().name, QStringLiteral("yes-1"));

    auto byKind = fast();
    byKind.kind = core::Kind::Zset; // the in-memory store has only leased semaphores
    SemaphoreWatcher none(store, byKind);
    QSignalSpy discovered(&none, &SemaphoreWatcher::discoveryFinished);
    none.start();
    QVERIFY(discovered.wait());
    QVERIFY(none.watched().isEmpty());
}

void TestSemaphoreWatcher::readsAreBoundedAndNeverRepeatedWhileOutstanding() {
    auto server = std::make_shared<InMemorySemaphoreServer>();
    for (int i = 0; i < 20; ++i)
        hold(*server, QStringLiteral("s%1").arg(i), "h", 60000);
    HeldStore store(server);
    auto options = fast();
    options.maxInFlight = 3;
    SemaphoreWatcher w(store, options);
    QSignalSpy rounds(&w, &SemaphoreWatcher::roundFinished);
    w.start();
    QVERIFY(test::waitFor([&] { return store.inFlight == 3; }));
    QTest::qWait(100); // several ticks pass while the server does not answer
    QCOMPARE(store.inFlight, 3);
    QCOMPARE(store.asked.size(), 3); // no read issued twice while outstanding, no fourth one
    QVERIFY(test::waitFor([&] {
        store.answerAll();
        return rounds.count() > 0;
    }));
    QCOMPARE(store.maxInFlight, 3);
    QCOMPARE(store.asked.size(), 20);
    QCOMPARE(w.latest().size(), 20);
}

void TestSemaphoreWatcher::failedReadIsReportedNotDiffed() {
    auto server = std::make_shared<InMemorySemaphoreServer>();
    hold(*server, "jobs", "h", 60000);
    FailingStore store(server);
    SemaphoreWatcher w(store, fast());
    Recorder r(w);
    QSignalSpy rounds(&w, &SemaphoreWatcher::roundFinished);
    QSignalSpy failed(&w, &SemaphoreWatcher::readFailed);
    w.start();
    QVERIFY(rounds.wait());
    store.fail = true;
    QVERIFY(failed.wait());
    QCOMPARE(failed.constFirst().at(1).toString(), QStringLiteral("connection lost"));
    QVERIFY(r.all.isEmpty());                            // the holder is not "released" by a read that failed
    QCOMPARE(w.latest().constFirst().holders.size(), 1); // the last good read stays
    store.fail = false;
    const int before = rounds.count();
    QVERIFY(test::waitFor([&] { return rounds.count() > before + 1; }));
    QVERIFY(r.all.isEmpty());
}

void TestSemaphoreWatcher::pushingStoreIsFollowedNotPolled() {
    auto server = std::make_shared<InMemorySemaphoreServer>();
    hold(*server, "jobs", "h", 60000);
    PushingStore store(server);
    SemaphoreWatcher w(store, fast());
    Recorder r(w);
    QSignalSpy rounds(&w, &SemaphoreWatcher::roundFinished);
    w.start();
    QVERIFY(rounds.wait());
    QTest::qWait(100); // a window of several ticks in which no second watch and no poll may happen
    QCOMPARE(store.watchCalls, 1);
    QCOMPARE(store.snapshotCalls, 0);
    hold(*server, "jobs", "p", 60000);
    store.push(w.watched().constFirst());
    QVERIFY(test::waitFor([&] { return r.has("acquired", "p"); }));
    w.stop();
    QVERIFY(store.watchers.isEmpty());
}

void TestSemaphoreWatcher::watchesExactlyTheGivenSemaphores() {
    auto server = std::make_shared<InMemorySemaphoreServer>();
    hold(*server, "a", "h", 60000);
    hold(*server, "b", "h", 60000);
    InMemorySemaphoreStore store(server);
    auto options = fast();
    core::SemaphoreRef b;
    b.kind = core::Kind::Leased;
    b.name = QStringLiteral("b");
    options.only = {b};
    SemaphoreWatcher w(store, options);
    Recorder r(w);
    QSignalSpy discovered(&w, &SemaphoreWatcher::discoveryFinished);
    QSignalSpy rounds(&w, &SemaphoreWatcher::roundFinished);
    w.start();
    QVERIFY(rounds.wait());
    QCOMPARE(discovered.count(), 0);
    QCOMPARE(w.latest().size(), 1);
    QCOMPARE(w.latest().constFirst().ref.name, QStringLiteral("b"));
    hold(*server, "a", "x", 60000);
    hold(*server, "b", "y", 60000);
    QVERIFY(test::waitFor([&] { return r.has("acquired", "y"); }));
    QVERIFY(!r.has("acquired", "x"));
}

void TestSemaphoreWatcher::changeHintsAreReadAtOnce() {
    // A keyspace notification names a semaphore: it is read now, not a minute later at the next
    // interval; the hints follow what the rounds found, and a hint for a semaphore not watched
    // reads nothing.
    auto server = std::make_shared<InMemorySemaphoreServer>();
    hold(*server, "a", "h", 600000);
    hold(*server, "b", "h", 600000);
    HeldStore store(server);
    auto options = fast();
    options.intervalMs = 60000;
    options.discoveryIntervalMs = 0;
    SemaphoreWatcher w(store, options);
    Recorder r(w);
    ScriptedHints hints;
    w.setChangeHints(&hints);
    QSignalSpy rounds(&w, &SemaphoreWatcher::roundFinished);
    w.start();
    QVERIFY(test::waitFor([&] {
        store.answerAll();
        return rounds.count() > 0;
    }));
    QTRY_COMPARE(hints.followed.size(), 2);
    QCOMPARE(store.asked.value("a"), 1);

    hold(*server, "a", "new", 600000);
    core::SemaphoreRef a =
        w.latest().constFirst().ref.name == "a" ? w.latest().constFirst().ref : w.latest().constLast().ref;
    Q_EMIT hints.changed(a);
    QCOMPARE(store.asked.value("a"), 2);
    QCOMPARE(store.asked.value("b"), 1);
    store.answerAll();
    QVERIFY(test::waitFor([&] { return r.has("acquired", "new"); }));

    core::SemaphoreRef other = a;
    other.name = QStringLiteral("not-watched");
    Q_EMIT hints.changed(other);
    QVERIFY(store.held.isEmpty());

    // Hints taken away: a change they name is no news to the watcher any more.
    w.setChangeHints(nullptr);
    Q_EMIT hints.changed(a);
    QVERIFY(store.held.isEmpty());
}

void TestSemaphoreWatcher::stuckHolderIsStillStaleAfterARestart() {
    QTemporaryDir dir;
    const QString path = dir.filePath("history.sqlite");
    auto server = std::make_shared<InMemorySemaphoreServer>();
    hold(*server, "pool", "crashed", 3600000);
    SlotsLikeStore store(server);
    auto options = fast();
    options.resolveProfile = [](const core::SemaphoreRef &) {
        core::SemaphoreProfile p;
        p.timeoutMs = 300; // stuck after 300 ms
        return p;
    };
    {
        monitor::HistoryWorker history(path);
        SemaphoreWatcher w(store, options);
        w.setHistory(&history);
        Recorder r(w);
        w.start();
        QVERIFY(test::waitFor([&] { return r.has("stale", "crashed"); }));
        QCOMPARE(w.latest().constFirst().holders.constFirst().state, core::HolderState::Stale);
        core::SemaphoreRef pool;
        pool.kind = core::Kind::Slots;
        pool.name = QStringLiteral("pool");
        // Written on the history's thread: once what was asked before has run, a second connection
        // (as another process) reads it.
        QVERIFY(test::waitForCallback([&](std::function<void()> done) { history.flush(nullptr, done); }));
        const auto recorded = monitor::HistoryStore(path).events(store.endpoint(), pool, 0);
        QCOMPARE(recorded.size(), 1);
        QCOMPARE(recorded.constFirst().event, QStringLiteral("stale"));
    }
    // A new process: the first read already knows how long the holder has been seen.
    monitor::HistoryWorker history(path);
    SemaphoreWatcher w(store, options);
    w.setHistory(&history);
    Recorder r(w);
    QSignalSpy rounds(&w, &SemaphoreWatcher::roundFinished);
    w.start();
    QVERIFY(rounds.wait());
    QCOMPARE(w.latest().constFirst().holders.constFirst().state, core::HolderState::Stale);
    QVERIFY(r.has("stale", "crashed"));
}

void TestSemaphoreWatcher::withoutHistoryTheAgeCountsFromTheStart() {
    auto server = std::make_shared<InMemorySemaphoreServer>();
    hold(*server, "pool", "h", 3600000);
    SlotsLikeStore store(server);
    SemaphoreWatcher w(store, fast());
    QSignalSpy rounds(&w, &SemaphoreWatcher::roundFinished);
    const qint64 before = QDateTime::currentMSecsSinceEpoch();
    w.start();
    QVERIFY(rounds.wait());
    QVERIFY(test::waitFor([&] { return rounds.count() >= 3; }));
    const auto seen = w.latest().constFirst().holders.constFirst().firstSeenMs;
    QVERIFY(seen && *seen >= before && *seen <= before + 2000);
    QCOMPARE(w.latest().constFirst().holders.constFirst().state, core::HolderState::Live);
}

void TestSemaphoreWatcher::aBusyHistoryNeverStopsTheWatchersThread() {
    // Another process holds the history file locked while the watcher records a read: the history
    // waits for it (up to its busy timeout), the watcher's thread must not. A timer on that thread
    // keeps firing while the read's history step is pending; the step completes once the lock goes.
    QTemporaryDir dir;
    const QString path = dir.filePath("history.sqlite");
    auto server = std::make_shared<InMemorySemaphoreServer>();
    hold(*server, "pool", "h", 3600000); // a `slots` holder: each read records when it was seen
    SlotsLikeStore store(server);
    monitor::HistoryWorker history(path, 30000);
    // Open (on the history's thread) before the other connection locks the file.
    QVERIFY(test::waitForCallback([&](std::function<void()> done) { history.flush(nullptr, done); }));
    QVERIFY(history.isAvailable());
    {
        QSqlDatabase other = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("locker"));
        other.setDatabaseName(path);
        QVERIFY(other.open());
        QSqlQuery lock(other);
        QVERIFY(lock.exec(QStringLiteral("BEGIN EXCLUSIVE")));

        SemaphoreWatcher w(store, fast());
        w.setHistory(&history);
        int ticks = 0;
        QTimer timer;
        timer.setInterval(10);
        QObject::connect(&timer, &QTimer::timeout, [&] { ++ticks; });
        int ticksAtFirstRound = -1;
        QObject::connect(&w, &SemaphoreWatcher::roundFinished, [&] {
            if (ticksAtFirstRound < 0)
                ticksAtFirstRound = ticks;
        });
        timer.start();
        w.start();
        // The lock is held until the timer fired 20 times: the first round (which needs the history)
        // cannot finish before. A thread stuck in the history's busy wait would not count a tick.
        QVERIFY(test::waitFor([&] { return ticks >= 20 || ticksAtFirstRound >= 0; }, 60000));
        QVERIFY(lock.exec(QStringLiteral("ROLLBACK")));
        QVERIFY(test::waitFor([&] { return ticksAtFirstRound >= 0; }, 60000));
        QVERIFY2(ticksAtFirstRound >= 20,
                 qPrintable(QStringLiteral("the first round finished after %1 ticks, while the history "
                                           "was locked")
                                .arg(ticksAtFirstRound)));
        // What the history answered is in the read: the holder's age is known.
        QVERIFY(w.latest().constFirst().holders.constFirst().firstSeenMs.has_value());
        w.stop();
        other.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("locker"));
}

void TestSemaphoreWatcher::aNewKeyHintBringsDiscoveryForward() {
    // Discovery every hour; a hint that a key which may be a semaphore was written brings the next
    // one forward. Hints close together make one discovery, and the new semaphore is reported.
    auto server = std::make_shared<InMemorySemaphoreServer>();
    hold(*server, "old", "h", 600000);
    InMemorySemaphoreStore store(server);
    auto options = fast();
    options.intervalMs = 3600000;
    options.discoveryIntervalMs = 3600000;
    SemaphoreWatcher w(store, options);
    Recorder r(w);
    ScriptedHints hints;
    w.setChangeHints(&hints);
    QVERIFY(hints.newKeysWanted); // a discovering watcher asks for them
    QSignalSpy discovered(&w, &SemaphoreWatcher::discoveryFinished);
    w.start();
    QVERIFY(discovered.wait());
    hold(*server, "new", "n", 600000);
    for (int i = 0; i < 5; ++i)
        Q_EMIT hints.mayHaveAppeared(QStringLiteral("new"));
    QVERIFY(test::waitFor([&] { return r.has("appeared", {}, "new"); }));
    QCOMPARE(discovered.count(), 2);
    // A window in which nothing may happen: five hints within the coalescing time made one
    // discovery; a second would come right after the first.
    QTest::qWait(int(3 * SemaphoreWatcher::kCoalesceMs));
    QCOMPARE(discovered.count(), 2);

    // A watcher of a fixed list does not want them.
    options.only = {w.watched().constFirst()};
    SemaphoreWatcher fixed(store, options);
    ScriptedHints fixedHints;
    fixed.setChangeHints(&fixedHints);
    QVERIFY(!fixedHints.newKeysWanted);
}

void TestSemaphoreWatcher::stopEndsEverything() {
    auto server = std::make_shared<InMemorySemaphoreServer>();
    hold(*server, "jobs", "h", 60000);
    HeldStore store(server);
    SemaphoreWatcher w(store, fast());
    Recorder r(w);
    w.start();
    QVERIFY(test::waitFor([&] { return store.inFlight == 1; }));
    w.stop();
    QVERIFY(!w.isRunning());
    drop(*server, "jobs", "h");
    store.answerAll(); // an answer to a read from before stop() is dropped
    QTest::qWait(100); // a window of several ticks in which no read and no event may happen
    QCOMPARE(store.asked.value("jobs"), 1);
    QVERIFY(r.all.isEmpty());
}

SEMSCOPE_TEST_GUILESS_MAIN(TestSemaphoreWatcher)
#include "tst_semaphorewatcher.moc"
