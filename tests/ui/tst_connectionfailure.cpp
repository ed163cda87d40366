// Issue 31 item 4: a connection that fails is explained where the eye is. A wrong saved password
// and a closed port each show their whole reason in the main area (word-wrapped, not cut off in the
// status bar) with Edit connection… and Retry now; the Edit dialog repeats the reason; the holder
// table of the semaphore shown before keeps no column headers under the failure; a refused port
// says "refused".
#include "DemoFixture.h"
#include "TestMain.h"
#include "TestWait.h"
#include "ui/ConnectionDialog.h"
#include "ui/ConnectionFailurePanel.h"

#include <QDir>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QTcpServer>
#include <QtTest>

using namespace semscope;
using State = model::ConnectionController::State;

class TestConnectionFailure : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        m_demo = std::make_unique<test::DemoFixture>();
        QVERIFY2(m_demo->start(false), "the demo sandbox did not start");
        m_demo->window->resize(1280, 720);
        m_demo->window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_demo->window.get()));
        QVERIFY(m_demo->open(m_demo->sandbox->redisConnection()));
    }
    void cleanupTestCase() { m_demo.reset(); }

    void wrongPasswordIsExplainedInTheMainArea() {
        auto *window = m_demo->window.get();
        auto *page = window->semaphorePage();
        // A semaphore of the working connection first: its holder table has headers.
        const core::SemaphoreRef jobs{core::Kind::Leased, QStringLiteral("demo:jobs"), {}};
        QVERIFY(window->openSemaphore(m_demo->sandbox->redisConnection().id, jobs));
        QVERIFY(test::waitFor([&] { return page->holderView()->model()->rowCount() > 0; }, 30000));
        QVERIFY(page->holderView()->horizontalHeader()->isVisibleTo(window));

        model::ConnectionConfig wrong = m_demo->sandbox->redisConnection();
        wrong.id = QStringLiteral("demo-redis-wrong-password");
        wrong.name = QStringLiteral("demo redis (wrong password)");
        wrong.hasSecret = true;
        m_demo->secrets->write(wrong.id, QStringLiteral("not-the-password"));
        m_demo->registry->upsert(wrong);
        window->openConnection(wrong.id);
        // The saved password is read first (asynchronously), then the session starts.
        QVERIFY(test::waitFor([&] { return window->session(wrong.id) != nullptr; }));
        auto *s = window->session(wrong.id);
        QVERIFY(test::waitFor([&] { return s->controller.needsCredentials(); }, 15000));
        QSignalSpy discovered(s, &model::ConnectionSession::discoveryFinished);
        if (s->isDiscovering())
            QVERIFY(discovered.wait(15000)); // its scan fails too; the screenshot shows the state after
        window->selectConnection(wrong.id);

        ui::ConnectionFailurePanel *panel = window->connectionFailurePanel();
        QVERIFY(panel);
        QVERIFY(panel->isVisibleTo(window));
        // Whole: the panel carries the connection's own text, wrapped, nothing cut.
        QCOMPARE(panel->failureText(), s->controller.stateText());
        QVERIFY2(panel->failureText().contains(QLatin1String("refused the credentials")),
                 qPrintable(panel->failureText()));
        auto *text = panel->findChild<QLabel *>(QStringLiteral("connectionFailureText"));
        QVERIFY(text && text->wordWrap());
        QVERIFY(text->isVisibleTo(window));
        QVERIFY2(text->width() <= window->width(), qPrintable(QString::number(text->width())));
        QVERIFY(panel->editButton()->isVisibleTo(window));
        QVERIFY(panel->retryButton()->isVisibleTo(window));
        // Nothing of the connection shown before: no "Select a semaphore" page, no holder headers.
        QVERIFY(!page->isVisibleTo(window) || !page->holderView()->horizontalHeader()->isVisibleTo(window));
        QVERIFY(!page->holderView()->horizontalHeader()->isVisibleTo(page));

        const QString dir = QStringLiteral(SEMSCOPE_SCREENSHOT_DIR);
        QVERIFY(QDir().mkpath(dir));
        QVERIFY(window->grab().save(dir + QStringLiteral("/connection-wrong-password.png")));

        // Edit connection… opens the dialog with the reason repeated at its top.
        QTest::mouseClick(panel->editButton(), Qt::LeftButton);
        ui::ConnectionDialog *dialog = nullptr;
        QVERIFY(
            test::waitFor([&] { return (dialog = window->findChild<ui::ConnectionDialog *>()) != nullptr; }));
        QVERIFY2(dialog->failure().contains(s->controller.stateText()), qPrintable(dialog->failure()));
        auto *repeated = dialog->findChild<QLabel *>(QStringLiteral("connectionFailure"));
        QVERIFY(repeated && repeated->isVisibleTo(dialog) && repeated->wordWrap());
        dialog->reject();

        // A connection that works shows no failure.
        window->selectConnection(m_demo->sandbox->redisConnection().id);
        QVERIFY(!panel->isVisibleTo(window));
        QVERIFY(page->isVisibleTo(window));
        window->closeConnection(wrong.id);
        m_demo->registry->remove(wrong.id);
    }

    void closedPortSaysRefusedAndRetries() {
        auto *window = m_demo->window.get();
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost));
        model::ConnectionConfig dead = model::ConnectionConfig::create(core::Backend::Redis);
        dead.id = QStringLiteral("closed-port");
        dead.name = QStringLiteral("closed port");
        dead.port = probe.serverPort();
        probe.close(); // nothing listens there now: every connect is refused
        m_demo->registry->upsert(dead);
        window->openConnection(dead.id);
        auto *s = window->session(dead.id);
        QVERIFY(s);
        QVERIFY(test::waitFor([&] { return s->controller.state() == State::Failed; }, 20000));
        window->selectConnection(dead.id);
        ui::ConnectionFailurePanel *panel = window->connectionFailurePanel();
        QVERIFY(panel->isVisibleTo(window));
        QVERIFY2(panel->failureText().contains(QLatin1String("refused the connection")),
                 qPrintable(panel->failureText()));
        QVERIFY(!window->semaphorePage()->isVisibleTo(window));

        // Retry now: a new attempt at once (a new session), still explained while it fails.
        QTest::mouseClick(panel->retryButton(), Qt::LeftButton);
        auto *again = window->session(dead.id);
        QVERIFY(again);
        QVERIFY(test::waitFor([&] { return again->controller.state() == State::Failed; }, 20000));
        QVERIFY(panel->isVisibleTo(window));
        QVERIFY2(panel->failureText().contains(QLatin1String("refused")), qPrintable(panel->failureText()));
        window->closeConnection(dead.id);
        m_demo->registry->remove(dead.id);
    }

private:
    std::unique_ptr<test::DemoFixture> m_demo;
};

SEMSCOPE_TEST_MAIN(TestConnectionFailure)
#include "tst_connectionfailure.moc"
