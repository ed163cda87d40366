// One load-test run on screen, at the sizes it gets on a 1280x720 projector and a 1500x900 laptop:
// every chart's axis labels and title read whole (QtCharts cut them all to "..." once the charts
// got too short: the training page showed no time axis and no holder count), and every figure of
// the summary table reads whole (p99 "186.65 ..." beside the charts).
#include "TestMain.h"
#include "core/loadtest/SafetyChecker.h"
#include "model/LoadTestSummaryModel.h"
#include "ui/loadtest/LoadTestCharts.h"
#include "ui/loadtest/LoadTestRunView.h"
#include "ui/loadtest/LoadTestSummaryTable.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLabel>
#include <QLineSeries>
#include <QScatterSeries>
#include <QScrollBar>
#include <QStyleOptionViewItem>
#include <QTest>
#include <QValueAxis>

using semscope::core::LoadTestProgress;
using semscope::core::LoadTestReport;
using semscope::ui::LoadTestRunView;

Q_DECLARE_METATYPE(LoadTestRunView::Arrangement)

namespace {

constexpr qint64 kMs = 1000000;

// The texts the chart shows: its title, axis labels and titles, legend entries.
QStringList chartTexts(QChartView *view) {
    QStringList texts;
    for (QGraphicsItem *item : view->scene()->items()) {
        if (!item->isVisible())
            continue;
        if (auto *text = dynamic_cast<QGraphicsTextItem *>(item))
            texts << text->toPlainText();
        else if (auto *simple = dynamic_cast<QGraphicsSimpleTextItem *>(item))
            texts << simple->text();
    }
    texts.removeAll(QString());
    return texts;
}

// An over-admitting run like the training's incr-lock: up to 24 holders under a limit of 1.
void feedOverAdmittingRun(LoadTestRunView &view) {
    view.begin(QStringLiteral("incr-lock"), 4000, 1);
    LoadTestReport report;
    report.label = QStringLiteral("incr-lock");
    report.ok = true;
    report.config.limit = 1;
    for (int i = 1; i <= 16; ++i) {
        LoadTestProgress p;
        p.elapsedMs = i * 250;
        p.pairsPerSecond = 3669.0 + i;
        p.acquireP50Ms = 6.36;
        p.acquireP90Ms = 23.86;
        p.acquireP99Ms = 1174.41;
        p.holders = 1 + (i * 7) % 24;
        p.maxHolders = 24;
        p.limit = 1;
        p.overAdmissions = i / 4;
        view.addSample(p);
        report.timeline << p;
    }
    for (qint64 ms : {6, 24, 186, 1997, 1649})
        report.acquireWait.record(ms * kMs + 654321);
    report.elapsedMs = 4000;
    report.grants = 14676;
    report.pairsPerSecond = 3669.0;
    report.attemptsPerGrant = 50.54;
    report.longestWaitNs = 1649 * kMs + 910000;
    report.safety.overAdmissions = 3;
    report.safety.maxConcurrentHolders = 24;
    report.safety.overAdmittedNs = 3500 * kMs;
    for (int i = 0; i < 3; ++i) {
        semscope::core::OverAdmission e;
        e.atNs = (i * 1300 + 10) * kMs;
        e.untilNs = e.atNs + 1100 * kMs;
        e.maxHolders = 20 + i;
        report.safety.episodes << e;
    }
    view.finish(report);
}

// A run that keeps to its limit, with waits of a few milliseconds (the atomic side).
void feedCalmRun(LoadTestRunView &view) {
    view.begin(QStringLiteral("lock"), 4000, 1);
    LoadTestReport report;
    report.label = QStringLiteral("lock");
    report.ok = true;
    report.config.limit = 1;
    for (int i = 1; i <= 16; ++i) {
        LoadTestProgress p;
        p.elapsedMs = i * 250;
        p.pairsPerSecond = 230.0;
        p.acquireP50Ms = 1.0;
        p.acquireP90Ms = 3.0;
        p.acquireP99Ms = 12.0;
        p.holders = 1;
        p.maxHolders = 1;
        p.limit = 1;
        view.addSample(p);
        report.timeline << p;
    }
    report.elapsedMs = 4000;
    report.grants = 920;
    report.pairsPerSecond = 230.0;
    report.safety.maxConcurrentHolders = 1;
    view.finish(report);
}

double axisTop(QChartView *view) {
    for (QAbstractAxis *axis : view->chart()->axes(Qt::Vertical))
        if (auto *value = qobject_cast<QValueAxis *>(axis))
            return value->max();
    return -1;
}

} // namespace

class TestLoadTestRunView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyTextReadsWhole_data() {
        QTest::addColumn<LoadTestRunView::Arrangement>("arrangement");
        QTest::addColumn<QSize>("size");
        QTest::newRow("training column, 1280x720")
            << LoadTestRunView::Arrangement::TableBelow << QSize(610, 430);
        QTest::newRow("training column, 1500x900")
            << LoadTestRunView::Arrangement::TableBelow << QSize(720, 600);
        QTest::newRow("load test page, 1280x720")
            << LoadTestRunView::Arrangement::TableBeside << QSize(690, 560);
        QTest::newRow("load test page, 1500x900")
            << LoadTestRunView::Arrangement::TableBeside << QSize(860, 740);
    }
    void everyTextReadsWhole() {
        QFETCH(LoadTestRunView::Arrangement, arrangement);
        QFETCH(QSize, size);
        LoadTestRunView view(arrangement);
        QAbstractItemModelTester tester(view.summaryModel());
        // The page scrolls rather than squeeze the run below its minimum.
        view.resize(size.expandedTo(view.minimumSizeHint()));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        feedOverAdmittingRun(view);

        const QList<QChartView *> charts = view.charts()->findChildren<QChartView *>();
        QCOMPARE(charts.size(), 3);
        for (QChartView *chart : charts) {
            // QtCharts lays a chart out again on its own posted events after the labels change:
            // what counts is what it settles on.
            const auto cut = [chart] {
                const QStringList texts = chartTexts(chart);
                return texts.size() < 6 || texts.join(QLatin1Char('|')).contains(QLatin1String("..."));
            };
            QTRY_VERIFY2_WITH_TIMEOUT(!cut(),
                                      qPrintable(QStringLiteral("%1 at %2x%3 cuts a text: %4")
                                                     .arg(chart->chart()->title())
                                                     .arg(chart->width())
                                                     .arg(chart->height())
                                                     .arg(chartTexts(chart).join(QLatin1String(" | ")))),
                                      3000);
        }

        // The figures: each as wide as its delegate wants it, in the column it is shown in.
        semscope::ui::LoadTestSummaryTable *table = view.summaryTable();
        QStyleOptionViewItem option;
        option.initFrom(table);
        for (int row = 0; row < table->model()->rowCount(); ++row) {
            for (int column = 0; column < table->model()->columnCount(); ++column) {
                const QModelIndex index = table->model()->index(row, column);
                const int needs = table->itemDelegateForIndex(index)->sizeHint(option, index).width();
                QVERIFY2(table->columnWidth(column) >= needs,
                         qPrintable(QStringLiteral("'%1' gets %2 px and needs %3")
                                        .arg(index.data().toString())
                                        .arg(table->columnWidth(column))
                                        .arg(needs)));
            }
        }
    }

    // Issue 31 item 8: the verdict counts what the chart marks, and both say what that is: a
    // stretch of time above the limit (a run above it throughout is one), with how long it lasted.
    void overAdmissionIsOneThingInCountAndChart() {
        LoadTestRunView view(LoadTestRunView::Arrangement::TableBelow);
        feedOverAdmittingRun(view);
        const QString verdict = view.verdictLabel()->text();
        QVERIFY2(verdict.contains(QLatin1String("3 over-admissions")), qPrintable(verdict));
        QVERIFY2(verdict.contains(QLatin1String("stretches above the limit: 3.5 s of the 4.0 s run")),
                 qPrintable(verdict));
        QScatterSeries *marks = view.charts()->overAdmissionSeries();
        QCOMPARE(marks->count(), 3);
        QCOMPARE(marks->name(), QStringLiteral("over-admission"));
        auto *holders = view.charts()->findChild<QChartView *>(QStringLiteral("holdersChart"));
        QVERIFY2(holders->chart()->title().contains(QLatin1String("stretch above it begins")),
                 qPrintable(holders->chart()->title()));
        QVERIFY(holders->toolTip().contains(QLatin1String("stretch of time")));
    }

    // The holders' line is drawn over the limit's dashes (a run at its limit shows its holders).
    void holdersAreDrawnOverTheLimit() {
        LoadTestRunView view(LoadTestRunView::Arrangement::TableBelow);
        const QList<QAbstractSeries *> series =
            view.charts()->findChild<QChartView *>(QStringLiteral("holdersChart"))->chart()->series();
        QVERIFY(series.indexOf(view.charts()->limitSeries()) >= 0);
        QVERIFY(series.indexOf(view.charts()->holdersSeries()) >
                series.indexOf(view.charts()->limitSeries()));
    }

    // Unsafe beside atomic: every chart on the same scale, and the tables scroll together.
    void pairedRunsShareScalesAndScrolling() {
        QWidget page;
        auto *unsafe = new LoadTestRunView(LoadTestRunView::Arrangement::TableBelow, &page);
        auto *atomic = new LoadTestRunView(LoadTestRunView::Arrangement::TableBelow, &page);
        unsafe->pairWith(atomic);
        unsafe->setGeometry(0, 0, 600, 520);
        atomic->setGeometry(600, 0, 600, 520);
        page.resize(1200, 520);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        feedOverAdmittingRun(*unsafe);
        feedCalmRun(*atomic);
        for (const char *chart : {"throughputChart", "latencyChart", "holdersChart"}) {
            const double left = axisTop(unsafe->charts()->findChild<QChartView *>(QLatin1String(chart)));
            const double right = axisTop(atomic->charts()->findChild<QChartView *>(QLatin1String(chart)));
            QVERIFY2(left > 0 && left == right,
                     qPrintable(QStringLiteral("%1: %2 vs %3").arg(chart).arg(left).arg(right)));
        }
        QVERIFY(axisTop(atomic->charts()->findChild<QChartView *>(QStringLiteral("latencyChart"))) >= 1174);

        QScrollBar *left = unsafe->summaryTable()->verticalScrollBar();
        QScrollBar *right = atomic->summaryTable()->verticalScrollBar();
        QTRY_VERIFY(left->maximum() > 0 && right->maximum() > 0);
        left->setValue(left->maximum() / 2);
        QCOMPARE(right->value(), left->value());
        right->setValue(0);
        QCOMPARE(left->value(), 0);
    }

    // View > Zoom grows the application font: the verdict banner grows with it.
    void verdictGrowsWithTheFont() {
        LoadTestRunView view(LoadTestRunView::Arrangement::TableBelow);
        view.resize(700, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        feedOverAdmittingRun(view);
        const QFont original = QApplication::font();
        const qreal before = QFontInfo(view.verdictLabel()->font()).pointSizeF();
        QFont zoomed = original;
        zoomed.setPointSizeF(original.pointSizeF() * 1.3);
        QApplication::setFont(zoomed);
        // The new font reaches the widgets through posted events: wait for the banner's.
        (void)QTest::qWaitFor(
            [&] { return QFontInfo(view.verdictLabel()->font()).pointSizeF() > before * 1.2; }, 3000);
        const qreal after = QFontInfo(view.verdictLabel()->font()).pointSizeF();
        const bool bold = view.verdictLabel()->font().bold();
        QApplication::setFont(original);
        QVERIFY2(after > before * 1.2, qPrintable(QStringLiteral("%1 pt -> %2 pt").arg(before).arg(after)));
        QVERIFY(bold);
    }

    // slots-crash-leak: crashed clients' slots that never come back show on the holders chart and
    // in the verdict, not "0 holders" while every slot is gone.
    void leakedSlotsShow() {
        LoadTestRunView view(LoadTestRunView::Arrangement::TableBelow);
        view.setAboutLeaks(true);
        view.begin(QStringLiteral("slots-crash-leak"), 4000, 5);
        QVERIFY(!view.charts()->crashedSlotsSeries()->isVisible());
        for (int i = 1; i <= 8; ++i) {
            LoadTestProgress p;
            p.elapsedMs = i * 250;
            p.limit = 5;
            p.crashes = std::min(i, 5);
            p.crashedSlots = p.crashes;
            p.holders = 5 - p.crashedSlots;
            p.maxHolders = 5;
            view.addSample(p);
        }
        QLineSeries *crashed = view.charts()->crashedSlotsSeries();
        QVERIFY(crashed->isVisible());
        QCOMPARE(crashed->at(crashed->count() - 1).y(), 5.0);
        const QString verdict = view.verdictLabel()->text();
        QVERIFY2(verdict.contains(QLatin1String("5 of 5 slots in use (5 by crashed clients)")),
                 qPrintable(verdict));
    }
};

SEMSCOPE_TEST_MAIN(TestLoadTestRunView)
#include "tst_loadtestrunview.moc"
