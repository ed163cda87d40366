// A TTL typed in the acquire dialog is a lease asked for (issue 29 item 2), as semscope-cli's
// --ttl: on a `slots` semaphore the seed's clients created (no lease) it is refused in the dialog
// and nothing is taken; emptied (or left prefilled), the field asks for no particular lease and the
// slot is granted with the word that it is held until released. Real redis-server.

#include "RedisServer.h"
#include "TestMain.h"
#include "core/audit/AuditLog.h"
#include "model/ConnectionStores.h"
#include "model/OperatorActions.h"
#include "ui/AcquireDialog.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace semscope;

class TestAcquireTtl : public QObject {
    Q_OBJECT

    test::RedisServer m_server;
    QTemporaryDir m_dir;
    std::unique_ptr<core::AuditLog> m_audit;
    std::unique_ptr<model::ConnectionController> m_controller;
    std::unique_ptr<model::OperatorActions> m_actions;

    static QPushButton *acquireButton(QDialog *d) {
        return d->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
    }
    static QString status(QDialog *d) {
        return d->findChild<QLabel *>(QStringLiteral("acquireStatus"))->text();
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        m_audit = std::make_unique<core::AuditLog>(m_dir.filePath(QStringLiteral("audit.jsonl")));
        model::ConnectionConfig c = model::ConnectionConfig::create(core::Backend::Redis);
        c.name = QStringLiteral("ttl");
        c.url = m_server.url();
        m_controller = std::make_unique<model::ConnectionController>(c, model::storeFactoryFor(c));
        m_controller->open();
        m_actions = std::make_unique<model::OperatorActions>(m_controller.get(), m_audit.get());
    }
    void cleanupTestCase() {
        m_actions.reset();
        m_controller.reset();
    }

    void aTypedTtlIsRefusedWhereNoLeaseIsKept() {
        m_server.command({"HSET", "printers|map", "10.0.0.1", "1"});
        m_server.command({"RPUSH", "printers|list", "2"});
        core::SemaphoreRef r;
        r.kind = core::Kind::Slots;
        r.name = QStringLiteral("printers");
        ui::AcquireDialog dialog(r.name, QStringLiteral("alice@laptop"));
        dialog.attach(m_actions.get(), r, {});
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        auto *ttl = dialog.findChild<QLineEdit *>(QStringLiteral("ttl"));
        QCOMPARE(ttl->text(), QStringLiteral("30s"));
        QVERIFY(!dialog.ttlGiven()); // prefilled: the default, not a lease asked for
        ttl->clear();
        QTest::keyClicks(ttl, QStringLiteral("30s"));
        QVERIFY(dialog.ttlGiven());

        QSignalSpy done(&dialog, &ui::AcquireDialog::acquireFinished);
        QTest::mouseClick(acquireButton(&dialog), Qt::LeftButton);
        QVERIFY(done.wait(15000));
        QCOMPARE(dialog.acquireResult().status, core::AcquireResult::Status::Error);
        QVERIFY2(status(&dialog).contains(QLatin1String("keeps no lease")) &&
                     status(&dialog).contains(QLatin1String("leave the TTL out")),
                 qPrintable(status(&dialog)));
        QVERIFY(dialog.isVisible()); // still open: the operator can change the TTL and try again
        QVERIFY(m_server.command({"HGET", "printers|map", "alice@laptop"}).isNil());

        // Emptied: no lease asked for; granted, and the dialog says the slot is held until released.
        ttl->clear();
        QVERIFY(!dialog.ttlGiven());
        QVERIFY(acquireButton(&dialog)->isEnabled());
        QTest::mouseClick(acquireButton(&dialog), Qt::LeftButton);
        QVERIFY(done.wait(15000));
        QCOMPARE(dialog.acquireResult().status, core::AcquireResult::Status::Granted);
        QVERIFY2(status(&dialog).contains(QLatin1String("held until it is released")),
                 qPrintable(status(&dialog)));
        QCOMPARE(m_server.command({"HGET", "printers|map", "alice@laptop"}).str, QByteArray("2"));
    }
};

SEMSCOPE_TEST_MAIN(TestAcquireTtl)
#include "tst_acquirettl.moc"
