// Issue 31 item 2: locks that are never found. A redis-py lock `SET invoice-run <uuid-hex> NX PX
// 600000` has no lock-like word in its name, so no scan lists it; File → Open key… reads the key,
// guesses "lock" from its shape, and once confirmed lists it on this connection from then on, also
// after the window is made again with the same settings. Keys named like a semaphore or a lock but
// of the wrong type are listed with their warning instead of skipped. Real redis-server.

#include "RestartableWindow.h"
#include "TestMain.h"
#include "TestWait.h"
#include "ui/OpenKeyDialog.h"
#include "ui/SemaphorePage.h"

#include <QAction>
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

    test::RestartableWindow m_w;

    static void save(QWidget *w, const QString &name) {
        const QString dir = QStringLiteral(SEMSCOPE_SCREENSHOT_DIR);
        QVERIFY(QDir().mkpath(dir));
        test::deliverPostedEvents();
        QVERIFY(w->grab().save(dir + QLatin1Char('/') + name));
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(m_w.start(QStringLiteral("billing")), qPrintable(m_w.server.errorString()));
    }
    void cleanupTestCase() { m_w.window.reset(); }

    void wrongTypesAreListedWithTheirWarning() {
        m_w.server.command({"RPUSH", "semaphore:payments-legacy", "a", "b"});
        m_w.server.command({"HSET", "lock:orders", "owner", "svc-a"});
        auto *s = m_w.open();
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
        QVERIFY(m_w.window->openSemaphore(m_w.config.id, orders));
        auto *banner = m_w.window->semaphorePage()->findChild<QLabel *>(QStringLiteral("warnings"));
        QVERIFY(banner);
        QTRY_VERIFY_WITH_TIMEOUT(
            banner->isVisible() && banner->text().contains(QLatin1String("lock:orders is a hash")), 15000);
        for (const QString &w : s->list.warningsOf(orders))
            QVERIFY2(banner->text().contains(w), qPrintable(w));
        // Nothing is offered that the scripts would answer WRONGTYPE, and the page says why first.
        auto *page = m_w.window->semaphorePage();
        auto *refused = page->findChild<QLabel *>(QStringLiteral("writesRefusedBanner"));
        QVERIFY(refused);
        QTRY_VERIFY_WITH_TIMEOUT(refused->isVisible(), 15000);
        QVERIFY2(refused->text().contains(QLatin1String("lock:orders is a hash, not the string")),
                 qPrintable(refused->text()));
        QVERIFY2(refused->text().contains(QLatin1String("What you can do")), qPrintable(refused->text()));
        for (const char *name : {"acquireAction", "purgeAction"}) {
            auto *a = page->findChild<QAction *>(QLatin1String(name));
            QVERIFY2(a, name);
            QVERIFY2(!a->isEnabled(), name);
            QVERIFY2(a->toolTip().contains(QLatin1String("is a hash")), qPrintable(a->toolTip()));
        }
    }

    void openKeyListsARedisPyLockAndRemembersIt() {
        m_w.server.command({"SET", "invoice-run", "9f1c2e7a4b3d4f6e8a1b2c3d4e5f6a7b", "NX", "PX", "600000"});
        auto *s = m_w.open();
        QVERIFY(s);
        const SemaphoreRef invoice{Kind::Lock, QStringLiteral("invoice-run"), {}};
        QCOMPARE(s->list.rowOf(invoice), -1); // the scan cannot tell it from data

        // Ctrl+O from the main window.
        m_w.window->activateWindow();
        QTest::keyClick(m_w.window.get(), Qt::Key_O, Qt::ControlModifier);
        ui::OpenKeyDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = m_w.window->findChild<ui::OpenKeyDialog *>()) != nullptr);
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
        QCOMPARE(m_w.window->semaphorePage()->ref(), invoice);
        QTRY_VERIFY_WITH_TIMEOUT(m_w.window->semaphorePage()->holderView()->model()->rowCount() == 1, 15000);
        const auto saved = m_w.registry->find(m_w.config.id);
        QVERIFY(saved && saved->pinned.contains(invoice));
        QCOMPARE(
            model::ConnectionRegistry(m_w.dir.filePath(QStringLiteral("c.ini"))).find(m_w.config.id)->pinned,
            QList<SemaphoreRef>{invoice});
        save(m_w.window.get(), QStringLiteral("open-key-listed.png"));

        // A rescan keeps it, and so does a new window on the same settings.
        QSignalSpy done(s, &model::ConnectionSession::discoveryFinished);
        s->discover();
        QVERIFY(done.wait(30000));
        QVERIFY(s->list.rowOf(invoice) >= 0);
        s = m_w.open();
        QVERIFY(s);
        QVERIFY(s->list.rowOf(invoice) >= 0);
        QTRY_COMPARE_WITH_TIMEOUT(
            s->list.index(s->list.rowOf(invoice), model::SemaphoreListModel::UsageColumn).data().toString(),
            QStringLiteral("1 / 1"), 15000);

        // Released, it stays listed (0 / 1) until the operator forgets it.
        m_w.server.command({"DEL", "invoice-run"});
        QSignalSpy again(s, &model::ConnectionSession::discoveryFinished);
        s->discover();
        QVERIFY(again.wait(30000));
        QVERIFY(s->list.rowOf(invoice) >= 0);
        const QModelIndex index = s->proxy.mapFromSource(s->list.index(s->list.rowOf(invoice), 0));
        QAction *forget = nullptr;
        for (QAction *a : m_w.window->semaphoreContextActions(index)) {
            if (a && a->text() == QLatin1String("&Forget"))
                forget = a;
        }
        QVERIFY(forget);
        forget->trigger();
        QCOMPARE(s->list.rowOf(invoice), -1);
        QVERIFY(m_w.registry->find(m_w.config.id)->pinned.isEmpty());
        m_w.server.command({"DEL", "semaphore:payments-legacy", "lock:orders"});
    }

    // Without a Redis connection there is nothing to read: the action says so, nothing opens.
    void openKeyNeedsARedisConnection() {
        auto *action = m_w.window->findChild<QAction *>(QStringLiteral("openKeyAction"));
        QVERIFY(action && action->isEnabled());
        m_w.window->closeConnection(m_w.config.id);
        QVERIFY(!action->isEnabled());
        QVERIFY(action->toolTip().contains(QLatin1String("Redis connection")));
        QVERIFY(!m_w.window->openKey());
        QVERIFY(m_w.window->statusBar()->currentMessage().contains(QLatin1String("Redis")));
    }
};

SEMSCOPE_TEST_MAIN(TestOpenKey)
#include "tst_openkey.moc"
