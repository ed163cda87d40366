// Tools → Consul sessions on the demo's Consul, through the real widgets: every session is listed
// with what it holds, the list filters and sorts, Ctrl+C copies rows, Invalidate asks for the
// session name on production, does it, is audited and the session leaves the list; a read-only
// connection offers no Invalidate and its actions refuse (audited too).

#include "DemoFixture.h"
#include "TestMain.h"
#include "model/ConsulSessionModel.h"
#include "ui/InvalidateSessionDialog.h"
#include "ui/sessions/ConsulSessionsWindow.h"

#include <QAction>
#include <QClipboard>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QTableView>
#include <QtTest>

using namespace semscope;
using model::ConsulSessionModel;

class TestConsulSessions : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void listsEverySessionWithWhatItHolds();
    void filtersSortsAndCopies();
    void invalidateOnProductionNeedsTheNameTyped();
    void readOnlyConnectionRefuses();
    void onlyForConsulConnections();

private:
    core::Grant acquire(const QString &holder);
    ui::ConsulSessionsWindow *openWindow(const QString &connectionId);
    int sourceRowOf(ui::ConsulSessionsWindow *w, const QString &sid);
    void select(ui::ConsulSessionsWindow *w, const QString &sid);
    void saveScreenshot(QWidget *w, const QString &name);

    std::unique_ptr<test::DemoFixture> m_demo;
    std::unique_ptr<core::SemaphoreStore> m_other; // "another program" holding slots
    model::ConnectionConfig m_prod;
    core::SemaphoreRef m_ref;
    QString m_workerSid;
    QString m_bystanderSid;
};

void TestConsulSessions::initTestCase() {
    m_demo = std::make_unique<test::DemoFixture>();
    QVERIFY2(m_demo->start(false), "the demo sandbox did not start");
    m_demo->window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_demo->window.get()));
    m_prod = m_demo->sandbox->consulConnection();
    m_prod.id = QStringLiteral("demo-consul-production");
    m_prod.name = QStringLiteral("consul (production)");
    m_prod.environment = model::Environment::Production;
    m_other = model::storeFactoryFor(m_prod)();
    m_ref.kind = core::Kind::Consul;
    m_ref.name = QStringLiteral("demo/test-sessions");
    m_ref.profile.limit = 3;
    m_workerSid =
        acquire(QStringLiteral("worker-17@node-4")).details.value(QStringLiteral("session")).toString();
    m_bystanderSid =
        acquire(QStringLiteral("bystander@node-9")).details.value(QStringLiteral("session")).toString();
    QVERIFY(!m_workerSid.isEmpty() && !m_bystanderSid.isEmpty());
    QVERIFY(m_demo->open(m_prod));
}

void TestConsulSessions::cleanupTestCase() {
    m_other.reset();
    m_demo.reset();
}

core::Grant TestConsulSessions::acquire(const QString &holder) {
    std::optional<core::AcquireResult> result;
    core::AcquireRequest req;
    req.holder = holder;
    req.ttlMs = 30000;
    m_other->acquire(m_ref, req, {}, [&](core::AcquireResult r) { result = r; });
    if (!QTest::qWaitFor([&] { return result.has_value(); }, 30000) ||
        result->status != core::AcquireResult::Status::Granted) {
        qWarning() << "acquire failed:" << (result ? result->error : QStringLiteral("no answer"));
        return {};
    }
    return result->grant;
}

ui::ConsulSessionsWindow *TestConsulSessions::openWindow(const QString &connectionId) {
    m_demo->window->selectConnection(connectionId);
    // Through the menu entry an operator uses (Tools → Consul sessions…, Ctrl+Shift+S).
    auto *action = m_demo->window->findChild<QAction *>(QStringLiteral("consulSessionsAction"));
    if (!action || action->shortcut() != QKeySequence(QStringLiteral("Ctrl+Shift+S")))
        return nullptr;
    action->trigger();
    for (auto *w : m_demo->window->findChildren<ui::ConsulSessionsWindow *>())
        if (w->connectionId() == connectionId && w->isVisible())
            return w;
    return nullptr;
}

int TestConsulSessions::sourceRowOf(ui::ConsulSessionsWindow *w, const QString &sid) {
    return w->model()->rowOf(sid);
}

void TestConsulSessions::select(ui::ConsulSessionsWindow *w, const QString &sid) {
    const QModelIndex source = w->model()->index(sourceRowOf(w, sid), 0);
    w->view()->setFocus();
    w->view()->selectionModel()->select(w->proxy()->mapFromSource(source),
                                        QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

void TestConsulSessions::saveScreenshot(QWidget *w, const QString &name) {
    const QString dir = QStringLiteral(SEMSCOPE_SCREENSHOT_DIR);
    QVERIFY(QDir().mkpath(dir));
    QVERIFY(w->grab().save(dir + QLatin1Char('/') + name + QStringLiteral(".png")));
}

void TestConsulSessions::listsEverySessionWithWhatItHolds() {
    auto *w = openWindow(m_prod.id);
    QVERIFY(w);
    QVERIFY(QTest::qWaitForWindowExposed(w));
    // The header names the connection, so nobody invalidates in the wrong datacenter.
    QVERIFY(w->findChild<QLabel *>(QStringLiteral("sessionsTitle"))->text().contains(m_prod.name));
    QTRY_VERIFY_WITH_TIMEOUT(sourceRowOf(w, m_workerSid) >= 0 && sourceRowOf(w, m_bystanderSid) >= 0, 30000);
    auto *model = w->model();
    const int row = sourceRowOf(w, m_workerSid);
    QCOMPARE(model->index(row, ConsulSessionModel::NameColumn).data().toString(),
             QStringLiteral("worker-17@node-4"));
    QTRY_COMPARE_WITH_TIMEOUT(
        model->index(sourceRowOf(w, m_workerSid), ConsulSessionModel::HoldsColumn).data().toString(),
        QStringLiteral("consul:demo/test-sessions (live)"), 30000);
    QVERIFY(!model->index(row, ConsulSessionModel::TtlColumn).data().toString().isEmpty());
    QVERIFY(!model->index(row, ConsulSessionModel::NodeColumn).data().toString().isEmpty());
    QVERIFY(w->statusLabel()->text().contains(QLatin1String("session")));
    // Opening it again brings back the same window.
    QCOMPARE(openWindow(m_prod.id), w);
    // The demo's own stale holder's session is gone; the demo's live Consul holders are listed too.
    QVERIFY(model->rowCount() >= 2);
}

void TestConsulSessions::filtersSortsAndCopies() {
    auto *w = openWindow(m_prod.id);
    QVERIFY(w);
    QTRY_VERIFY_WITH_TIMEOUT(sourceRowOf(w, m_workerSid) >= 0, 30000);
    QTest::keyClicks(w->filterEdit(), QStringLiteral("WORKER-17"));
    QCOMPARE(w->proxy()->rowCount(), 1);
    QCOMPARE(w->proxy()->index(0, 0).data(ConsulSessionModel::SessionIdRole).toString(), m_workerSid);
    w->filterEdit()->clear();
    QVERIFY(w->proxy()->rowCount() >= 2);
    // A click on a header sorts by it (here: most holdings last).
    w->view()->sortByColumn(ConsulSessionModel::HoldsColumn, Qt::AscendingOrder);
    const int n = w->proxy()->rowCount();
    QVERIFY(w->proxy()
                ->index(0, ConsulSessionModel::HoldsColumn)
                .data(ConsulSessionModel::SortRole)
                .toLongLong() <= w->proxy()
                                     ->index(n - 1, ConsulSessionModel::HoldsColumn)
                                     .data(ConsulSessionModel::SortRole)
                                     .toLongLong());
    w->view()->sortByColumn(ConsulSessionModel::NameColumn, Qt::AscendingOrder);

    select(w, m_workerSid);
    QApplication::clipboard()->clear();
    QTest::keyClick(w->view(), Qt::Key_C, Qt::ControlModifier);
    const QString copied = QApplication::clipboard()->text();
    QVERIFY2(copied.startsWith(QLatin1String("worker-17@node-4\t")), qPrintable(copied));
    QVERIFY(copied.contains(m_workerSid));
    QVERIFY(copied.contains(QLatin1String("consul:demo/test-sessions (live)")));
}

void TestConsulSessions::invalidateOnProductionNeedsTheNameTyped() {
    auto *w = openWindow(m_prod.id);
    QVERIFY(w);
    QTRY_VERIFY_WITH_TIMEOUT(sourceRowOf(w, m_workerSid) >= 0, 30000);
    QTRY_VERIFY_WITH_TIMEOUT(!w->model()->entryAt(sourceRowOf(w, m_workerSid))->holdings.isEmpty(), 30000);
    w->view()->clearSelection();
    QVERIFY(!w->invalidateButton()->isEnabled()); // nothing selected, nothing to act on
    select(w, m_workerSid);
    QVERIFY(w->invalidateButton()->isEnabled());
    saveScreenshot(w, QStringLiteral("consul-sessions"));
    QTest::mouseClick(w->invalidateButton(), Qt::LeftButton);
    auto *dialog = w->findChild<ui::InvalidateSessionDialog *>();
    QVERIFY(dialog);
    QVERIFY(QTest::qWaitForWindowExposed(dialog));

    QStringList texts;
    for (auto *label : dialog->findChildren<QLabel *>())
        texts << label->text();
    const QString all = texts.join(QLatin1Char('\n'));
    QVERIFY2(all.contains(m_workerSid), qPrintable(all));
    QVERIFY(all.contains(QLatin1String("consul:demo/test-sessions (live)"))); // what it holds
    QVERIFY(all.contains(QLatin1String("every lock or semaphore taken with it")));
    QVERIFY(all.contains(QLatin1String("production")));

    auto *confirm = dialog->findChild<QLineEdit *>(QStringLiteral("confirmName"));
    auto *button = dialog->findChild<QPushButton *>(QStringLiteral("invalidateButton"));
    QVERIFY(confirm && button);
    QVERIFY(!button->isEnabled());
    QTest::keyClicks(confirm, QStringLiteral("worker-17@node-"));
    QVERIFY(!button->isEnabled());
    QTest::keyClicks(confirm, QStringLiteral("4"));
    QVERIFY(button->isEnabled());
    saveScreenshot(dialog, QStringLiteral("consul-session-invalidate"));
    QTest::mouseClick(button, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(dialog->isFinished(), 30000);
    QCOMPARE(dialog->outcome(), QStringLiteral("invalidated"));

    // The session leaves the list (the window re-reads after the answer); the bystander stays.
    QTRY_VERIFY_WITH_TIMEOUT(sourceRowOf(w, m_workerSid) < 0, 30000);
    QVERIFY(sourceRowOf(w, m_bystanderSid) >= 0);
    const auto entry = m_demo->audit->readRecent(1).first();
    QCOMPARE(entry.action, QStringLiteral("invalidate-session"));
    QCOMPARE(entry.result, QStringLiteral("ok"));
    QCOMPARE(entry.environment, QStringLiteral("production"));
    QCOMPARE(entry.semaphore, QStringLiteral("consul:demo/test-sessions"));
    QCOMPARE(entry.observed.value(QStringLiteral("session")).toString(), m_workerSid);
    dialog->close();
}

void TestConsulSessions::readOnlyConnectionRefuses() {
    model::ConnectionConfig ro = m_demo->sandbox->consulConnection();
    ro.id = QStringLiteral("demo-consul-readonly");
    ro.name = QStringLiteral("consul (read-only)");
    ro.readOnly = true;
    auto *s = m_demo->open(ro);
    QVERIFY(s);
    auto *w = openWindow(ro.id);
    QVERIFY(w);
    QTRY_VERIFY_WITH_TIMEOUT(sourceRowOf(w, m_bystanderSid) >= 0, 30000);
    select(w, m_bystanderSid);
    QVERIFY(!w->invalidateButton()->isEnabled());
    QVERIFY(w->invalidateButton()->toolTip().contains(QLatin1String("read-only")));
    QVERIFY(!w->invalidateSelected());
    // The guard is in the actions, not only in the button.
    std::optional<core::MaintenanceResult> result;
    s->actions.invalidateSession(*w->selectedSession(), QString(), w,
                                 [&](core::MaintenanceResult r) { result = r; });
    QTRY_VERIFY_WITH_TIMEOUT(result.has_value(), 10000);
    QVERIFY(!result->ok);
    QVERIFY(result->message.contains(QLatin1String("read-only")));
    const auto entry = m_demo->audit->readRecent(1).first();
    QCOMPARE(entry.action, QStringLiteral("invalidate-session"));
    QCOMPARE(entry.result, QStringLiteral("refused"));
    // Still there.
    w->refresh();
    QSignalSpy refreshed(w, &ui::ConsulSessionsWindow::refreshed);
    QVERIFY(refreshed.wait(30000));
    QVERIFY(sourceRowOf(w, m_bystanderSid) >= 0);
    w->close();
}

void TestConsulSessions::onlyForConsulConnections() {
    // No Consul connection selected: the menu entry says what to do instead of opening anything.
    m_demo->window->connectionList()->setCurrentRow(-1);
    m_demo->window->connectionList()->clearSelection();
    if (m_demo->window->currentSession())
        QSKIP("a connection stays selected");
    QVERIFY(!m_demo->window->openConsulSessions());
}

SEMSCOPE_TEST_MAIN(TestConsulSessions)
#include "tst_consulsessions.moc"
