// Replica-acknowledged acquire from the GUI (issue 18 item 3): the acquire dialog offers "Wait for N
// replicas" for Redis `leased` and `lock` only, with N up to the replicas the master has; a grant
// acknowledged by the replica closes the dialog, one the stopped replica (SIGSTOP by PID) never saw
// is released and the dialog says so in place; both are audited, and a refresh of a grant taken
// with N waits again. Real master and replica (SentinelGroup without sentinels).

#include "SentinelGroup.h"
#include "TestMain.h"
#include "TestWait.h"
#include "core/audit/AuditLog.h"
#include "model/ConnectionStores.h"
#include "model/OperatorActions.h"
#include "ui/AcquireDialog.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

using namespace semscope;
using core::Kind;

Q_DECLARE_METATYPE(semscope::core::Kind)
Q_DECLARE_METATYPE(semscope::core::Backend)

class TestAcquireReplicas : public QObject {
    Q_OBJECT

    test::SentinelGroup m_group; // master and one replica; WAIT needs no sentinel
    QTemporaryDir m_dir;
    std::unique_ptr<core::AuditLog> m_audit;
    std::unique_ptr<model::ConnectionController> m_controller;
    std::unique_ptr<model::OperatorActions> m_actions;

    core::SemaphoreRef ref(Kind kind, const QString &name) const {
        core::SemaphoreRef r;
        r.kind = kind;
        r.name = name;
        r.profile.limit = 2;
        return r;
    }
    // A dialog attached to the master's connection, its replica count read.
    std::unique_ptr<ui::AcquireDialog> dialogFor(const core::SemaphoreRef &r) {
        auto d = std::make_unique<ui::AcquireDialog>(r.name, QStringLiteral("alice@laptop"));
        d->attach(m_actions.get(), r, QStringLiteral("127.0.0.1:%1").arg(m_group.node(0).port()));
        d->show();
        return d;
    }
    static QSpinBox *replicaSpin(QDialog *d) { return d->findChild<QSpinBox *>(QStringLiteral("replicas")); }
    static QPushButton *acquireButton(QDialog *d) {
        return d->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
    }
    QList<core::AuditEntry> auditFor(const QString &holder) const {
        QList<core::AuditEntry> out;
        for (const auto &e : m_audit->readRecent())
            if (e.holder == holder)
                out << e;
        return out;
    }

private Q_SLOTS:
    void initTestCase() {
        test::SentinelGroup::Options options;
        options.sentinels = 0;
        QVERIFY2(m_group.start(options), qPrintable(m_group.errorString()));
        m_audit = std::make_unique<core::AuditLog>(m_dir.filePath(QStringLiteral("audit.jsonl")));
        model::ConnectionConfig c = model::ConnectionConfig::create(core::Backend::Redis);
        c.name = QStringLiteral("replicated");
        c.url = m_group.node(0).url();
        m_controller = std::make_unique<model::ConnectionController>(c, model::storeFactoryFor(c));
        m_controller->open();
        m_actions = std::make_unique<model::OperatorActions>(m_controller.get(), m_audit.get());
    }
    void cleanup() {
        m_group.node(1).resume(); // whatever a failed test left
        QVERIFY(m_group.waitForReplicasLinked());
    }
    void cleanupTestCase() {
        m_actions.reset();
        m_controller.reset();
    }

    void offeredOnlyWhereWaitHelps_data() {
        QTest::addColumn<core::Backend>("backend");
        QTest::addColumn<Kind>("kind");
        QTest::addColumn<bool>("offered");
        QTest::newRow("redis leased") << core::Backend::Redis << Kind::Leased << true;
        QTest::newRow("redis lock") << core::Backend::Redis << Kind::Lock << true;
        QTest::newRow("redis fair") << core::Backend::Redis << Kind::Fair << false;
        QTest::newRow("redis slots") << core::Backend::Redis << Kind::Slots << false;
        QTest::newRow("redis zset") << core::Backend::Redis << Kind::Zset << false;
        QTest::newRow("consul") << core::Backend::Consul << Kind::Consul << false;
    }
    void offeredOnlyWhereWaitHelps() {
        QFETCH(core::Backend, backend);
        QFETCH(Kind, kind);
        QFETCH(bool, offered);
        std::unique_ptr<model::ConnectionController> consul;
        std::unique_ptr<model::OperatorActions> consulActions;
        model::OperatorActions *actions = m_actions.get();
        if (backend == core::Backend::Consul) {
            // Never opened: the dialog must not ask a Consul connection about replicas at all.
            auto c = model::ConnectionConfig::create(core::Backend::Consul);
            consul = std::make_unique<model::ConnectionController>(c, model::storeFactoryFor(c));
            consulActions = std::make_unique<model::OperatorActions>(consul.get(), m_audit.get());
            actions = consulActions.get();
        }
        ui::AcquireDialog dialog(QStringLiteral("jobs"), QStringLiteral("alice@laptop"));
        dialog.attach(actions, ref(kind, QStringLiteral("jobs")), {});
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QCOMPARE(dialog.offersReplicas(), offered);
        QCOMPARE(replicaSpin(&dialog)->isVisible(), offered);
        QCOMPARE(dialog.replicas(), 0);
        if (offered) {
            // The spin goes up to the replicas the master has: one here.
            QTRY_VERIFY_WITH_TIMEOUT(replicaSpin(&dialog)->isEnabled(), 15000);
            QCOMPARE(replicaSpin(&dialog)->maximum(), 1);
            QVERIFY2(dialog.findChild<QLabel *>(QStringLiteral("replicaNote"))
                         ->text()
                         .contains(QLatin1String("1 replica")),
                     qPrintable(dialog.findChild<QLabel *>(QStringLiteral("replicaNote"))->text()));
        }
    }

    void acknowledgedGrantClosesTheDialog() {
        const core::SemaphoreRef r = ref(Kind::Leased, QStringLiteral("gui-rep-ok"));
        auto dialog = dialogFor(r);
        QTRY_VERIFY_WITH_TIMEOUT(replicaSpin(dialog.get())->isEnabled(), 15000);
        replicaSpin(dialog.get())->setValue(1);
        auto *holder = dialog->findChild<QLineEdit *>(QStringLiteral("holder"));
        holder->setText(QStringLiteral("gui-acked"));
        QSignalSpy done(dialog.get(), &ui::AcquireDialog::acquireFinished);
        QTest::mouseClick(acquireButton(dialog.get()), Qt::LeftButton);
        QVERIFY(done.wait(15000));
        QVERIFY2(dialog->acquireResult().status == core::AcquireResult::Status::Granted,
                 qPrintable(dialog->acquireResult().error));
        QCOMPARE(dialog->result(), int(QDialog::Accepted));
        // The replica has it: acknowledged means there.
        QVERIFY(m_group.node(1).command({"ZSCORE", "{gui-rep-ok}:holders", "gui-acked"}).str.size() > 0);
        const auto entries = auditFor(QStringLiteral("gui-acked"));
        QCOMPARE(entries.size(), 1);
        QCOMPARE(entries.first().observed.value(QStringLiteral("replicas")).toInt(), 1);
        QCOMPARE(entries.first().result, QStringLiteral("granted"));

        // Its refresh waits for the replica again: with the replica stopped it is lost, and released.
        const auto grant = m_actions->grantFor(r, QByteArrayLiteral("gui-acked"));
        QVERIFY(grant);
        m_group.node(1).suspend();
        std::optional<core::RefreshResult> refreshed;
        m_actions->refresh(*grant, 30000, this, [&](core::RefreshResult rr) { refreshed = rr; });
        QTRY_VERIFY_WITH_TIMEOUT(refreshed.has_value(), 15000);
        QCOMPARE(refreshed->status, core::RefreshResult::Status::Lost);
        QVERIFY2(refreshed->error.endsWith(QLatin1String(": released")), qPrintable(refreshed->error));
        QCOMPARE(m_group.node(0).command({"ZSCORE", "{gui-rep-ok}:holders", "gui-acked"}).isNil(), true);
        QCOMPARE(
            auditFor(QStringLiteral("gui-acked")).last().observed.value(QStringLiteral("replicas")).toInt(),
            1);
        m_group.node(1).resume();
    }

    void stoppedReplicaIsReportedInTheDialog_data() {
        QTest::addColumn<Kind>("kind");
        QTest::newRow("leased") << Kind::Leased;
        QTest::newRow("lock") << Kind::Lock;
    }
    void stoppedReplicaIsReportedInTheDialog() {
        QFETCH(Kind, kind);
        const core::SemaphoreRef r = ref(kind, QStringLiteral("gui-rep-stopped-%1").arg(int(kind)));
        auto dialog = dialogFor(r);
        QTRY_VERIFY_WITH_TIMEOUT(replicaSpin(dialog.get())->isEnabled(), 15000);
        replicaSpin(dialog.get())->setValue(1);
        auto *timeout = dialog->findChild<QLineEdit *>(QStringLiteral("replicaTimeout"));
        timeout->setText(QStringLiteral("300ms"));
        const QString holder = QStringLiteral("gui-unacked-%1").arg(int(kind));
        dialog->findChild<QLineEdit *>(QStringLiteral("holder"))->setText(holder);
        m_group.node(1).suspend(); // SIGSTOP to the replica's PID: it reads and acknowledges nothing
        QSignalSpy done(dialog.get(), &ui::AcquireDialog::acquireFinished);
        QTest::mouseClick(acquireButton(dialog.get()), Qt::LeftButton);
        QVERIFY(done.wait(15000));
        const QString expected =
            QStringLiteral("not replicated to 1 replica within 300 ms (acknowledged by 0): released");
        QCOMPARE(dialog->acquireResult().error, expected);
        // Said plainly where the operator looks, and the dialog stays for another try.
        auto *status = dialog->findChild<QLabel *>(QStringLiteral("acquireStatus"));
        QVERIFY(status->isVisible());
        QCOMPARE(status->text(), expected);
        QVERIFY(dialog->isVisible());
        QVERIFY(acquireButton(dialog.get())->isEnabled());
        // Released: nothing of it is left on the master.
        const QByteArray key = kind == Kind::Lock ? r.name.toUtf8() : "{" + r.name.toUtf8() + "}:holders";
        QCOMPARE(m_group.node(0).command({"EXISTS", key}).integer, 0);
        const auto entries = auditFor(holder);
        QCOMPARE(entries.size(), 1);
        QCOMPARE(entries.first().observed.value(QStringLiteral("replicas")).toInt(), 1);
        QCOMPARE(entries.first().observed.value(QStringLiteral("replicaTimeoutMs")).toInt(), 300);
        QVERIFY2(entries.first().message.contains(expected), qPrintable(entries.first().message));
#ifdef SEMSCOPE_SCREENSHOT_DIR
        if (kind == Kind::Leased) {
            dialog->findChild<QLineEdit *>(QStringLiteral("holder"))->setText(QStringLiteral("alice@laptop"));
            dialog->resize(720, dialog->sizeHint().height());
            dialog->layout()->activate();
            QDir().mkpath(QStringLiteral(SEMSCOPE_SCREENSHOT_DIR));
            dialog->grab().save(QStringLiteral(SEMSCOPE_SCREENSHOT_DIR "/acquire-dialog-replicas.png"));
        }
#endif
        m_group.node(1).resume();
    }
};

SEMSCOPE_TEST_MAIN(TestAcquireReplicas)
#include "tst_acquirereplicas.moc"
