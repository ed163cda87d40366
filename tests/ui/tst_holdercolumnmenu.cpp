// The holder table's column menu (ui/HolderColumnMenu, on the page's header and in its rows' menu):
// the columns a semaphore's holders have data for, each shown or hidden by the operator, and the
// choice kept for every semaphore and across restarts. Consul's session, behavior and health columns
// start hidden (they did not fit at 1280x720); this is how an operator gets them back.
// choicesSurviveARestart runs a redis-server (tests/support/RedisServer.h).
#include "ConsulHolders.h"
#include "RestartableWindow.h"
#include "TestMain.h"
#include "model/HolderTableModel.h"
#include "ui/SemaphorePage.h"

#include <QAction>
#include <QApplication>
#include <QHeaderView>
#include <QMenu>
#include <QSignalSpy>
#include <QTableView>
#include <QTimer>
#include <QtTest>
#include <functional>
#include <memory>

using namespace semscope;
using model::HolderTableModel;

namespace {

// The titles of the menu's entries and whether each is checked, as "Rank+ Token- …".
QString entries(QMenu *menu) {
    QStringList out;
    for (QAction *a : menu->actions())
        out << a->text() + (a->isChecked() ? QLatin1Char('+') : QLatin1Char('-'));
    return out.join(QLatin1Char(' '));
}

QAction *entry(QMenu *menu, const QString &title) {
    for (QAction *a : menu->actions()) {
        if (a->text() == title)
            return a;
    }
    return nullptr;
}

} // namespace

class TestHolderColumnMenu : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void offersWhatTheHoldersHaveDataFor() {
        ui::SemaphorePage page(nullptr);
        page.applySnapshot(test::consulServiceSnapshot());
        std::unique_ptr<QMenu> menu(page.makeColumnMenu(nullptr));
        QCOMPARE(entries(menu.get()), QStringLiteral("Rank+ Token+ Session- Node- Behavior- Health-"));
        // Each entry explains its column as the header's tooltip does.
        QCOMPARE(entry(menu.get(), QStringLiteral("Behavior"))->toolTip(),
                 page.holderModel()->headerData(HolderTableModel::BehaviorColumn, Qt::Horizontal,
                                                Qt::ToolTipRole));
    }

    void showsAColumnAndKeepsItShown() {
        ui::SemaphorePage page(nullptr);
        page.resize(775, 668);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        page.applySnapshot(test::consulServiceSnapshot());
        QTableView *view = page.holderView();
        QVERIFY(view->isColumnHidden(HolderTableModel::HealthColumn));
        std::unique_ptr<QMenu> menu(page.makeColumnMenu(nullptr));
        entry(menu.get(), QStringLiteral("Health"))->trigger();
        QVERIFY(!view->isColumnHidden(HolderTableModel::HealthColumn));
        entry(menu.get(), QStringLiteral("Token"))->trigger();
        QVERIFY(view->isColumnHidden(HolderTableModel::TokenColumn));
        // The next read does not undo it.
        page.applySnapshot(test::consulServiceSnapshot());
        QVERIFY(!view->isColumnHidden(HolderTableModel::HealthColumn));
        QVERIFY(view->isColumnHidden(HolderTableModel::TokenColumn));
        const QVariantMap expected{{QStringLiteral("Health"), true}, {QStringLiteral("Token"), false}};
        QCOMPARE(page.columnChoices(), expected);
        // Shown again: the menu says so.
        std::unique_ptr<QMenu> again(page.makeColumnMenu(nullptr));
        QCOMPARE(entries(again.get()), QStringLiteral("Rank+ Token- Session- Node- Behavior- Health+"));
    }

    // As the main window restores them at start: before any read, and for another semaphore too.
    void choicesHoldForTheNextPage() {
        ui::SemaphorePage page(nullptr);
        page.setColumnChoices({{QStringLiteral("Behavior"), true}, {QStringLiteral("Token"), false}});
        page.applySnapshot(test::consulServiceSnapshot());
        QTableView *view = page.holderView();
        QVERIFY(!view->isColumnHidden(HolderTableModel::BehaviorColumn));
        QVERIFY(view->isColumnHidden(HolderTableModel::TokenColumn));
        QVERIFY(view->isColumnHidden(HolderTableModel::SessionColumn)); // not chosen: as at first
        // A Redis semaphore has no behavior: the choice shows nothing there, and its token stays off.
        core::Snapshot leased;
        leased.ref = {core::Kind::Leased, QStringLiteral("demo:jobs"), {}};
        core::Holder h;
        h.id = QStringLiteral("worker-2@app-1");
        h.rawId = h.id.toUtf8();
        h.rank = 0;
        h.token = 5;
        h.expiresAtMs = QDateTime::currentMSecsSinceEpoch() + 10000;
        leased.holders << h;
        page.applySnapshot(leased);
        QVERIFY(view->isColumnHidden(HolderTableModel::BehaviorColumn));
        QVERIFY(view->isColumnHidden(HolderTableModel::TokenColumn));
        QVERIFY(!view->isColumnHidden(HolderTableModel::TtlColumn));
    }

    // Right-click on the header opens the menu; the rows' menu has it as Columns.
    void rightClickOffersIt() {
        test::RestartableWindow w;
        QVERIFY2(w.start(QStringLiteral("columns")), "redis-server did not start");
        QVERIFY(w.open());
        ui::SemaphorePage *page = w.window->semaphorePage();
        QSignalSpy reads(page, &ui::SemaphorePage::snapshotApplied);
        QVERIFY(w.window->openSemaphore(w.config.id, {core::Kind::Leased, QStringLiteral("jobs"), {}}));
        QVERIFY(reads.wait(15000));
        // What the menu that pops up offers (read, then closed, from inside its exec()).
        auto popupOf = [](const std::function<void()> &rightClick) {
            QString offered;
            QTimer::singleShot(0, [&offered] {
                auto *menu = qobject_cast<QMenu *>(QApplication::activePopupWidget());
                if (!menu)
                    return;
                offered = entries(menu);
                menu->close();
            });
            rightClick();
            return offered;
        };
        QHeaderView *header = page->holderView()->horizontalHeader();
        QCOMPARE(popupOf([&] { Q_EMIT header->customContextMenuRequested(QPoint(5, 5)); }),
                 QStringLiteral("Rank+ Token+ TTL+"));
        const QString rows =
            popupOf([&] { Q_EMIT page->holderView()->customContextMenuRequested(QPoint(5, 5)); });
        QVERIFY2(rows.contains(QLatin1String("Columns")), qPrintable(rows));
    }

    // What the operator chose is there again after a restart (the main window's settings).
    void choicesSurviveARestart() {
        test::RestartableWindow w;
        QVERIFY2(w.start(QStringLiteral("columns")), "redis-server did not start");
        QVERIFY(w.open());
        ui::SemaphorePage *page = w.window->semaphorePage();
        page->applySnapshot(test::consulServiceSnapshot());
        std::unique_ptr<QMenu> menu(page->makeColumnMenu(nullptr));
        entry(menu.get(), QStringLiteral("Node"))->trigger();
        entry(menu.get(), QStringLiteral("Token"))->trigger();
        const QVariantMap chosen{{QStringLiteral("Node"), true}, {QStringLiteral("Token"), false}};
        QCOMPARE(page->columnChoices(), chosen);
        QVERIFY(w.window->close()); // as the operator quits: the window saves its state
        QVERIFY(w.open());
        page = w.window->semaphorePage();
        QCOMPARE(page->columnChoices(), chosen);
        page->applySnapshot(test::consulServiceSnapshot());
        QVERIFY(!page->holderView()->isColumnHidden(HolderTableModel::NodeColumn));
        QVERIFY(page->holderView()->isColumnHidden(HolderTableModel::TokenColumn));
    }
};

SEMSCOPE_TEST_MAIN(TestHolderColumnMenu)
#include "tst_holdercolumnmenu.moc"
