#include "InMemorySemaphoreStore.h"
#include "RedisServer.h"
#include "TestMain.h"
#include "TestWait.h"

#include "model/ConnectionStores.h"
#include "model/WatchController.h"
#include "monitor/HistoryStore.h"
#include "monitor/HistoryWorker.h"
#include "monitor/SemaphoreWatcher.h"
#include "redis/RedisSemaphoreStore.h"

#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace semscope;
using model::ConnectionController;
using model::WatchController;
using model::WatchNotification;
using test::InMemorySemaphoreServer;

namespace {

core::SemaphoreRef jobs() {
    core::SemaphoreRef r;
    r.kind = core::Kind::Leased;
    r.name = QStringLiteral("jobs");
    return r;
}

void hold(InMemorySemaphoreServer &server, const QString &holder, qint64 limit = 3) {
    std::lock_guard lock(server.mutex);
    auto &s = server.semaphores[QStringLiteral("jobs")];
    s.limit = limit;
    s.limitStored = true;
    const qint64 now = server.nowMs();
    s.holders.insert(holder, {now + 3600000, now, ++s.fence});
}

void drop(InMemorySemaphoreServer &server, const QString &holder) {
    std::lock_guard lock(server.mutex);
    server.semaphores[QStringLiteral("jobs")].holders.remove(holder);
}

} // namespace

class TestWatchController : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void starredIsWatchedAndRemembered();
    void fullLongerThanTheThresholdIsNews();
    void forceReleaseBySomeoneElseIsNews();
    void ownForceReleaseIsNoNews();
    void eventsGoToTheHistory();
    void keyspaceNotificationsReadAChangeAtOnce_data();
    void keyspaceNotificationsReadAChangeAtOnce();
    void keyspaceNotificationsTurnedOnLaterAreUsedAtOnce();
    void noHintsWithoutAProvider();

private:
    std::unique_ptr<ConnectionController> open() {
        auto c = std::make_unique<ConnectionController>(
            model::ConnectionConfig::create(core::Backend::Redis),
            [server = m_server] { return std::make_unique<test::InMemorySemaphoreStore>(server); });
        c->open();
        return c;
    }
    // Adds the connection, stars jobs and waits for the first round of the watcher.
    bool watchJobs(WatchController &w, ConnectionController &c) {
        w.addConnection(&c);
        w.setWatched(c.config().id, jobs(), true);
        auto *watcher = w.watcherOf(c.config().id);
        if (!watcher)
            return false;
        QSignalSpy rounds(watcher, &monitor::SemaphoreWatcher::roundFinished);
        return rounds.wait(10000);
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    // Flushes what the watchers asked the history to write (it writes on its own thread).
    bool historyWritten() {
        return test::waitForCallback([this](std::function<void()> done) { m_worker->flush(nullptr, done); });
    }

    // The watchers' history (on its own thread) and a second connection to the same file, as
    // another process would have: the test's marks and its oracle.
    std::unique_ptr<monitor::HistoryWorker> m_worker;
    std::unique_ptr<monitor::HistoryStore> m_history;
    std::shared_ptr<InMemorySemaphoreServer> m_server;
};

void TestWatchController::init() {
    m_dir = std::make_unique<QTemporaryDir>();
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_dir->path());
    QSettings().clear();
    m_history = std::make_unique<monitor::HistoryStore>(m_dir->filePath("history.sqlite"));
    QVERIFY(m_history->isAvailable());
    m_worker = std::make_unique<monitor::HistoryWorker>(m_dir->filePath("history.sqlite"));
    m_server = std::make_shared<InMemorySemaphoreServer>();
}

void TestWatchController::cleanup() {
    m_worker.reset();
    m_history.reset();
    m_dir.reset();
}

void TestWatchController::starredIsWatchedAndRemembered() {
    auto c = open();
    const QString id = c->config().id;
    hold(*m_server, "h");
    {
        WatchController w(m_worker.get(), nullptr);
        QSignalSpy changed(&w, &WatchController::watchedChanged);
        w.addConnection(c.get());
        QVERIFY(!w.watcherOf(id));
        QCOMPARE(w.watchedCount(), 0);
        w.setWatched(id, jobs(), true);
        QCOMPARE(changed.count(), 1);
        QVERIFY(w.isWatched(id, jobs()));
        QCOMPARE(w.watchedCount(), 1);
        QVERIFY(w.watcherOf(id));
        QCOMPARE(w.watcherOf(id)->options().only.size(), 1);
    }
    // Another run: the star is remembered per connection.
    WatchController again(m_worker.get(), nullptr);
    again.addConnection(c.get());
    QVERIFY(again.isWatched(id, jobs()));
    QVERIFY(again.watcherOf(id));
    QVERIFY(!again.isWatched(QStringLiteral("another-connection"), jobs()));
    again.setWatched(id, jobs(), false);
    QVERIFY(!again.watcherOf(id));
    QCOMPARE(again.watchedCount(), 0);
    again.removeConnection(id);
    QVERIFY(!again.watcherOf(id));
}

void TestWatchController::fullLongerThanTheThresholdIsNews() {
    auto c = open();
    hold(*m_server, "only", 1); // limit 1, held: full
    WatchController w(m_worker.get(), nullptr);
    w.setFullAfterMs(300);
    w.setIntervalMs(50);
    QSignalSpy raised(&w, &WatchController::notificationRaised);
    QVERIFY(watchJobs(w, *c));
    QVERIFY(raised.wait(5000));
    const auto n = raised.constFirst().constFirst().value<WatchNotification>();
    QCOMPARE(n.connectionId, c->config().id);
    QCOMPARE(n.ref, jobs());
    QVERIFY2(n.title.startsWith(QStringLiteral("Full")), qPrintable(n.title));
    QVERIFY(w.isReportedFull(c->config().id, jobs()));
    // A window in which nothing may happen: still full for 1.5 s (the check runs every second),
    // said once, not every second.
    QTest::qWait(1500);
    QCOMPARE(raised.count(), 1);
    // Room again (once the check has seen it), then full again: news again.
    drop(*m_server, "only");
    QVERIFY(semscope::test::waitFor([&] { return !w.isReportedFull(c->config().id, jobs()); }, 5000));
    hold(*m_server, "next", 1);
    QVERIFY(raised.wait(5000));
    QCOMPARE(raised.count(), 2);
}

void TestWatchController::forceReleaseBySomeoneElseIsNews() {
    auto c = open();
    hold(*m_server, "victim");
    WatchController w(m_worker.get(), nullptr);
    w.setIntervalMs(50);
    QSignalSpy raised(&w, &WatchController::notificationRaised);
    QVERIFY(watchJobs(w, *c));
    m_history->markForceRelease(c->config().endpoint(), jobs(), "victim", "semscope-cli (ops@desk, pid 1)",
                                QDateTime::currentMSecsSinceEpoch());
    drop(*m_server, "victim");
    QVERIFY(raised.wait(5000));
    const auto n = raised.constFirst().constFirst().value<WatchNotification>();
    QCOMPARE(n.title, QStringLiteral("Force-released: victim"));
    QVERIFY2(n.message.contains(QStringLiteral("semscope-cli (ops@desk, pid 1)")), qPrintable(n.message));
}

void TestWatchController::ownForceReleaseIsNoNews() {
    auto c = open();
    hold(*m_server, "mine");
    hold(*m_server, "other");
    WatchController w(m_worker.get(), nullptr);
    w.setIntervalMs(50);
    QSignalSpy raised(&w, &WatchController::notificationRaised);
    QSignalSpy recorded(&w, &WatchController::eventsRecorded);
    QVERIFY(watchJobs(w, *c));
    m_history->markForceRelease(c->config().endpoint(), jobs(), "mine", WatchController::ownOrigin(),
                                QDateTime::currentMSecsSinceEpoch());
    drop(*m_server, "mine");
    QVERIFY(recorded.wait(5000));
    drop(*m_server, "other"); // a plain release is no news either
    QVERIFY(recorded.wait(5000));
    // A window in which nothing may happen: a notification would be raised with the events just
    // recorded; 200 ms more lets any late one show.
    QTest::qWait(200);
    QCOMPARE(raised.count(), 0);
    QVERIFY(historyWritten());
    const auto events = m_history->events(c->config().endpoint(), jobs(), 0);
    QVERIFY(std::any_of(events.begin(), events.end(),
                        [](const auto &e) { return e.event == "force-released" && e.holder == "mine"; }));
}

void TestWatchController::eventsGoToTheHistory() {
    auto c = open();
    WatchController w(m_worker.get(), nullptr);
    w.setIntervalMs(50);
    hold(*m_server, "first");
    QVERIFY(watchJobs(w, *c));
    QSignalSpy recorded(&w, &WatchController::eventsRecorded);
    hold(*m_server, "second");
    QVERIFY(recorded.wait(5000));
    QCOMPARE(recorded.constFirst().at(0).toString(), c->config().id);
    QVERIFY(historyWritten());
    const auto events = m_history->events(c->config().endpoint(), jobs(), 0);
    QVERIFY(!events.isEmpty());
    QCOMPARE(events.constFirst().event, QStringLiteral("acquired"));
    QCOMPARE(events.constFirst().holder, QStringLiteral("second"));
}

void TestWatchController::keyspaceNotificationsReadAChangeAtOnce_data() {
    QTest::addColumn<QString>("published"); // the server's notify-keyspace-events
    QTest::addColumn<bool>("atOnce");
    QTest::newRow("published (KEA)") << QStringLiteral("KEA") << true;
    QTest::newRow("not published") << QString() << false;
}

void TestWatchController::keyspaceNotificationsReadAChangeAtOnce() {
    // A real Redis, and a watch interval of a minute: only a keyspace notification can bring a
    // change within seconds. Where the server publishes none, the note says the interval instead.
    QFETCH(QString, published);
    QFETCH(bool, atOnce);
    test::RedisServer server;
    test::RedisServer::Options options;
    options.extraArgs = {QStringLiteral("--notify-keyspace-events"), published};
    QVERIFY2(server.start(options), qPrintable(server.errorString()));
    redis::RedisSemaphoreStore writer(server.settings());
    const auto acquire = [&writer](const QString &holder) {
        core::AcquireRequest request;
        request.holder = holder;
        request.ttlMs = 3600000;
        core::SemaphoreRef ref = jobs();
        ref.profile.limit = 3;
        std::optional<core::AcquireResult> result;
        writer.acquire(ref, request, {}, [&result](core::AcquireResult r) { result = std::move(r); });
        return test::waitFor([&] { return result.has_value(); }) &&
               result->status == core::AcquireResult::Status::Granted;
    };
    QVERIFY(acquire(QStringLiteral("first")));

    model::ConnectionConfig config = model::ConnectionConfig::create(core::Backend::Redis);
    config.url = server.url();
    ConnectionController controller(config, model::storeFactoryFor(config));
    controller.open();
    WatchController w(m_worker.get(), nullptr);
    w.setIntervalMs(60000);
    w.setChangeHintsProvider(model::changeHintsFor);
    QVERIFY(watchJobs(w, controller));
    QVERIFY(test::waitFor([&] { return !w.changeNote(config.id).isEmpty(); }));
    const QString note = w.changeNote(config.id);
    QVERIFY2(note.contains(atOnce
                               ? QStringLiteral("Instant: keyspace notifications")
                               : QStringLiteral("Every 1 m 00 s: the server publishes no keyspace events")),
             qPrintable(note));

    if (atOnce) {
        // Subscribed to the semaphore's keys once a round has told the notifications what they are.
        QVERIFY(test::waitFor([&] {
            const redis::RedisReply r = server.command({"PUBSUB", "NUMSUB", "__keyspace@0__:{jobs}:holders"});
            return r.elements.size() == 2 && r.elements.at(1).integer == 1;
        }));
        QSignalSpy recorded(&w, &WatchController::eventsRecorded);
        QVERIFY(acquire(QStringLiteral("second")));
        QVERIFY2(!recorded.isEmpty() || recorded.wait(10000),
                 "the new holder was not read before the next interval");
    }
}

// Notifications turned on after the app connected (CONFIG SET, issue 31): the channels were followed
// all along, so the first event switches the connection to instant reads, without a reconnect, and
// the note the History tab shows says so.
void TestWatchController::keyspaceNotificationsTurnedOnLaterAreUsedAtOnce() {
    test::RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    redis::RedisSemaphoreStore writer(server.settings());
    const auto acquire = [&writer](const QString &holder) {
        core::AcquireRequest request;
        request.holder = holder;
        request.ttlMs = 3600000;
        core::SemaphoreRef ref = jobs();
        ref.profile.limit = 3;
        std::optional<core::AcquireResult> result;
        writer.acquire(ref, request, {}, [&result](core::AcquireResult r) { result = std::move(r); });
        return test::waitFor([&] { return result.has_value(); }) &&
               result->status == core::AcquireResult::Status::Granted;
    };
    QVERIFY(acquire(QStringLiteral("first")));

    model::ConnectionConfig config = model::ConnectionConfig::create(core::Backend::Redis);
    config.url = server.url();
    ConnectionController controller(config, model::storeFactoryFor(config));
    controller.open();
    WatchController w(m_worker.get(), nullptr);
    w.setIntervalMs(60000); // only a notification can bring a change within seconds
    w.setChangeHintsProvider(model::changeHintsFor);
    QVERIFY(watchJobs(w, controller));
    QVERIFY(test::waitFor([&] { return !w.changeNote(config.id).isEmpty(); }));
    QVERIFY2(w.changeNote(config.id).startsWith(QStringLiteral("Every 1 m 00 s")),
             qPrintable(w.changeNote(config.id)));
    // Subscribed although the server publishes nothing yet.
    QVERIFY(test::waitFor([&] {
        const redis::RedisReply r = server.command({"PUBSUB", "NUMSUB", "__keyspace@0__:{jobs}:holders"});
        return r.elements.size() == 2 && r.elements.at(1).integer == 1;
    }));

    const redis::RedisReply set = server.command({"CONFIG", "SET", "notify-keyspace-events", "KEA"});
    QVERIFY2(!set.isError(), set.str.constData());
    QSignalSpy recorded(&w, &WatchController::eventsRecorded);
    QVERIFY(acquire(QStringLiteral("second")));
    QVERIFY2(!recorded.isEmpty() || recorded.wait(10000),
             "the new holder was not read before the next interval");
    QVERIFY(test::waitFor([&] { return w.changeNote(config.id).startsWith(QStringLiteral("Instant:")); }));
}

// A connection whose store is not the server its settings name (an in-memory store here, as in
// the model and GUI tests) must not reach out to that server: it once probed whatever Redis
// listened at the connection's address for keyspace notifications.
void TestWatchController::noHintsWithoutAProvider() {
    test::RedisServer server;
    test::RedisServer::Options options;
    options.extraArgs = {QStringLiteral("--notify-keyspace-events"), QStringLiteral("KEA")};
    QVERIFY2(server.start(options), qPrintable(server.errorString()));
    hold(*m_server, QStringLiteral("first"));

    model::ConnectionConfig config = model::ConnectionConfig::create(core::Backend::Redis);
    config.url = server.url();
    ConnectionController controller(
        config, [server = m_server] { return std::make_unique<test::InMemorySemaphoreStore>(server); });
    controller.open();
    WatchController w(m_worker.get(), nullptr);
    w.setIntervalMs(20);
    QVERIFY(watchJobs(w, controller));
    // A probe answers within a round trip; several rounds give it ample time to show.
    QSignalSpy rounds(w.watcherOf(config.id), &monitor::SemaphoreWatcher::roundFinished);
    QVERIFY(test::waitFor([&] { return rounds.count() >= 5; }));

    QCOMPARE(w.changeNote(config.id), QString());
    const redis::RedisReply stats = server.command({"INFO", "commandstats"});
    QVERIFY2(stats.str.contains("cmdstat_ping"), stats.str.constData());
    QVERIFY2(!stats.str.contains("cmdstat_config"), stats.str.constData());
    QVERIFY2(!stats.str.contains("cmdstat_subscribe"), stats.str.constData());
}

static int testMain(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("semscope-test"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_watchcontroller"));
    TestWatchController t;
    return QTest::qExec(&t, argc, argv);
}
SEMSCOPE_TEST_CUSTOM_MAIN(testMain)
#include "tst_watchcontroller.moc"
