// Saves PNGs of the main window, a semaphore page per demo kind, the force-release dialog and the
// audit panel under <build>/screenshots, for review and for the README. The main window and the
// pages at a laptop's 1600x1000 and a projector's 1280x720 (issue 31: every control and whole names
// at both).

#include "CardLines.h"
#include "DemoFixture.h"
#include "TestMain.h"
#include "ui/AuditPanel.h"

#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>

#include <QDir>
#include <QDockWidget>
#include <QTableView>
#include <QtTest>

using namespace semscope;

class TestScreenshots : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void mainWindow_data();
    void mainWindow();
    void semaphorePages_data();
    void semaphorePages();
    void forceReleaseDialog();
    void auditPanel();

private:
    bool save(QWidget *w, const QString &name);
    void resizeWindow(QSize size);
    QString m_dir;
    std::unique_ptr<test::DemoFixture> m_demo;
    model::ConnectionSession *m_redis = nullptr;
    model::ConnectionSession *m_consul = nullptr;
};

void TestScreenshots::initTestCase() {
    m_dir = QStringLiteral(SEMSCOPE_SCREENSHOT_DIR);
    QVERIFY(QDir().mkpath(m_dir));
    m_demo = std::make_unique<test::DemoFixture>();
    QVERIFY2(m_demo->start(true), "the demo sandbox did not start");
    m_demo->window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_demo->window.get()));
    m_consul = m_demo->open(m_demo->sandbox->consulConnection());
    QVERIFY(m_consul);
    m_redis = m_demo->open(m_demo->sandbox->redisConnection());
    QVERIFY(m_redis);
}

void TestScreenshots::cleanupTestCase() {
    m_demo.reset();
}

bool TestScreenshots::save(QWidget *w, const QString &name) {
    const QString path = m_dir + QLatin1Char('/') + name + QStringLiteral(".png");
    return w->grab().save(path);
}

void TestScreenshots::resizeWindow(QSize size) {
    m_demo->window->resize(size);
    QTRY_COMPARE(m_demo->window->size(), size);
}

void TestScreenshots::mainWindow_data() {
    QTest::addColumn<QSize>("size");
    QTest::addColumn<QString>("file");
    QTest::newRow("1600x1000") << QSize(1600, 1000) << QStringLiteral("main-window");
    QTest::newRow("1280x720") << QSize(1280, 720) << QStringLiteral("main-window-1280x720");
}

void TestScreenshots::mainWindow() {
    QFETCH(QSize, size);
    QFETCH(QString, file);
    resizeWindow(size);
    auto *page = m_demo->window->semaphorePage();
    core::SemaphoreRef jobs;
    jobs.kind = core::Kind::Leased;
    jobs.name = QStringLiteral("demo:jobs");
    QVERIFY(m_demo->window->openSemaphore(m_demo->sandbox->redisConnection().id, jobs));
    const int before = page->snapshotsApplied();
    QTRY_VERIFY_WITH_TIMEOUT(page->snapshotsApplied() >= before + 4, 30000);
    QTRY_VERIFY_WITH_TIMEOUT(m_redis->list.rowCount() >= 11, 30000);
    page->holderView()->selectRow(0);
    QTRY_VERIFY_WITH_TIMEOUT(page->history()->samples().size() >= 3, 30000); // a line, not a dot
    const auto samples = page->history()->samples().size();
    QTRY_VERIFY_WITH_TIMEOUT(page->history()->samples().size() > samples, 30000); // the card settles
    QVERIFY(save(m_demo->window.get(), file));
}

void TestScreenshots::semaphorePages_data() {
    QTest::addColumn<QSize>("size");
    QTest::addColumn<QString>("suffix"); // page-leased-demo_jobs.png, page-leased-demo_jobs-1280x720.png
    QTest::newRow("1600x1000") << QSize(1600, 1000) << QString();
    QTest::newRow("1280x720") << QSize(1280, 720) << QStringLiteral("-1280x720");
}

void TestScreenshots::semaphorePages() {
    QFETCH(QSize, size);
    QFETCH(QString, suffix);
    resizeWindow(size);
    auto *page = m_demo->window->semaphorePage();
    for (const auto &ref : app::DemoSandbox::seededSemaphores()) {
        const bool consul = core::backendOf(ref.kind) == core::Backend::Consul;
        const QString id =
            consul ? m_demo->sandbox->consulConnection().id : m_demo->sandbox->redisConnection().id;
        QVERIFY2(m_demo->window->openSemaphore(id, ref), qPrintable(ref.name));
        const int before = page->snapshotsApplied();
        QTRY_VERIFY_WITH_TIMEOUT(page->snapshotsApplied() >= before + 1, 30000);
        // A few seconds of history, so the charts show a line (a watched Consul page adds a
        // point a second while nothing changes).
        QTRY_VERIFY_WITH_TIMEOUT(page->history()->samples().size() >= 3, 30000);
        // Select the last holder: the first ones are often the interesting (expired, stale) rows,
        // and a selected row hides its state colour.
        if (page->holderProxy()->rowCount() > 0)
            page->holderView()->selectRow(page->holderProxy()->rowCount() - 1);
        // One more second on the page: the card's wrapped values and the charts settle.
        const auto samples = page->history()->samples().size();
        QTRY_VERIFY_WITH_TIMEOUT(page->history()->samples().size() > samples, 30000);
        // Every line of the holder card whole (cluster-split-layout.png had them drawn over one
        // another at 1280x720): what does not fit in the card scrolls.
        auto *card = m_demo->window->findChild<QWidget *>(QStringLiteral("holderCard"));
        QTRY_VERIFY2(test::cutCardLine(card).isEmpty(),
                     qPrintable(ref.name + QStringLiteral(": ") + test::cutCardLine(card)));
        QString file = QStringLiteral("page-%1-%2%3").arg(core::kindName(ref.kind), ref.name, suffix);
        file.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9_.-]")), QStringLiteral("_"));
        QVERIFY(save(m_demo->window.get(), file));
    }
}

void TestScreenshots::forceReleaseDialog() {
    auto *page = m_demo->window->semaphorePage();
    core::SemaphoreRef printers;
    printers.kind = core::Kind::Slots;
    printers.name = QStringLiteral("demo:printers");
    QVERIFY(m_demo->window->openSemaphore(m_demo->sandbox->redisConnection().id, printers));
    const int before = page->snapshotsApplied();
    QTRY_VERIFY_WITH_TIMEOUT(page->snapshotsApplied() >= before + 1, 30000);
    page->selectHolder(QStringLiteral("crashed-worker-7"));
    QTRY_COMPARE_WITH_TIMEOUT(page->selectedHolders().size(), 1, 10000);
    auto *dialog = page->forceReleaseSelected();
    QVERIFY(dialog);
    QVERIFY(QTest::qWaitForWindowExposed(dialog));
    auto *confirm = dialog->findChild<QLineEdit *>(QStringLiteral("confirmName"));
    QVERIFY(confirm);
    QTest::keyClicks(confirm, QStringLiteral("demo:print"));
    QVERIFY(save(dialog, QStringLiteral("force-release-dialog")));
    QTest::keyClicks(confirm, QStringLiteral("ers"));
    auto *button = dialog->findChild<QPushButton *>(QStringLiteral("forceReleaseButton"));
    QVERIFY(button && button->isEnabled());
    QTest::mouseClick(button, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(dialog->isFinished(), 30000);
    QVERIFY(save(dialog, QStringLiteral("force-release-result")));
    QCOMPARE(dialog->outcomes(), QStringList{QStringLiteral("released")});
    dialog->close();
    // The page re-reads: the audit screenshot shows the slot given back, not the old holder.
    QTRY_VERIFY_WITH_TIMEOUT(page->holderModel()->rowOf("crashed-worker-7") < 0, 30000);
}

void TestScreenshots::auditPanel() {
    m_demo->window->auditDock()->show();
    QTRY_VERIFY_WITH_TIMEOUT(m_demo->window->auditPanel()->isVisible(), 5000);
    QVERIFY(save(m_demo->window.get(), QStringLiteral("audit-panel")));
}

SEMSCOPE_TEST_MAIN(TestScreenshots)
#include "tst_screenshots.moc"
