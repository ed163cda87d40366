// Invalidate session through the real widgets, on a production-tagged connection to the demo's
// Consul: who and what are shown first, the semaphore name must be typed, and the outcome
// (invalidated, or gone when the session had already ended) is shown and audited.

#include "DemoFixture.h"
#include "TestMain.h"
#include "consul/ConsulSemaphoreStore.h"
#include "model/HolderTableModel.h"
#include "ui/InvalidateSessionDialog.h"

#include <QAction>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>
#include <QtTest>

using namespace semscope;

class TestInvalidateSession : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void productionNeedsTheNameTyped();
    void goneWhenTheSessionAlreadyEnded();
    void notOfferedOnRedis();

private:
    core::Grant acquire(const QString &holder);
    ui::InvalidateSessionDialog *openDialogFor(const QString &sessionId);

    std::unique_ptr<test::DemoFixture> m_demo;
    std::unique_ptr<core::SemaphoreStore> m_other; // "another program" holding slots
    model::ConnectionConfig m_prod;
    model::ConnectionSession *m_consul = nullptr;
    core::SemaphoreRef m_ref;
};

void TestInvalidateSession::initTestCase() {
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
    m_ref.name = QStringLiteral("test/invalidate");
    m_ref.profile.limit = 3;
    QVERIFY(!acquire(QStringLiteral("bystander@node-9")).holder.isEmpty());
    m_consul = m_demo->open(m_prod);
    QVERIFY(m_consul);
    QVERIFY(m_demo->window->openSemaphore(m_prod.id, m_ref));
}

void TestInvalidateSession::cleanupTestCase() {
    m_other.reset();
    m_demo.reset();
}

core::Grant TestInvalidateSession::acquire(const QString &holder) {
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

ui::InvalidateSessionDialog *TestInvalidateSession::openDialogFor(const QString &sessionId) {
    auto *page = m_demo->window->semaphorePage();
    auto *model = page->holderModel();
    if (!QTest::qWaitFor([&] { return model->rowOf(sessionId.toUtf8()) >= 0; }, 30000))
        return nullptr;
    const QModelIndex source = model->index(model->rowOf(sessionId.toUtf8()), 0);
    page->holderView()->selectionModel()->select(page->holderProxy()->mapFromSource(source),
                                                 QItemSelectionModel::ClearAndSelect |
                                                     QItemSelectionModel::Rows);
    if (page->selectedHolders().size() != 1 || !page->invalidateAction()->isVisible() ||
        !page->invalidateAction()->isEnabled())
        return nullptr;
    // Through the same menu entry an operator uses.
    page->invalidateAction()->trigger();
    const auto dialogs = page->findChildren<ui::InvalidateSessionDialog *>();
    return dialogs.isEmpty() ? nullptr : dialogs.last();
}

void TestInvalidateSession::productionNeedsTheNameTyped() {
    const core::Grant victim = acquire(QStringLiteral("victim@node-3"));
    const QString sid = victim.details.value(QStringLiteral("session")).toString();
    QVERIFY(!sid.isEmpty());
    auto *dialog = openDialogFor(sid);
    QVERIFY(dialog);
    QVERIFY(QTest::qWaitForWindowExposed(dialog));

    // Who and what first: the session, its node and TTL, and what invalidating does.
    QStringList texts;
    for (auto *label : dialog->findChildren<QLabel *>())
        texts << label->text();
    const QString all = texts.join(QLatin1Char('\n'));
    QVERIFY2(all.contains(sid), qPrintable(all));
    QVERIFY(all.contains(QLatin1String("victim@node-3")));
    QVERIFY(all.contains(QLatin1String("every other lock")));
    QVERIFY(all.contains(QLatin1String("production")));

    auto *confirm = dialog->findChild<QLineEdit *>(QStringLiteral("confirmName"));
    auto *button = dialog->findChild<QPushButton *>(QStringLiteral("invalidateButton"));
    QVERIFY(confirm && button);
    QVERIFY(!button->isEnabled());
    QTest::keyClicks(confirm, QStringLiteral("test/invalidat"));
    QVERIFY(!button->isEnabled());
    QTest::keyClicks(confirm, QStringLiteral("e"));
    QVERIFY(button->isEnabled());
    QTest::mouseClick(button, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(dialog->isFinished(), 30000);
    QCOMPARE(dialog->outcome(), QStringLiteral("invalidated"));
    QVERIFY(dialog->findChild<QLabel *>(QStringLiteral("result"))
                ->text()
                .startsWith(QLatin1String("Invalidated")));

    // Consul let go of the session: the holder is no longer live (gone, or stale until pruned);
    // the bystander's session is untouched.
    auto *model = m_demo->window->semaphorePage()->holderModel();
    QTRY_VERIFY_WITH_TIMEOUT(model->rowOf(sid.toUtf8()) < 0 ||
                                 model->holderAt(model->rowOf(sid.toUtf8()))->state !=
                                     core::HolderState::Live,
                             30000);
    bool bystanderLive = false;
    for (int r = 0; r < model->rowCount(); ++r) {
        const core::Holder *h = model->holderAt(r);
        bystanderLive = bystanderLive || (model::HolderTableModel::detail(*h, {QStringLiteral("sessionName")})
                                              .contains(QLatin1String("bystander")) &&
                                          h->state == core::HolderState::Live);
    }
    QVERIFY(bystanderLive);
    const auto entry = m_demo->audit->readRecent(1).first();
    QCOMPARE(entry.action, QStringLiteral("invalidate-session"));
    QCOMPARE(entry.result, QStringLiteral("ok"));
    QCOMPARE(entry.environment, QStringLiteral("production"));
    QCOMPARE(entry.observed.value(QStringLiteral("session")).toString(), sid);
    dialog->close();
}

void TestInvalidateSession::goneWhenTheSessionAlreadyEnded() {
    const core::Grant leaver = acquire(QStringLiteral("leaver@node-4"));
    const QString sid = leaver.details.value(QStringLiteral("session")).toString();
    auto *dialog = openDialogFor(sid);
    QVERIFY(dialog);
    // While the operator reads the dialog, the session ends on its own.
    auto *consul = dynamic_cast<consul::ConsulSemaphoreStore *>(m_other.get());
    QVERIFY(consul);
    bool ended = false;
    consul->invalidateSession(sid, [&](core::MaintenanceResult r) { ended = r.ok; });
    QTRY_VERIFY_WITH_TIMEOUT(ended, 30000);
    QTest::keyClicks(dialog->findChild<QLineEdit *>(QStringLiteral("confirmName")), m_ref.name);
    QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("invalidateButton")), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(dialog->isFinished(), 30000);
    QCOMPARE(dialog->outcome(), QStringLiteral("gone"));
    QVERIFY(dialog->findChild<QLabel *>(QStringLiteral("result"))
                ->text()
                .contains(QLatin1String("already ended")));
    dialog->close();
}

void TestInvalidateSession::notOfferedOnRedis() {
    auto *redis = m_demo->open(m_demo->sandbox->redisConnection());
    QVERIFY(redis);
    core::SemaphoreRef jobs{core::Kind::Leased, QStringLiteral("demo:jobs"), {}};
    QVERIFY(m_demo->window->openSemaphore(redis->config().id, jobs));
    auto *page = m_demo->window->semaphorePage();
    QTRY_VERIFY_WITH_TIMEOUT(page->holderProxy()->rowCount() > 0, 30000);
    page->holderView()->selectRow(0);
    QVERIFY(!page->invalidateAction()->isVisible());
    QVERIFY(!page->contextMenuActions().contains(page->invalidateAction()));
    QVERIFY(page->invalidateSelectedSession() == nullptr);
}

SEMSCOPE_TEST_MAIN(TestInvalidateSession)
#include "tst_invalidatesession.moc"
