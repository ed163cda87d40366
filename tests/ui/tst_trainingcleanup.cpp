// Issue 31 item 7: GUI training cleans up and stays off production. On the demo (whose Redis is
// tagged production) a training run goes to a private redis-server by default, asks nothing, and
// that server is gone after the run; when the trainer picks the connection instead, every key the
// run made is deleted after it, also when it is stopped. No `semscope-training:*` key is left on
// the connection either way.
#include "DemoFixture.h"
#include "TestMain.h"
#include "TestWait.h"
#include "localredis/LocalRedisProcess.h"
#include "model/LoadTestRunner.h"
#include "redis/RedisConnection.h"
#include "ui/loadtest/LoadTestWindow.h"
#include "ui/loadtest/TrainingPage.h"

#include <QAbstractButton>
#include <QComboBox>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QtTest>
#include <cerrno>
#include <csignal>

using namespace semscope;
using Target = ui::TrainingPage::Target;

namespace {
constexpr int kRunTimeoutMs = 60000;
} // namespace

class TestTrainingCleanup : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        m_demo = std::make_unique<test::DemoFixture>();
        QVERIFY2(m_demo->start(false), "the demo sandbox did not start");
        m_demo->window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_demo->window.get()));
        QVERIFY(m_demo->open(m_demo->sandbox->redisConnection()));
        QVERIFY(m_demo->sandbox->redisConnection().isProduction());
        m_demo->window->selectConnection(m_demo->sandbox->redisConnection().id);
        m_window = m_demo->window->openLoadTest(true);
        QVERIFY(m_window);
    }
    void cleanupTestCase() { m_demo.reset(); }

    // The window's header said "PRODUCTION · Connection: demo redis" above a run on a private server.
    void headerSaysWhereTheRunsWrite() {
        auto *where = m_window->findChild<QLabel *>(QStringLiteral("loadTestConnection"));
        auto *badge = m_window->findChild<QWidget *>(QStringLiteral("loadTestEnvironment"));
        QVERIFY(where && badge);
        ui::TrainingPage *page = m_window->trainingPage();
        const QString name = m_demo->sandbox->redisConnection().name;
        m_window->tabs()->setCurrentIndex(1); // Training
        page->setScenario(QStringLiteral("incr-lock"));
        page->setTarget(Target::PrivateServer);
        QVERIFY(!badge->isVisibleTo(m_window));
        QVERIFY2(where->text().contains(QLatin1String("private redis-server")), qPrintable(where->text()));
        QVERIFY2(where->text().contains(QLatin1String("nothing is written to ") + name),
                 qPrintable(where->text()));
        page->setTarget(Target::Connection); // the trainer picks the connection: its badge is back
        QVERIFY(badge->isVisibleTo(m_window));
        QVERIFY2(where->text().startsWith(QLatin1String("Connection: ") + name), qPrintable(where->text()));
        page->setScenario(QStringLiteral("failover-lost-lock")); // starts its own servers
        QVERIFY(!badge->isVisibleTo(m_window));
        QVERIFY2(where->text().contains(QLatin1String("private servers")), qPrintable(where->text()));
        m_window->tabs()->setCurrentIndex(0); // a load test runs on the connection
        QVERIFY(badge->isVisibleTo(m_window));
        page->setScenario(QStringLiteral("incr-lock"));
        page->setTarget(Target::PrivateServer);
        m_window->tabs()->setCurrentIndex(1);
    }

    void privateServerByDefaultEvenOnProduction() {
        ui::TrainingPage *page = m_window->trainingPage();
        page->setScenario(QStringLiteral("incr-lock"));
        QCOMPARE(page->target(), Target::PrivateServer); // never the production connection
        QCOMPARE(page->targetBox()->count(), 2);         // the connection is there to pick
        page->durationBox()->setValue(2.0);
        QSignalSpy finished(page->runner(), &model::LoadTestRunner::finished);
        page->start();
        QVERIFY(page->isRunning());
        QVERIFY(!m_window->findChild<QMessageBox *>(QStringLiteral("productionConfirm")));
        QVERIFY(
            test::waitFor([&] { return page->privateServer() && page->privateServer()->isReady(); }, 20000));
        const qint64 pid = page->privateServer()->pid();
        QVERIFY(page->privateServer()->port() != m_demo->sandbox->redisPort());
        QVERIFY(finished.wait(kRunTimeoutMs));
        const auto reports = page->runner()->reports();
        QCOMPARE(reports.size(), 2);
        QVERIFY2(reports[0].ok && reports[1].ok, qPrintable(reports[0].error + reports[1].error));
        QVERIFY(reports[0].safety.overAdmissions > 0); // the lesson still shows
        // The private server is stopped, by its PID, and the connection never saw a key.
        QVERIFY(test::waitFor([&] { return ::kill(pid_t(pid), 0) != 0 && errno == ESRCH; }, 15000));
        QVERIFY(page->privateServer() == nullptr);
        QCOMPARE(trainingKeys(), QStringList());
    }

    // A program that wires no launcher (semscope always does, app/privateredis) says why a run on a
    // private server cannot start, instead of waiting for a server that never comes.
    void withoutALauncherNothingStartsAndItSaysWhy() {
        ui::LoadTestWindow w(model::ConnectionConfig(),
                             m_demo->dir.path() + QStringLiteral("/no-launcher.ini"));
        ui::TrainingPage *page = w.trainingPage();
        page->setScenario(QStringLiteral("incr-lock"));
        QCOMPARE(page->target(), Target::PrivateServer);
        QSignalSpy running(page, &ui::TrainingPage::runningChanged);
        page->start();
        QVERIFY(!page->isRunning());
        QVERIFY(page->privateServer() == nullptr);
        QVERIFY(running.isEmpty());
        QVERIFY2(page->statusLabel()->text().contains(QLatin1String("cannot start a private redis-server")),
                 qPrintable(page->statusLabel()->text()));
        QVERIFY(page->startButton()->isEnabled()); // the trainer can pick a connection and start again
    }

    void connectionRunDeletesItsKeysFinishedOrStopped() {
        ui::TrainingPage *page = m_window->trainingPage();
        page->setTarget(Target::Connection);
        // Finished: slots-crash-leak leaks slots on purpose; they go with the rest.
        page->setScenario(QStringLiteral("slots-crash-leak"));
        page->durationBox()->setValue(3.0);
        QSignalSpy progress(page->runner(), &model::LoadTestRunner::progress);
        QSignalSpy finished(page->runner(), &model::LoadTestRunner::finished);
        QSignalSpy keysLeft(page->runner(), &model::LoadTestRunner::keysLeft);
        page->start();
        QVERIFY(confirmProduction()); // the connection is production: it asks, as before
        QVERIFY(progress.wait(kRunTimeoutMs));
        QVERIFY2(test::waitFor([&] { return !trainingKeys().isEmpty(); }, 10000),
                 "the run writes its scratch semaphores on the connection");
        QVERIFY(finished.wait(kRunTimeoutMs));
        QVERIFY(keysLeft.isEmpty());
        QCOMPARE(trainingKeys(), QStringList());

        // Stopped in the middle of a long run (its lock keys would go with their holders' DELs anyway;
        // slots-crash-leak below, stopped by a quit, keeps keys that only the cleanup removes).
        page->setScenario(QStringLiteral("set-del-lock"));
        page->durationBox()->setValue(600.0);
        progress.clear();
        finished.clear();
        page->start();
        QVERIFY(confirmProduction());
        QVERIFY(progress.wait(kRunTimeoutMs));
        // A SET/DEL lock's key exists only while it is held: one look may fall between two holders.
        QVERIFY(test::waitFor([&] { return !trainingKeys().isEmpty(); }, 10000));
        QTest::mouseClick(page->stopButton(), Qt::LeftButton);
        QVERIFY(finished.wait(30000));
        QVERIFY(keysLeft.isEmpty());
        QCOMPARE(trainingKeys(), QStringList());
        page->setTarget(Target::PrivateServer);
    }

    // Quitting semscope during a run on the connection stops it first (the quit question), and the
    // run's keys are gone before the windows close.
    void quitDuringAConnectionRunLeavesNoKey() {
        auto *window = m_demo->window.get();
        ui::TrainingPage *page = m_window->trainingPage();
        page->setTarget(Target::Connection);
        // Its slots layouts keep their keys when every slot is back (and leak some on purpose): a
        // run stopped in the middle leaves them unless the run removes them.
        page->setScenario(QStringLiteral("slots-crash-leak"));
        page->durationBox()->setValue(600.0);
        QSignalSpy progress(page->runner(), &model::LoadTestRunner::progress);
        page->start();
        QVERIFY(confirmProduction());
        QVERIFY(progress.wait(kRunTimeoutMs));
        QVERIFY(!trainingKeys().isEmpty());
        window->close();
        QVERIFY(test::waitFor([&] { return window->stopRunsQuestion() != nullptr; }));
        QAbstractButton *stop = nullptr;
        for (QAbstractButton *b : window->stopRunsQuestion()->buttons()) {
            if (b->text().remove(QLatin1Char('&')).startsWith(QLatin1String("Stop and quit")))
                stop = b;
        }
        QVERIFY(stop);
        stop->click();
        QVERIFY(test::waitFor([&] { return !window->isVisible(); }, 15000));
        QCOMPARE(trainingKeys(), QStringList());
    }

private:
    bool confirmProduction() {
        QMessageBox *box = nullptr;
        if (!test::waitFor([&] {
                return (box = m_window->findChild<QMessageBox *>(QStringLiteral("productionConfirm")));
            }))
            return false;
        for (QAbstractButton *b : box->buttons()) {
            if (b->text().contains(QLatin1String("production"))) {
                b->click();
                return true;
            }
        }
        return false;
    }

    // Every semscope-training:* key (hash-tagged or not) on the demo's Redis (KEYS is fine on a test server).
    QStringList trainingKeys() {
        QString error;
        auto settings = m_demo->sandbox->redisConnection().redisSettings(&error);
        if (!settings)
            return {QStringLiteral("no settings: ") + error};
        settings->autoReconnect = false;
        redis::RedisConnection connection(*settings);
        connection.open();
        QStringList keys{QStringLiteral("no reply")};
        test::waitForCallback(
            [&](std::function<void()> done) {
                connection.command({"KEYS", "*semscope-training:*"},
                                   [&keys, done](const redis::RedisReply &r) {
                                       keys.clear();
                                       for (const redis::RedisReply &e : r.elements)
                                           keys << QString::fromUtf8(e.str);
                                       if (r.type != redis::RedisReply::Type::Array)
                                           keys << r.describe();
                                       done();
                                   });
            },
            10000);
        return keys;
    }

    std::unique_ptr<test::DemoFixture> m_demo;
    ui::LoadTestWindow *m_window = nullptr;
};

SEMSCOPE_TEST_MAIN(TestTrainingCleanup)
#include "tst_trainingcleanup.moc"
