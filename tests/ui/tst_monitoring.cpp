// The app's monitoring against the demo sandbox: the ★ Watch toggle (remembered per connection),
// the background watcher that records events into the History tab, CSV export, a notification for
// a force-release by someone else that opens its semaphore when clicked, and the History screenshot.
#include "DemoFixture.h"
#include "TestMain.h"
#include "model/WatchController.h"
#include "monitor/HistoryStore.h"
#include "monitor/HistoryWorker.h"
#include "monitor/SemaphoreWatcher.h"
#include "ui/DesktopMonitoring.h"
#include "ui/HistoryPanel.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QPushButton>
#include <QSettings>
#include <QSystemTrayIcon>
#include <QTabWidget>
#include <QTableView>
#include <QtTest>

using namespace semscope;

class TestMonitoring : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void watchToggleIsRemembered();
    void historyTabFillsAndExports();
    void foreignForceReleaseNotifiesAndClickOpens();

private:
    core::SemaphoreRef jobs() const {
        core::SemaphoreRef r;
        r.kind = core::Kind::Leased;
        r.name = QStringLiteral("demo:jobs");
        return r;
    }
    QTemporaryDir m_settings;
    std::unique_ptr<test::DemoFixture> m_demo;
    model::ConnectionSession *m_redis = nullptr;
};

void TestMonitoring::initTestCase() {
    // The stars are kept in QSettings: this test's own, never the operator's.
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_settings.path());
    m_demo = std::make_unique<test::DemoFixture>();
    QVERIFY2(m_demo->start(true), "the demo sandbox did not start");
    m_demo->window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_demo->window.get()));
    m_redis = m_demo->open(m_demo->sandbox->redisConnection());
    QVERIFY(m_redis);
}

void TestMonitoring::cleanupTestCase() {
    m_demo.reset();
}

void TestMonitoring::watchToggleIsRemembered() {
    auto *page = m_demo->window->semaphorePage();
    auto *monitoring = m_demo->window->monitoring();
    const QString id = m_demo->sandbox->redisConnection().id;
    QVERIFY(m_demo->window->openSemaphore(id, jobs()));
    QAction *toggle = page->watchAction();
    QVERIFY(toggle->isVisible());
    QVERIFY(!toggle->isChecked());
    QCOMPARE(toggle->text(), QStringLiteral("☆ Watch"));
    toggle->trigger();
    QVERIFY(toggle->isChecked());
    QCOMPARE(toggle->text(), QStringLiteral("★ Watched"));
    QVERIFY(monitoring->watch()->isWatched(id, jobs()));
    QCOMPARE(monitoring->watch()->watchedCount(), 1);
    QVERIFY(monitoring->watch()->watcherOf(id));
    // The tray icon only where a tray exists, and only while something is watched.
    QCOMPARE(monitoring->tray()->isVisible(), QSystemTrayIcon::isSystemTrayAvailable());
    // Another semaphore's page shows its own state; back on jobs the star is still there.
    core::SemaphoreRef other;
    other.kind = core::Kind::Slots;
    other.name = QStringLiteral("demo:printers");
    m_demo->window->openSemaphore(id, other);
    QVERIFY(!page->watchAction()->isChecked());
    QVERIFY(m_demo->window->openSemaphore(id, jobs()));
    QVERIFY(page->watchAction()->isChecked());
    // Remembered for the connection across runs (QSettings).
    QVERIFY(QSettings().value(QStringLiteral("watched/") + id).toStringList().contains("leased:demo:jobs"));
}

void TestMonitoring::historyTabFillsAndExports() {
    auto *page = m_demo->window->semaphorePage();
    QVERIFY(m_demo->window->openSemaphore(m_demo->sandbox->redisConnection().id, jobs()));
    page->lowerTabs()->setCurrentWidget(page->historyPanel());
    auto *history = page->historyPanel();
    // The demo load acquires and releases all the time: the background watcher records it.
    QTRY_VERIFY_WITH_TIMEOUT(history->model()->rowCount() >= 8, 60000);
    bool sawDeparture = false;
    for (int r = 0; r < history->model()->rowCount(); ++r)
        sawDeparture = sawDeparture || history->model()->heldForMs(r).has_value();
    QVERIFY(sawDeparture); // "for how long" is there for holds that started and ended while watched
    QVERIFY(history->exportButton()->isEnabled());
    const QString csv = QDir(m_settings.path()).filePath("jobs-history.csv");
    QString error;
    QVERIFY2(history->exportCsv(csv, &error), qPrintable(error));
    QFile f(csv);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = f.readAll().split('\n');
    QVERIFY(lines.first().startsWith("time,at_ms,event,kind,name,holder"));
    QVERIFY(lines.size() >= history->model()->rowCount() + 1);
    history->view()->selectRow(0);
    const QString dir = QStringLiteral(SEMSCOPE_SCREENSHOT_DIR);
    QVERIFY(QDir().mkpath(dir));
    QVERIFY(m_demo->window->grab().save(dir + QStringLiteral("/history-tab.png")));
}

void TestMonitoring::foreignForceReleaseNotifiesAndClickOpens() {
    auto *page = m_demo->window->semaphorePage();
    auto *monitoring = m_demo->window->monitoring();
    const QString id = m_demo->sandbox->redisConnection().id;
    // A semaphore of this test's own, starred: only this test touches it.
    core::SemaphoreRef victim;
    victim.kind = core::Kind::Leased;
    victim.name = QStringLiteral("mon-test:victim");
    victim.profile.limit = 2;
    core::AcquireResult granted;
    bool done = false;
    core::AcquireRequest request;
    request.holder = QStringLiteral("victim-of-someone-else");
    request.ttlMs = 600000;
    m_redis->controller.acquire(victim, request, core::Cancellation(), this, [&](core::AcquireResult r) {
        granted = r;
        done = true;
    });
    QTRY_VERIFY_WITH_TIMEOUT(done, 30000);
    QCOMPARE(granted.status, core::AcquireResult::Status::Granted);
    monitoring->watch()->setWatched(id, victim, true);
    auto *watcher = monitoring->watch()->watcherOf(id);
    QVERIFY(watcher);
    auto seen = [watcher] {
        for (const core::Snapshot &s : watcher->latest())
            for (const core::Holder &h : s.holders)
                if (h.id == QLatin1String("victim-of-someone-else"))
                    return true;
        return false;
    };
    QTRY_VERIFY_WITH_TIMEOUT(seen(), 30000);
    // Someone else (another semscope process) force-releases it: its mark in the history names it.
    monitor::HistoryStore(monitoring->history()->path())
        .markForceRelease(m_redis->config().endpoint(), victim, "victim-of-someone-else",
                          "semscope-cli (oncall@laptop, pid 77)", QDateTime::currentMSecsSinceEpoch());
    QSignalSpy notified(monitoring, &ui::DesktopMonitoring::notified);
    core::Holder observed;
    observed.id = QStringLiteral("victim-of-someone-else");
    observed.rawId = "victim-of-someone-else";
    observed.token = granted.grant.token;
    bool released = false;
    m_redis->controller.forceRelease(victim, observed, std::nullopt, this, [&](core::ForceReleaseResult r) {
        released = r.status == core::ForceReleaseResult::Status::Released;
    });
    QTRY_VERIFY_WITH_TIMEOUT(released, 30000);
    auto ours = [&notified] {
        for (const QList<QVariant> &args : notified)
            if (args.at(0).value<model::WatchNotification>().title ==
                QStringLiteral("Force-released: victim-of-someone-else"))
                return true;
        return false;
    };
    QTRY_VERIFY_WITH_TIMEOUT(ours(), 30000);
    const auto last = monitoring->lastNotification();
    QVERIFY(last);
    QVERIFY2(last->message.contains("oncall@laptop"), qPrintable(last->message));
    QCOMPARE(last->ref, victim);

    // Clicking the notification opens the semaphore it is about.
    QVERIFY(m_demo->window->openSemaphore(id, jobs()));
    Q_EMIT monitoring->tray()->messageClicked();
    QCOMPARE(page->ref(), victim);
    monitoring->watch()->setWatched(id, victim, false);
}

SEMSCOPE_TEST_MAIN(TestMonitoring)
#include "tst_monitoring.moc"
