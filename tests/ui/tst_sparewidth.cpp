// ui/SpareWidth: which columns grow into the room a table has left, and how far.

#include "TestMain.h"
#include "ui/SpareWidth.h"

#include <QHeaderView>
#include <QStandardItemModel>
#include <QTableView>
#include <QtTest>

using namespace semscope;

class TestSpareWidth : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void growsIntoTheRoomLeft_data();
    void growsIntoTheRoomLeft();
    void neverNarrowsAColumn();
    void restartGivesBackWhatItGrew();
    void followsTheRowsAndTheSize();
    void givesBackWhenTheTableNarrows();
    void aWidthTheOperatorDragsStays();
    void measuresOnlyTheRowsInView();
};

namespace {

// Four columns of 80 px, the last stretched over the rest, in a view `viewWidth` wide: cells of
// `texts[c]` characters (x's) in column c.
struct Table {
    QStandardItemModel model{1, 4};
    QTableView view;
    explicit Table(const QList<int> &texts, int viewWidth) {
        for (int c = 0; c < 4; ++c)
            model.setItem(0, c, new QStandardItem(QString(texts.value(c), QLatin1Char('x'))));
        view.setModel(&model);
        view.verticalHeader()->hide();
        view.horizontalHeader()->setStretchLastSection(true);
        view.setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        for (int c = 0; c < 4; ++c)
            view.horizontalHeader()->resizeSection(c, 80);
        view.resize(viewWidth, 200);
    }
    int needs(int column) const {
        const QAbstractItemView *v = &view;
        return std::max(v->sizeHintForColumn(column), view.horizontalHeader()->sectionSizeHint(column));
    }
    int width(int column) const { return view.columnWidth(column); }
};

} // namespace

void TestSpareWidth::growsIntoTheRoomLeft_data() {
    QTest::addColumn<QList<int>>("texts"); // characters in each column's cell
    QTest::addColumn<int>("viewWidth");
    QTest::addColumn<QList<int>>("grows");  // the columns that end at what their cells need
    QTest::addColumn<QList<int>>("partly"); // the column that took the last of the room
    QTest::addColumn<QList<int>>("stays");  // the columns left at 80 px
    QTest::newRow("room for both, the first asked first")
        << QList<int>{2, 30, 20, 2} << 900 << QList<int>{1, 2} << QList<int>{} << QList<int>{0};
    QTest::newRow("room for part of the first asked only")
        << QList<int>{2, 30, 20, 2} << 330 << QList<int>{} << QList<int>{1} << QList<int>{0, 2};
    QTest::newRow("no room: the last needs it all")
        << QList<int>{2, 30, 20, 60} << 500 << QList<int>{} << QList<int>{} << QList<int>{0, 1, 2};
    QTest::newRow("cells that fit already")
        << QList<int>{2, 3, 3, 2} << 900 << QList<int>{} << QList<int>{} << QList<int>{0, 1, 2};
}

void TestSpareWidth::growsIntoTheRoomLeft() {
    QFETCH(QList<int>, texts);
    QFETCH(int, viewWidth);
    QFETCH(QList<int>, grows);
    QFETCH(QList<int>, partly);
    QFETCH(QList<int>, stays);
    Table t(texts, viewWidth);
    t.view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&t.view));
    const QMap<int, int> grown = ui::growColumnsIntoSpareWidth(&t.view, {1, 2, 0}, 2000);
    for (int c : grows) {
        QCOMPARE(t.width(c), t.needs(c));
        QCOMPARE(grown.value(c), t.needs(c) - 80);
    }
    for (int c : partly)
        QVERIFY2(t.width(c) > 80 && t.width(c) < t.needs(c), qPrintable(QString::number(t.width(c))));
    for (int c : stays) {
        QCOMPARE(t.width(c), 80);
        QVERIFY(!grown.contains(c));
    }
    // Nothing grew past the viewport's edge: the last column still shows what its cell needs.
    int left = 0;
    for (int c = 0; c < 3; ++c)
        left += t.width(c);
    QVERIFY2(left + std::min(t.needs(3), 80) <= t.view.viewport()->width() || grown.isEmpty(),
             qPrintable(QStringLiteral("%1 of %2").arg(left).arg(t.view.viewport()->width())));
}

void TestSpareWidth::neverNarrowsAColumn() {
    Table t({2, 30, 2, 2}, 900);
    t.view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&t.view));
    t.view.horizontalHeader()->resizeSection(1, 400); // wider than its cell: the operator's choice
    ui::growColumnsIntoSpareWidth(&t.view, {1}, 2000);
    QCOMPARE(t.width(1), 400);
    // And a cap: at most maxWidth.
    ui::growColumnsIntoSpareWidth(&t.view, {2}, 20);
    QCOMPARE(t.width(2), 80);
}

void TestSpareWidth::restartGivesBackWhatItGrew() {
    Table t({2, 30, 2, 2}, 900);
    ui::SpareWidthKeeper keeper(&t.view, {1}, 200);
    t.view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&t.view));
    QTRY_COMPARE(t.width(1), t.needs(1));
    // Other rows: short names now. The column shrinks back, then grows for what it shows.
    t.model.item(0, 1)->setText(QStringLiteral("xxxxxxxxxxxxxxxxxxxx"));
    keeper.restart();
    QTRY_COMPARE(t.width(1), std::max(80, t.needs(1)));
    QVERIFY(t.width(1) < 30 * t.view.fontMetrics().averageCharWidth());
}

void TestSpareWidth::followsTheRowsAndTheSize() {
    Table t({2, 3, 2, 2}, 300);
    ui::SpareWidthKeeper keeper(&t.view, {1}, 200);
    t.view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&t.view));
    QTRY_COMPARE(t.width(1), 80);
    // A longer name arrives: it grows as far as the room allows.
    t.model.item(0, 1)->setText(QString(40, QLatin1Char('x')));
    QTRY_VERIFY(t.width(1) > 80);
    const int narrow = t.width(1);
    QVERIFY(narrow < t.needs(1));
    // The window grows: so does the column, up to what its cell needs.
    t.view.resize(1200, 200);
    QTRY_COMPARE(t.width(1), t.needs(1));
}

// The holder card beside the table grew (or the window shrank): a column grown while the table was
// wider pushed the last one out of view (demo:jobs' Age at 1280x720). It gives back and grows anew.
void TestSpareWidth::givesBackWhenTheTableNarrows() {
    Table t({2, 40, 2, 2}, 1000);
    ui::SpareWidthKeeper keeper(&t.view, {1}, 200);
    t.view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&t.view));
    QTRY_COMPARE(t.width(1), t.needs(1));
    t.view.resize(t.needs(1) + 80 + 80, 200); // less than all four need
    QHeaderView *header = t.view.horizontalHeader();
    QTRY_VERIFY2(header->sectionViewportPosition(3) + t.needs(3) <= t.view.viewport()->width(),
                 qPrintable(QStringLiteral("the last column at %1 of %2")
                                .arg(header->sectionViewportPosition(3))
                                .arg(t.view.viewport()->width())));
    QTRY_VERIFY(t.width(1) > 80); // it still has what room there is
    QVERIFY(header->sectionViewportPosition(3) + t.needs(3) <= t.view.viewport()->width());
}

void TestSpareWidth::aWidthTheOperatorDragsStays() {
    Table t({2, 30, 2, 2}, 900);
    ui::SpareWidthKeeper keeper(&t.view, {1, 2}, 200);
    t.view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&t.view));
    QTRY_COMPARE(t.width(1), t.needs(1));
    // The operator drags the right edge of column 1 to the left, narrower than its text.
    QHeaderView *header = t.view.horizontalHeader();
    const int edge = header->sectionViewportPosition(1) + header->sectionSize(1) - 1;
    const int y = header->height() / 2;
    QTest::mouseMove(header->viewport(), QPoint(edge, y));
    QTest::mousePress(header->viewport(), Qt::LeftButton, {}, QPoint(edge, y));
    for (int x = edge - 10; x >= edge - 60; x -= 10)
        QTest::mouseMove(header->viewport(), QPoint(x, y));
    QTest::mouseRelease(header->viewport(), Qt::LeftButton, {}, QPoint(edge - 60, y));
    const int dragged = t.width(1);
    QVERIFY2(dragged < t.needs(1), qPrintable(QString::number(dragged)));
    // New rows and a resize: the keeper grows column 2 for its longer text, and leaves column 1.
    t.model.item(0, 1)->setText(QString(31, QLatin1Char('x')));
    t.model.item(0, 2)->setText(QString(20, QLatin1Char('x')));
    t.view.resize(1000, 200);
    QTRY_COMPARE(t.width(2), t.needs(2));
    QCOMPARE(t.width(1), dragged);
}

// A refresh of a 10,000-holder semaphore must not measure 10,000 cells: only the rows in view count.
// Qt's own measurement goes on past them (up to the header's resizeContentsPrecision, 1,000 rows),
// so a wide holder name far below the view widened the column, and cost 40 ms a refresh.
void TestSpareWidth::measuresOnlyTheRowsInView() {
    QStandardItemModel model(2000, 3);
    for (int r = 0; r < model.rowCount(); ++r) {
        model.setItem(r, 0, new QStandardItem(QStringLiteral("x")));
        model.setItem(r, 1, new QStandardItem(QStringLiteral("xx")));
        model.setItem(r, 2, new QStandardItem(QStringLiteral("x")));
    }
    model.item(600, 1)->setText(QString(60, QLatin1Char('x'))); // far out of view
    QTableView view;
    view.setModel(&model);
    view.horizontalHeader()->setStretchLastSection(true);
    view.setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    for (int c = 0; c < 3; ++c)
        view.horizontalHeader()->resizeSection(c, 60);
    view.resize(900, 300);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(view.rowAt(view.viewport()->height()) < 600);

    const QMap<int, int> grown = ui::growColumnsIntoSpareWidth(&view, {1}, 2000);
    QVERIFY2(!grown.contains(1), qPrintable(QStringLiteral("grew by %1 px").arg(grown.value(1))));
    QCOMPARE(view.columnWidth(1), 60);
    // The precision the view had is left as it was.
    QCOMPARE(view.horizontalHeader()->resizeContentsPrecision(), 1000);

    // Scrolled into view, the wide cell counts.
    view.scrollTo(model.index(600, 1));
    QVERIFY(ui::growColumnsIntoSpareWidth(&view, {1}, 2000).value(1) > 0);
}

SEMSCOPE_TEST_MAIN(TestSpareWidth)
#include "tst_sparewidth.moc"
