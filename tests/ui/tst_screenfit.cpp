// ui/ScreenFit: windows made to fit the screen they open on, and ui/ElidedLabel: names cut in the
// middle (issue 31 item 9, a 1280x720 projector).
#include "ConsulHolders.h"
#include "TestMain.h"
#include "model/HolderTableModel.h"
#include "ui/ElideMiddleDelegate.h"
#include "ui/ElidedLabel.h"
#include "ui/HolderDetailCard.h"
#include "ui/PlainTextDelegate.h"
#include "ui/ScreenFit.h"
#include "ui/SemaphorePage.h"
#include "ui/UsageBarDelegate.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableView>
#include <QtTest>

using namespace semscope;

namespace {

// demo:printers' stuck holder as the Cluster demo shows it: a `slots` holder without a lease.
core::Snapshot stuckSlotSnapshot() {
    core::Snapshot s;
    s.ref = {core::Kind::Slots, QStringLiteral("demo:printers"), {}};
    s.limit = 3;
    s.limitSource = core::LimitSource::Stored;
    s.serverNowMs = QDateTime::currentMSecsSinceEpoch();
    core::Holder h;
    h.id = QStringLiteral("crashed-worker-7");
    h.rawId = h.id.toUtf8();
    h.slot = 1;
    s.holders = {h};
    return s;
}

// Why `column` of `view` is not wholly in view; empty when it is.
QString outOfView(QTableView *view, int column) {
    const int x = view->columnViewportPosition(column);
    const int width = view->columnWidth(column);
    if (x >= 0 && x + width <= view->viewport()->width())
        return {};
    return QStringLiteral("%1 at %2+%3 of %4")
        .arg(view->model()->headerData(column, Qt::Horizontal).toString())
        .arg(x)
        .arg(width)
        .arg(view->viewport()->width());
}

// Why `label` is not drawn whole: cut at the bottom, or over `other`; empty when it is.
QString overlapOrCut(QWidget *card, QLabel *label, const QList<QLabel *> &others) {
    const QString what = label->text().left(30);
    if (label->hasHeightForWidth() && label->height() < label->heightForWidth(label->width()))
        return QStringLiteral("\"%1\" is %2 px high, its text needs %3")
            .arg(what)
            .arg(label->height())
            .arg(label->heightForWidth(label->width()));
    const QRect mine(label->mapTo(card, QPoint(0, 0)), label->size());
    for (QLabel *other : others) {
        if (other == label || !other->isVisible())
            continue;
        const QRect theirs(other->mapTo(card, QPoint(0, 0)), other->size());
        if (mine.intersects(theirs))
            return QStringLiteral("\"%1\" at %2,%3 %4x%5 overlaps \"%6\" at %7,%8 %9x%10")
                .arg(what)
                .arg(mine.x())
                .arg(mine.y())
                .arg(mine.width())
                .arg(mine.height())
                .arg(other->text().left(30))
                .arg(theirs.x())
                .arg(theirs.y())
                .arg(theirs.width())
                .arg(theirs.height());
    }
    return {};
}

} // namespace

class TestScreenFit : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void fitIntoRect_data() {
        QTest::addColumn<QRect>("frame");
        QTest::addColumn<QRect>("available");
        QTest::addColumn<QRect>("fitted");
        const QRect projector(0, 0, 1280, 720);
        QTest::newRow("fits already") << QRect(10, 10, 800, 600) << projector << QRect(10, 10, 800, 600);
        QTest::newRow("laptop size on a projector")
            << QRect(40, 30, 1416, 908) << projector << QRect(0, 0, 1280, 720);
        QTest::newRow("fits in size, hangs off the bottom right")
            << QRect(900, 500, 600, 400) << projector << QRect(680, 320, 600, 400);
        QTest::newRow("off the top left") << QRect(-300, -50, 600, 400) << projector << QRect(0, 0, 600, 400);
        QTest::newRow("taller only") << QRect(100, 0, 600, 1000) << projector << QRect(100, 0, 600, 720);
        QTest::newRow("a panel on the left")
            << QRect(0, 0, 1400, 860) << QRect(64, 0, 1216, 720) << QRect(64, 0, 1216, 720);
    }
    void fitIntoRect() {
        QFETCH(QRect, frame);
        QFETCH(QRect, available);
        QFETCH(QRect, fitted);
        QCOMPARE(ui::fitIntoRect(frame, available), fitted);
    }

    void keepOnScreenShrinksAndMoves() {
        QWidget window;
        const QRect available = window.screen()->availableGeometry();
        window.setGeometry(QRect(available.topLeft() + QPoint(100, 100), available.size() + QSize(200, 200)));
        ui::keepOnScreen(&window);
        QVERIFY(available.contains(QRect(window.pos(), window.frameGeometry().size())));
        QVERIFY(window.width() < available.width());
    }

    void elidesInTheMiddle() {
        ui::ElidedLabel label;
        const QString name = QStringLiteral("demo:lock-migrations-of-the-nightly-invoice-run");
        label.setFullText(name);
        label.show();
        label.resize(label.fontMetrics().horizontalAdvance(name) / 2, 30);
        QVERIFY(label.isElided());
        QVERIFY2(label.text().contains(QChar(0x2026)), qPrintable(label.text()));
        QVERIFY2(label.text().startsWith(QStringLiteral("demo:")), qPrintable(label.text()));
        QVERIFY2(label.text().endsWith(QStringLiteral("run")), qPrintable(label.text()));
        QCOMPARE(label.toolTip(), name);
        QCOMPARE(label.fullText(), name);

        label.resize(label.fontMetrics().horizontalAdvance(name) + 20, 30);
        QVERIFY(!label.isElided());
        QCOMPARE(label.text(), name);
    }

    // Issue 31 item 9: in a row with a stretch and buttons (the page header) the name is whole when
    // the row has room for it and cut in the middle only when the row is too narrow.
    void elidesOnlyWhenTheRowLacksRoom_data() {
        QTest::addColumn<int>("spare"); // px of the row beyond what the name and buttons need
        QTest::addColumn<bool>("elided");
        QTest::newRow("room to spare") << 200 << false;
        QTest::newRow("just enough") << 4 << false;
        QTest::newRow("too narrow") << -60 << true;
    }
    void elidesOnlyWhenTheRowLacksRoom() {
        QFETCH(int, spare);
        QFETCH(bool, elided);
        QWidget row;
        auto *layout = new QHBoxLayout(&row);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->setSpacing(0);
        auto *label = new ui::ElidedLabel(&row);
        const QString name = QStringLiteral("demo:printers");
        label->setFullText(name);
        auto *button = new QPushButton(QStringLiteral("Refresh"), &row);
        // As in the page's header: the stretch after the name takes the spare room, the name the
        // width it asks for (a stretch factor on the name would share the room out instead).
        layout->addWidget(label);
        layout->addStretch(1);
        layout->addWidget(button);
        row.resize(label->fontMetrics().horizontalAdvance(name) + button->sizeHint().width() + spare, 30);
        row.show();
        QVERIFY(QTest::qWaitForWindowExposed(&row));
        QTRY_COMPARE(label->isElided(), elided);
        QCOMPARE(label->toolTip(), name);
        if (elided)
            QVERIFY2(label->text().contains(QChar(0x2026)), qPrintable(label->text()));
    }

    void bigFontElidesAgain() {
        ui::ElidedLabel label;
        const QString name = QStringLiteral("demo:rate-limit-of-the-public-api");
        label.setFullText(name);
        label.show();
        label.resize(label.fontMetrics().horizontalAdvance(name) + 4, 30);
        QVERIFY(!label.isElided());
        QFont big = label.font();
        big.setPointSizeF(big.pointSizeF() * 1.5);
        label.setFont(big);
        QVERIFY(label.isElided()); // zoomed for a projector: the wider text no longer fits
    }

    // Issue 31 item 11: a master's address in the list's Node column keeps its host and its port.
    void nodeColumnElidesInTheMiddle() {
        struct Probe : ui::ElideMiddleDelegate {
            using ui::ElideMiddleDelegate::ElideMiddleDelegate;
            Qt::TextElideMode modeFor(const QModelIndex &index) const {
                QStyleOptionViewItem option;
                initStyleOption(&option, index);
                return option.textElideMode;
            }
        };
        QStandardItemModel model(1, 1);
        model.setItem(0, 0, new QStandardItem(QStringLiteral("redis-master-a.prod.internal:7002")));
        Probe delegate;
        QCOMPARE(delegate.modeFor(model.index(0, 0)), Qt::ElideMiddle);
    }

    // page-leased-demo_jobs-1280x720.png: three holders' fencing tokens all read "17959604903…":
    // one counter's tokens share their leading digits, and the cut took the ones that differ. In
    // the holder table at 1280x720, no two holders' tokens read the same, and a holder id keeps
    // both ends.
    void tokensKeepTheDigitsThatDiffer() {
        ui::SemaphorePage page(nullptr);
        page.resize(775, 668); // the page's share of a 1280x720 window
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        core::Snapshot s;
        s.ref = {core::Kind::Leased, QStringLiteral("demo:jobs"), {}};
        s.limit = 5;
        s.limitSource = core::LimitSource::Stored;
        s.serverNowMs = QDateTime::currentMSecsSinceEpoch();
        for (int i = 0; i < 3; ++i) {
            core::Holder h;
            h.id = QStringLiteral("billing-worker-%1@app-%1.prod.internal").arg(i);
            h.rawId = h.id.toUtf8();
            h.token = 1795960490312345 + i;
            h.expiresAtMs = s.serverNowMs + 30000;
            s.holders << h;
        }
        page.applySnapshot(s);
        QTableView *view = page.holderView();
        QTRY_COMPARE(page.holderProxy()->rowCount(), 3);
        auto *delegate = qobject_cast<ui::PlainTextDelegate *>(view->itemDelegate());
        QVERIFY(delegate);
        const int token = model::HolderTableModel::TokenColumn;
        QCOMPARE(delegate->elideMode(token), Qt::ElideLeft);
        QCOMPARE(delegate->elideMode(model::HolderTableModel::HolderColumn), Qt::ElideMiddle);
        // What a cell of the column's width shows, cut as the delegate cuts it.
        QSet<QString> shown;
        const int room =
            view->columnWidth(token) - 2 * (view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin) + 1);
        for (int row = 0; row < 3; ++row) {
            const QString text = view->model()->index(row, token).data().toString();
            shown << view->fontMetrics().elidedText(text, *delegate->elideMode(token), room);
        }
        QVERIFY2(shown.size() == 3,
                 qPrintable(QStringList(shown.cbegin(), shown.cend()).join(QLatin1String(", "))));
    }

    // At 1280x720 the usage column is as wide as a bar needs, so the stale count beside it stays in
    // view; a kept semaphore's "empty since 23:10" is cut in the middle there and keeps its time.
    void emptySinceKeepsItsTime() {
        struct Probe : ui::UsageBarDelegate {
            using ui::UsageBarDelegate::UsageBarDelegate;
            Qt::TextElideMode modeFor(const QModelIndex &index) const {
                QStyleOptionViewItem option;
                initStyleOption(&option, index);
                return option.textElideMode;
            }
        };
        QStandardItemModel model(1, 1);
        model.setItem(0, 0, new QStandardItem(QStringLiteral("empty since 23:10")));
        Probe delegate;
        QCOMPARE(delegate.modeFor(model.index(0, 0)), Qt::ElideMiddle);
    }

    // cluster-split-layout.png: at 1280x720 the refusal banner leaves the card beside the holder
    // table about 90 px, and its wrapped lines were drawn over one another ("…is still" over
    // "Slot 1" and "Watched for"). Short or tall, shrunk after the holder was shown or not, every
    // line of the card is whole and on its own: what does not fit scrolls.
    void holderCardLinesNeverOverlap_data() {
        QTest::addColumn<int>("heightFirst"); // the card's height when the holder is selected
        QTest::addColumn<int>("height");      // and once the page is laid out
        // The table and card share 770 px of a 1280 px window; the card gets 219 of them.
        QTest::newRow("1280x720, no banner") << 250 << 250;
        QTest::newRow("1280x720 with the banner") << 91 << 91;
        QTest::newRow("the banner shows after the holder") << 250 << 91;
        QTest::newRow("the banner goes again") << 91 << 250;
    }
    void holderCardLinesNeverOverlap() {
        QFETCH(int, heightFirst);
        QFETCH(int, height);
        QSplitter page;
        page.addWidget(new QTableView(&page));
        auto *card = new ui::HolderDetailCard(&page);
        page.addWidget(card);
        page.resize(770, heightFirst);
        page.setSizes({545, 219});
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        model::HolderTableModel holders;
        holders.setSnapshot(stuckSlotSnapshot());
        card->showHolder(holders.holderAt(0), &holders);
        page.resize(770, height);
        QTRY_COMPARE(card->height(), height);
        // Twice a second the card is shown again with the holder's new age, as on the page.
        card->showHolder(holders.holderAt(0), &holders);
        const QList<QLabel *> labels = card->findChildren<QLabel *>();
        QVERIFY(labels.size() >= 5);
        for (QLabel *label : labels) {
            if (!label->isVisible())
                continue;
            QVERIFY2(overlapOrCut(card, label, labels).isEmpty(),
                     qPrintable(overlapOrCut(card, label, labels)));
        }
    }

    // page-consul-*-1280x720.png: nine holder columns beside the card; Holder and Session were cut
    // and Age was off to the right, behind a horizontal scroll bar. Every column the page shows is
    // in view at the scroll origin, and every holder's age is read whole without scrolling.
    void consulHolderColumnsInViewAt1280() {
        ui::SemaphorePage page(nullptr);
        page.resize(775, 668); // the page's share of a 1280x720 window
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        page.applySnapshot(test::consulServiceSnapshot());
        QTableView *view = page.holderView();
        QTRY_COMPARE(page.holderProxy()->rowCount(), 3);
        const QAbstractItemView *asView = view;
        const int age = model::HolderTableModel::AgeColumn;
        QTRY_VERIFY2(view->columnWidth(age) >= asView->sizeHintForColumn(age),
                     qPrintable(QStringLiteral("Age is %1 px, \"%2\" needs %3")
                                    .arg(view->columnWidth(age))
                                    .arg(view->model()->index(0, age).data().toString())
                                    .arg(asView->sizeHintForColumn(age))));
        QTRY_VERIFY(!view->horizontalScrollBar()->isVisible());
        for (int c = 0; c < view->model()->columnCount(); ++c) {
            if (!view->isColumnHidden(c))
                QVERIFY2(outOfView(view, c).isEmpty(), qPrintable(outOfView(view, c)));
        }
    }
};

SEMSCOPE_TEST_MAIN(TestScreenFit)
#include "tst_screenfit.moc"
