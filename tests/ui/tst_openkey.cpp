// Issue 31 item 2: locks that are never found. A redis-py lock `SET invoice-run <uuid-hex> NX PX
// 600000` has no lock-like word in its name, so no scan lists it; File → Open key… reads the key,
// guesses "lock" from its shape, and once confirmed lists it on this connection from then on, also
// after the window is made again with the same settings. Keys named like a semaphore or a lock but
// of the wrong type are listed with their warning instead of skipped. Real redis-server.

#include "RedisServer.h"
#include "TestMain.h"
#include "TestWait.h"
#include "core/ProfileStore.h"
#include "core/audit/AuditLog.h"
#include "model/ConnectionRegistry.h"
#include "model/ConnectionStores.h"
#include "model/SecretStore.h"
#include "ui/ConnectionSession.h"
#include "ui/MainWindow.h"
#include "ui/OpenKeyDialog.h"
#include "ui/SemaphorePage.h"

#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace semscope;
using core::Kind;
using core::SemaphoreRef;

class TestOpenKey : public QObject {
    Q_OBJECT

    test::RedisServer m_server;
    QTemporaryDir m_dir;
    std::unique_ptr<model::ConnectionRegistry> m_registry;
    std::unique_ptr<core::AuditLog> m_audit;
    std::unique_ptr<model::MemorySecretStore> m_secrets;
    std::unique_ptr<QSettings> m_profileSettings;
    std::unique_ptr<core::ProfileStore> m_profiles;
    std::unique_ptr<ui::MainWindow> m_window;
    model::ConnectionConfig m_config;

    // A main window as the app makes one, on the same settings each time ("after a restart").
    ui::ConnectionSession *openWindow() {
        m_window.reset(); // the old one saves its state and closes its history first
        ui::MainWindowServices s;
        s.registry = m_registry.get();
        s.secrets = m_secrets.get();
        s.audit = m_audit.get();
        s.profiles = m_profiles.get();
        s.storeFactory = [](const model::ConnectionConfig &c) { return model::storeFactoryFor(c); };
        s.settingsFile = m_dir.filePath(QStringLiteral("window.ini"));
        m_window = std::make_unique<ui::MainWindow>(s);
        m_window->resize(1280, 720);
        m_window->show();
        if (!QTest::qWaitForWindowExposed(m_window.get()))
            return nullptr;
        m_window->openConnection(m_config.id);
        auto *session = m_window->session(m_config.id);
        if (!session)
            return nullptr;
        QSignalSpy done(session, &ui::ConnectionSession::discoveryFinished);
        if (session->isDiscovering() && !done.wait(30000))
            return nullptr;
        m_window->selectConnection(m_config.id);
        return session;
    }

    static void save(QWidget *w, const QString &name) {
        const QString dir = QStringLiteral(SEMSCOPE_SCREENSHOT_DIR);
        QVERIFY(QDir().mkpath(dir));
        test::deliverPostedEvents();
        QVERIFY(w->grab().save(dir + QLatin1Char('/') + name));
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        m_registry = std::make_unique<model::ConnectionRegistry>(m_dir.filePath(QStringLiteral("c.ini")));
        m_audit = std::make_unique<core::AuditLog>(m_dir.filePath(QStringLiteral("audit.jsonl")));
        m_secrets = std::make_unique<model::MemorySecretStore>();
        m_profileSettings =
            std::make_unique<QSettings>(m_dir.filePath(QStringLiteral("profiles.ini")), QSettings::IniFormat);
        m_profiles = std::make_unique<core::ProfileStore>(m_profileSettings.get());
        m_config = model::ConnectionConfig::create(core::Backend::Redis);
        m_config.name = QStringLiteral("billing");
        m_config.url = m_server.url();
        m_registry->upsert(m_config);
    }
    void cleanupTestCase() { m_window.reset(); }

    void wrongTypesAreListedWithTheirWarning() {
        m_server.command({"RPUSH", "semaphore:payments-legacy", "a", "b"});
        m_server.command({"HSET", "lock:orders", "owner", "svc-a"});
        auto *s = openWindow();
        QVERIFY(s);
        const SemaphoreRef legacy{Kind::NodeSemaphore, QStringLiteral("payments-legacy"), {}};
        const SemaphoreRef orders{Kind::Lock, QStringLiteral("lock:orders"), {}};
        QVERIFY(s->list.rowOf(legacy) >= 0);
        QVERIFY(s->list.rowOf(orders) >= 0);
        QVERIFY2(s->list.warningsOf(legacy).join(u'|').contains(
                     QLatin1String("semaphore:payments-legacy is a list, expected a zset")),
                 qPrintable(s->list.warningsOf(legacy).join(u'|')));
        QVERIFY2(s->list.warningsOf(orders).join(u'|').contains(QLatin1String("lock:orders is a hash")),
                 qPrintable(s->list.warningsOf(orders).join(u'|')));
        // Every warning on the page, the discovery's among them.
        QVERIFY(m_window->openSemaphore(m_config.id, orders));
        auto *banner = m_window->semaphorePage()->findChild<QLabel *>(QStringLiteral("warnings"));
        QVERIFY(banner);
        QTRY_VERIFY_WITH_TIMEOUT(
            banner->isVisible() && banner->text().contains(QLatin1String("lock:orders is a hash")), 15000);
        for (const QString &w : s->list.warningsOf(orders))
            QVERIFY2(banner->text().contains(w), qPrintable(w));
    }

    void openKeyListsARedisPyLockAndRemembersIt() {
        m_server.command({"SET", "invoice-run", "9f1c2e7a4b3d4f6e8a1b2c3d4e5f6a7b", "NX", "PX", "600000"});
        auto *s = openWindow();
        QVERIFY(s);
        const SemaphoreRef invoice{Kind::Lock, QStringLiteral("invoice-run"), {}};
        QCOMPARE(s->list.rowOf(invoice), -1); // the scan cannot tell it from data

        // Ctrl+O from the main window.
        m_window->activateWindow();
        QTest::keyClick(m_window.get(), Qt::Key_O, Qt::ControlModifier);
        ui::OpenKeyDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = m_window->findChild<ui::OpenKeyDialog *>()) != nullptr);
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        QVERIFY(!dialog->openButton()->isEnabled());
        QSignalSpy looked(dialog, &ui::OpenKeyDialog::looked);
        QTest::keyClicks(dialog->keyEdit(), QStringLiteral("invoice-run"));
        QVERIFY(looked.wait(15000)); // read off the GUI thread once typing paused
        QCOMPARE(dialog->kindBox()->currentData().toInt(), int(Kind::Lock));
        const QString read = dialog->readLabel()->text();
        QVERIFY2(read.contains(QLatin1String("string, TTL")) && read.contains(QLatin1String("lock")),
                 qPrintable(read));
        QCOMPARE(dialog->chosen(), invoice);
        QVERIFY(dialog->openButton()->isEnabled());
        save(dialog, QStringLiteral("open-key.png"));

        QTest::mouseClick(dialog->openButton(), Qt::LeftButton);
        QVERIFY(s->list.rowOf(invoice) >= 0);
        QVERIFY(s->list.isPinned(s->list.rowOf(invoice)));
        QCOMPARE(m_window->semaphorePage()->ref(), invoice);
        QTRY_VERIFY_WITH_TIMEOUT(m_window->semaphorePage()->holderView()->model()->rowCount() == 1, 15000);
        const auto saved = m_registry->find(m_config.id);
        QVERIFY(saved && saved->pinned.contains(invoice));
        QCOMPARE(model::ConnectionRegistry(m_dir.filePath(QStringLiteral("c.ini"))).find(m_config.id)->pinned,
                 QList<SemaphoreRef>{invoice});
        save(m_window.get(), QStringLiteral("open-key-listed.png"));

        // A rescan keeps it, and so does a new window on the same settings.
        QSignalSpy done(s, &ui::ConnectionSession::discoveryFinished);
        s->discover();
        QVERIFY(done.wait(30000));
        QVERIFY(s->list.rowOf(invoice) >= 0);
        s = openWindow();
        QVERIFY(s);
        QVERIFY(s->list.rowOf(invoice) >= 0);
        QTRY_COMPARE_WITH_TIMEOUT(
            s->list.index(s->list.rowOf(invoice), model::SemaphoreListModel::UsageColumn).data().toString(),
            QStringLiteral("1 / 1"), 15000);

        // Released, it stays listed (0 / 1) until the operator forgets it.
        m_server.command({"DEL", "invoice-run"});
        QSignalSpy again(s, &ui::ConnectionSession::discoveryFinished);
        s->discover();
        QVERIFY(again.wait(30000));
        QVERIFY(s->list.rowOf(invoice) >= 0);
        const QModelIndex index = s->proxy.mapFromSource(s->list.index(s->list.rowOf(invoice), 0));
        QAction *forget = nullptr;
        for (QAction *a : m_window->semaphoreContextActions(index)) {
            if (a && a->text() == QLatin1String("&Forget"))
                forget = a;
        }
        QVERIFY(forget);
        forget->trigger();
        QCOMPARE(s->list.rowOf(invoice), -1);
        QVERIFY(m_registry->find(m_config.id)->pinned.isEmpty());
        m_server.command({"DEL", "semaphore:payments-legacy", "lock:orders"});
    }

    // Without a Redis connection there is nothing to read: the action says so, nothing opens.
    void openKeyNeedsARedisConnection() {
        auto *action = m_window->findChild<QAction *>(QStringLiteral("openKeyAction"));
        QVERIFY(action && action->isEnabled());
        m_window->closeConnection(m_config.id);
        QVERIFY(!action->isEnabled());
        QVERIFY(action->toolTip().contains(QLatin1String("Redis connection")));
        QVERIFY(!m_window->openKey());
        QVERIFY(m_window->statusBar()->currentMessage().contains(QLatin1String("Redis")));
    }
};

SEMSCOPE_TEST_MAIN(TestOpenKey)
#include "tst_openkey.moc"
