// Tools → Training, scenario failover-lost-lock (issue 18 item 4): it runs without any connection
// (here the window's connection is a Consul one that is never reached), on a thread of its own, with
// the CLI's very code: its own master, replica and sentinel per side. The naive side over-admits and
// its fencing token goes back, the replica-acknowledged side does neither; Stop and closing the window
// end the run, and no process it started is left behind.

#include "TestMain.h"
#include "app/privateredis/LocalPrivateRedisServer.h"
#include "model/FailoverTrainingRunner.h"
#include "training/FailoverLostLock.h"
#include "training/TrainingScenarios.h"
#include "ui/loadtest/FailoverVerdictView.h"
#include "ui/loadtest/LoadTestWindow.h"
#include "ui/loadtest/TrainingPage.h"

#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <cerrno>
#include <signal.h>

using namespace semscope;
using Report = redis::FailoverLostLock::Report;

namespace {
constexpr int kRunTimeoutMs = 120'000; // two private groups and two failovers on a busy 2-core machine

// The processes a run started that still exist (a PID that is gone, or reaped, is not).
QList<qint64> alive(const Report &report) {
    QList<qint64> left;
    for (const auto *side : {&report.naive, &report.safe}) {
        for (qint64 pid : side->pids) {
            if (::kill(pid_t(pid), 0) == 0 || errno != ESRCH)
                left << pid;
        }
    }
    return left;
}

QString pidList(const QList<qint64> &pids) {
    QStringList out;
    for (qint64 p : pids)
        out << QString::number(p);
    return out.join(QLatin1Char(' '));
}
} // namespace

class TestFailoverTraining : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    std::unique_ptr<ui::LoadTestWindow> window() {
        // A Consul connection nobody serves: the scenario must not need it.
        model::ConnectionConfig c = model::ConnectionConfig::create(core::Backend::Consul);
        c.name = QStringLiteral("consul (never reached)");
        c.address = QStringLiteral("http://127.0.0.1:1");
        auto w = std::make_unique<ui::LoadTestWindow>(c, m_dir.filePath(QStringLiteral("settings.ini")));
        w->setPrivateRedisLauncher(app::localPrivateRedisLauncher()); // as the main window wires it
        w->resize(1280, 720);
        w->show();
        if (!QTest::qWaitForWindowExposed(w.get()))
            return nullptr;
        w->showTraining();
        w->trainingPage()->setScenario(redis::FailoverLostLock::scenarioName());
        return w;
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void opensWithNoConnectionAtAll() {
        // Tools → Training with no connection selected: the window opens on this scenario, ready to
        // start; the load test tab says it needs a connection. The other scenarios run on a private
        // redis-server of their own (issue 31 item 7), so they can start too.
        ui::LoadTestWindow w(model::ConnectionConfig(), m_dir.filePath(QStringLiteral("settings.ini")));
        w.setPrivateRedisLauncher(app::localPrivateRedisLauncher());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        ui::TrainingPage *page = w.trainingPage();
        QVERIFY(page->isVisibleTo(&w));
        QVERIFY(!page->hasConnection());
        QVERIFY(page->isFailoverScenario());
        QVERIFY(page->startButton()->isEnabled());
        auto *tabs = w.findChild<QTabWidget *>(QStringLiteral("loadTestTabs"));
        QVERIFY(tabs);
        QVERIFY(!tabs->isTabEnabled(0)); // the load test tab
        w.showLoadTest();                // stays on training
        QVERIFY(page->isVisibleTo(&w));
        const QString other = redis::trainingScenarios().first().name;
        page->setScenario(other);
        QVERIFY(page->startButton()->isEnabled());
        QCOMPARE(page->target(), ui::TrainingPage::Target::PrivateServer);
        QCOMPARE(page->targetBox()->count(), 1); // no connection to offer
        page->setScenario(redis::FailoverLostLock::scenarioName());
        QVERIFY(page->startButton()->isEnabled());
    }

    void runsWithoutAConnectionAndShowsBothVerdicts() {
        auto w = window();
        QVERIFY(w);
        ui::TrainingPage *page = w->trainingPage();
        QVERIFY(page->isFailoverScenario());
        QCOMPARE(page->titleLabel()->text(), redis::FailoverLostLock::title());
        QVERIFY(page->explanationLabel()->text().contains(QLatin1String("fencing tokens")));
        QVERIFY(page->startButton()->isEnabled()); // although the connection is Consul
        QVERIFY(!page->durationBox()->isEnabled());
        QVERIFY(page->failoverView()->isVisible());

        QSignalSpy steps(page->failoverRunner(), &model::FailoverTrainingRunner::step);
        QSignalSpy finished(page->failoverRunner(), &model::FailoverTrainingRunner::finished);
        QTest::mouseClick(page->startButton(), Qt::LeftButton);
        QVERIFY(page->isRunning());
        QVERIFY(page->stopButton()->isEnabled());
        QVERIFY(!page->scenarioBox()->isEnabled());
        // Off the GUI thread: steps arrive while the window keeps answering.
        QVERIFY(steps.wait(kRunTimeoutMs));
        QVERIFY(finished.wait(kRunTimeoutMs));
        const Report report = page->failoverRunner()->report();
        QVERIFY2(report.ok(), qPrintable(report.naive.error + QLatin1Char('/') + report.safe.error));
        QVERIFY(report.naive.overAdmissions > 0);
        QVERIFY(report.naive.tokenViolations > 0);
        QCOMPARE(report.safe.overAdmissions, 0);
        QCOMPARE(report.safe.tokenViolations, 0);
        QVERIFY(report.safe.refusedGrants > 0);
        QVERIFY(report.showsTheLesson());

        // Both sides side by side, in words.
        const auto &naive = page->failoverView()->naive();
        const auto &safe = page->failoverView()->safe();
        QCOMPARE(naive.overAdmissions->text(), QString::number(report.naive.overAdmissions));
        QCOMPARE(safe.overAdmissions->text(), QStringLiteral("0"));
        QVERIFY2(naive.verdict->text().startsWith(QLatin1String("UNSAFE")),
                 qPrintable(naive.verdict->text()));
        QVERIFY2(safe.verdict->text().startsWith(QLatin1String("SAFE")), qPrintable(safe.verdict->text()));
        QVERIFY2(naive.tokens->text().contains(QLatin1String("not above")), qPrintable(naive.tokens->text()));
        QCOMPARE(safe.refused->text(), QString::number(report.safe.refusedGrants));
        QVERIFY(safe.latency->text().contains(QLatin1String("ms")));
        QVERIFY(naive.steps->text().contains(QLatin1String("master killed")));
        QVERIFY(!page->isRunning());
        QVERIFY(page->startButton()->isEnabled());

        // Every process it started is gone.
        QCOMPARE(report.naive.pids.size() + report.safe.pids.size(), 6);
        QVERIFY2(alive(report).isEmpty(), qPrintable(pidList(alive(report))));
#ifdef SEMSCOPE_SCREENSHOT_DIR
        QDir().mkpath(QStringLiteral(SEMSCOPE_SCREENSHOT_DIR));
        QCoreApplication::sendPostedEvents(); // the verdicts' new texts laid out before the picture
        w->grab().save(QStringLiteral(SEMSCOPE_SCREENSHOT_DIR "/training-failover-lost-lock.png"));
#endif
    }

    void stopEndsTheRunAndItsProcesses() {
        auto w = window();
        QVERIFY(w);
        ui::TrainingPage *page = w->trainingPage();
        QSignalSpy steps(page->failoverRunner(), &model::FailoverTrainingRunner::step);
        QSignalSpy finished(page->failoverRunner(), &model::FailoverTrainingRunner::finished);
        QTest::mouseClick(page->startButton(), Qt::LeftButton);
        QVERIFY(steps.wait(kRunTimeoutMs)); // its first group is up
        QTest::mouseClick(page->stopButton(), Qt::LeftButton);
        QVERIFY(finished.wait(kRunTimeoutMs));
        const Report report = page->failoverRunner()->report();
        QVERIFY(report.cancelled);
        QVERIFY(report.naive.pids.size() >= 3);
        QVERIFY2(alive(report).isEmpty(), qPrintable(pidList(alive(report))));
        QVERIFY2(page->statusLabel()->text().startsWith(QLatin1String("Stopped")),
                 qPrintable(page->statusLabel()->text()));
        QVERIFY(page->failoverView()->naive().verdict->text().contains(QLatin1String("Cancelled")));
        QVERIFY(page->startButton()->isEnabled());
    }

    void closingTheWindowStopsTheRun() {
        auto w = window();
        QVERIFY(w);
        ui::TrainingPage *page = w->trainingPage();
        QSignalSpy steps(page->failoverRunner(), &model::FailoverTrainingRunner::step);
        QSignalSpy finished(page->failoverRunner(), &model::FailoverTrainingRunner::finished);
        QSignalSpy ended(w.get(), &ui::LoadTestWindow::runsEnded);
        QTest::mouseClick(page->startButton(), Qt::LeftButton);
        QVERIFY(steps.wait(kRunTimeoutMs));
        w->close(); // never waits: asks the run to end and closes once it has
        QVERIFY(ended.wait(kRunTimeoutMs));
        QCOMPARE(finished.size(), 1);
        QTRY_VERIFY(!w->isVisible());
        const Report report = page->failoverRunner()->report();
        QVERIFY(report.cancelled);
        QVERIFY2(alive(report).isEmpty(), qPrintable(pidList(alive(report))));
    }
};

SEMSCOPE_TEST_MAIN(TestFailoverTraining)
#include "tst_failovertraining.moc"
