// Issue 31 item 1: on `semscope --demo --cluster`, demo:printers is a `slots` semaphore whose keys
// live in slots on different masters, and the store refuses every write of it. The page must not
// offer one: every write action is greyed from the first read on, its tooltip and the page's banner
// say why (in the store's own words) and what the operator can do instead, and no force-release
// dialog opens to have the name typed for nothing.
#include "CardLines.h"
#include "DemoFixture.h"
#include "TestMain.h"
#include "TestWait.h"
#include "model/HolderTableModel.h"

#include <QAction>
#include <QDir>
#include <QLabel>
#include <QTableView>
#include <QtTest>

using namespace semscope;

class TestClusterDeadEnd : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void splitLayoutOffersNoWriteAndSaysWhy() {
        test::DemoFixture demo;
        QVERIFY2(demo.start(false, true), "the cluster demo did not start");
        demo.window->resize(1280, 720);
        demo.window->show();
        QVERIFY(QTest::qWaitForWindowExposed(demo.window.get()));
        model::ConnectionSession *session = demo.open(demo.sandbox->redisConnection());
        QVERIFY(session);
        core::SemaphoreRef printers;
        printers.kind = core::Kind::Slots;
        printers.name = QStringLiteral("demo:printers");
        QTRY_VERIFY_WITH_TIMEOUT(session->list.rowOf(printers) >= 0, 30000);

        auto *page = demo.window->semaphorePage();
        QSignalSpy reads(page, &ui::SemaphorePage::snapshotApplied);
        QVERIFY(demo.window->openSemaphore(demo.sandbox->redisConnection().id, printers));
        QVERIFY(test::waitFor([&] { return !reads.isEmpty(); }, 30000));
        const auto snap = reads.last().first().value<core::Snapshot>();
        // The store says up front what it would answer to a write: that is the text shown.
        QVERIFY2(snap.writeRefusal.contains(QLatin1String("on different masters")),
                 qPrintable(snap.writeRefusal));

        auto *banner = page->findChild<QLabel *>(QStringLiteral("writesRefusedBanner"));
        QVERIFY(banner);
        QVERIFY(banner->isVisible());
        QVERIFY2(banner->text().contains(snap.writeRefusal), qPrintable(banner->text()));
        QVERIFY2(banner->text().contains(QLatin1String("What you can do")), qPrintable(banner->text()));
        QVERIFY(banner->wordWrap());

        // The stuck holder selected, as an operator would before Delete: still nothing to start.
        QVERIFY(test::waitFor([&] { return page->holderView()->model()->rowCount() > 0; }, 10000));
        page->holderView()->selectRow(0);
        // Its card at once, as a grab right after the selection shows it: under the two-part banner
        // it is about 90 px high, and its wrapped lines were drawn over one another.
        const QString cut = test::cutCardLine(page->findChild<QWidget *>(QStringLiteral("holderCard")));
        QVERIFY2(cut.isEmpty(), qPrintable(cut));
        for (const char *name : {"acquireAction", "forceReleaseAction", "purgeAction", "repairAction"}) {
            auto *a = page->findChild<QAction *>(QLatin1String(name));
            QVERIFY2(a, name);
            QVERIFY2(a->isVisible(), name);
            QVERIFY2(!a->isEnabled(), name);
            QVERIFY2(a->toolTip().contains(QLatin1String("on different masters")), qPrintable(a->toolTip()));
            QVERIFY2(a->toolTip().contains(QLatin1String("What you can do")), qPrintable(a->toolTip()));
        }
        QVERIFY(page->forceReleaseSelected() == nullptr);

        // The screenshot once the page has settled: the holder's name grown whole into the room
        // the table has (on the next turn of the event loop after the rows came in).
        const QAbstractItemView *holders = page->holderView();
        QTRY_VERIFY(page->holderView()->columnWidth(model::HolderTableModel::HolderColumn) >=
                    holders->sizeHintForColumn(model::HolderTableModel::HolderColumn));
        const QString dir = QStringLiteral(SEMSCOPE_SCREENSHOT_DIR);
        QVERIFY(QDir().mkpath(dir));
        QVERIFY(demo.window->grab().save(dir + QStringLiteral("/cluster-split-layout.png")));
    }
};

SEMSCOPE_TEST_MAIN(TestClusterDeadEnd)
#include "tst_clusterdeadend.moc"
