// Reached from the main window (Tools → Load test… with the selected semaphore filled in), and
// PNGs of the load-test page after a run and of a training scenario side by side, under
// <build>/screenshots, for review and for the README.

#include "DemoFixture.h"
#include "TestMain.h"
#include "TestWait.h"
#include "model/LoadTestRunner.h"
#include "ui/loadtest/LoadTestForm.h"
#include "ui/loadtest/LoadTestPage.h"
#include "ui/loadtest/LoadTestRunView.h"
#include "ui/loadtest/LoadTestWindow.h"
#include "ui/loadtest/TrainingPage.h"

#include <QApplication>
#include <QChartView>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QtTest>

using namespace semscope;

namespace {
constexpr int runTimeoutMs = 120'000;

// The demo's Redis connection is tagged production: a load test asks first. Say yes.
bool confirmProduction(QWidget *window) {
    QMessageBox *box = nullptr;
    if (!QTest::qWaitFor(
            [&] { return (box = window->findChild<QMessageBox *>(QStringLiteral("productionConfirm"))); }))
        return false;
    for (QAbstractButton *b : box->buttons()) {
        if (b->text().contains(QLatin1String("production"))) {
            b->click();
            return true;
        }
    }
    return false;
}
} // namespace

class TestLoadTestScreens : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void toolsMenuOpensThePrefilledPage();
    void loadTestPage();
    void trainingSideBySide();
    void zoomedTrainingKeepsTheHoldersInView();

private:
    bool save(QWidget *w, const QString &name);
    QString m_dir;
    std::unique_ptr<test::DemoFixture> m_demo;
    ui::LoadTestWindow *m_window = nullptr;
};

void TestLoadTestScreens::initTestCase() {
    m_dir = QStringLiteral(SEMSCOPE_SCREENSHOT_DIR);
    QVERIFY(QDir().mkpath(m_dir));
    m_demo = std::make_unique<test::DemoFixture>();
    QVERIFY2(m_demo->start(false), "the demo sandbox did not start");
    m_demo->window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_demo->window.get()));
    QVERIFY(m_demo->open(m_demo->sandbox->redisConnection()));
}

void TestLoadTestScreens::cleanupTestCase() {
    m_demo.reset();
}

bool TestLoadTestScreens::save(QWidget *w, const QString &name) {
    return w->grab().save(m_dir + QLatin1Char('/') + name + QStringLiteral(".png"));
}

void TestLoadTestScreens::toolsMenuOpensThePrefilledPage() {
    core::SemaphoreRef jobs;
    jobs.kind = core::Kind::Leased;
    jobs.name = QStringLiteral("demo:jobs");
    QVERIFY(m_demo->window->openSemaphore(m_demo->sandbox->redisConnection().id, jobs));

    // Tools → Load test…, as the operator finds it.
    QAction *action = nullptr;
    for (QAction *menu : m_demo->window->menuBar()->actions())
        if (menu->text() == QLatin1String("&Tools"))
            for (QAction *a : menu->menu()->actions())
                if (a->text().startsWith(QLatin1String("&Load test")))
                    action = a;
    QVERIFY(action);
    action->trigger();
    m_window = m_demo->window->findChild<ui::LoadTestWindow *>();
    QVERIFY(m_window);
    QVERIFY(QTest::qWaitForWindowExposed(m_window));
    QCOMPARE(m_window->tabs()->currentWidget(), m_window->loadTestPage());
    ui::LoadTestForm *form = m_window->loadTestPage()->form();
    QCOMPARE(form->kindBox()->currentText(), QStringLiteral("leased"));
    QCOMPARE(form->nameEdit()->text(), QStringLiteral("demo:jobs"));
    QVERIFY(m_window->windowTitle().contains(m_demo->sandbox->redisConnection().name));
    // Asking again brings the same window back, now on the training tab.
    QCOMPARE(m_demo->window->openLoadTest(true), m_window);
    QVERIFY(m_window->tabs()->currentWidget()->isAncestorOf(m_window->trainingPage())); // in its scroll area
}

void TestLoadTestScreens::loadTestPage() {
    QVERIFY(m_window);
    m_window->resize(1500, 900);
    m_window->showLoadTest();
    ui::LoadTestPage *page = m_window->loadTestPage();
    ui::LoadTestForm *form = page->form();
    // A semaphore of its own: the demo's own clients keep using demo:jobs.
    form->nameEdit()->setText(QStringLiteral("demo:loadtest"));
    form->limitBox()->setValue(5);
    form->clientsBox()->setValue(30);
    form->connectionsBox()->setValue(4);
    form->ttlBox()->setValue(2000);
    form->crashRateBox()->setValue(10.0);
    form->durationBox()->setValue(6.0);
    QSignalSpy finished(page->runner(), &model::LoadTestRunner::finished);
    page->start();
    QVERIFY(confirmProduction(m_window));
    QVERIFY(page->isRunning());
    QVERIFY(finished.wait(runTimeoutMs));
    QVERIFY2(page->runner()->reports().value(0).ok, qPrintable(page->runner()->reports().value(0).error));
    test::deliverPostedEvents(); // the charts' last points drawn
    QVERIFY(save(m_window, QStringLiteral("loadtest-page")));
}

void TestLoadTestScreens::trainingSideBySide() {
    QVERIFY(m_window);
    m_window->showTraining();
    ui::TrainingPage *page = m_window->trainingPage();
    page->setScenario(QStringLiteral("incr-lock"));
    page->durationBox()->setValue(4.0);
    QSignalSpy finished(page->runner(), &model::LoadTestRunner::finished);
    page->start(); // on a private redis-server: nothing asked on the production connection
    QVERIFY(page->isRunning());
    QVERIFY(finished.wait(runTimeoutMs));
    const auto reports = page->runner()->reports();
    QCOMPARE(reports.size(), 2);
    QVERIFY(reports[0].safety.overAdmissions > 0);
    QCOMPARE(reports[1].safety.overAdmissions, 0LL);
    test::deliverPostedEvents();
    QVERIFY(save(m_window, QStringLiteral("training-side-by-side")));

    // The leak scenario: crashed slots leaked on one side, back on the other.
    page->setScenario(QStringLiteral("slots-crash-leak"));
    page->durationBox()->setValue(5.0);
    page->start();
    QVERIFY(finished.wait(runTimeoutMs));
    const auto leak = page->runner()->reports();
    QVERIFY(leak[0].recovery.crashes > 0);
    QCOMPARE(leak[0].recovery.recovered, 0LL);
    QVERIFY(leak[1].recovery.recovered > 0);
    test::deliverPostedEvents();
    QVERIFY(save(m_window, QStringLiteral("training-slots-leak")));
}

// Issue 31 item 8: on a 1280x720 projector at View > Zoom 130 %, both holders charts are in view
// without scrolling, and the verdict banners and the title grew with the zoom.
void TestLoadTestScreens::zoomedTrainingKeepsTheHoldersInView() {
    QVERIFY(m_window);
    m_window->showTraining();
    ui::TrainingPage *page = m_window->trainingPage();
    QVERIFY(!page->isRunning());
    const QFont original = QApplication::font();
    const qreal bannerBefore = QFontInfo(page->unsafeView()->verdictLabel()->font()).pointSizeF();
    const qreal titleBefore = QFontInfo(page->titleLabel()->font()).pointSizeF();
    QFont zoomed = original;
    zoomed.setPointSizeF(original.pointSizeF() * 1.3);
    QApplication::setFont(zoomed);
    m_window->resize(1264, 672);
    QTRY_COMPARE(m_window->size(), QSize(1264, 672));
    test::deliverPostedEvents();
    const auto bottomOf = [this](QWidget *w) { return w->mapTo(m_window, QPoint(0, w->height())).y(); };
    QStringList problems;
    for (ui::LoadTestRunView *view : {page->unsafeView(), page->atomicView()}) {
        auto *holders = view->findChild<QChartView *>(QStringLiteral("holdersChart"));
        QVERIFY(holders);
        if (bottomOf(holders) > m_window->height())
            problems << QStringLiteral("%1's holders chart ends at %2 px of %3")
                            .arg(view->objectName())
                            .arg(bottomOf(holders))
                            .arg(m_window->height());
    }
    const qreal bannerAfter = QFontInfo(page->unsafeView()->verdictLabel()->font()).pointSizeF();
    const qreal titleAfter = QFontInfo(page->titleLabel()->font()).pointSizeF();
    const bool saved = save(m_window, QStringLiteral("zoomed-training"));
    QApplication::setFont(original);
    m_window->resize(1500, 900);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1String("; "))));
    QVERIFY2(bannerAfter > bannerBefore * 1.2,
             qPrintable(QStringLiteral("%1 -> %2").arg(bannerBefore).arg(bannerAfter)));
    QVERIFY2(titleAfter > titleBefore * 1.2,
             qPrintable(QStringLiteral("%1 -> %2").arg(titleBefore).arg(titleAfter)));
    QVERIFY(saved);
}

SEMSCOPE_TEST_MAIN(TestLoadTestScreens)
#include "tst_loadtestscreens.moc"
