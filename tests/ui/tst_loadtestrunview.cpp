// One load-test run on screen, at the sizes it gets on a 1280x720 projector and a 1500x900 laptop:
// every chart's axis labels and title read whole (QtCharts cut them all to "..." once the charts
// got too short: the training page showed no time axis and no holder count), and every figure of
// the summary table reads whole (p99 "186.65 ..." beside the charts).
#include "TestMain.h"
#include "model/LoadTestSummaryModel.h"
#include "ui/loadtest/LoadTestCharts.h"
#include "ui/loadtest/LoadTestRunView.h"
#include "ui/loadtest/LoadTestSummaryTable.h"

#include <QAbstractItemModelTester>
#include <QChart>
#include <QChartView>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QStyleOptionViewItem>
#include <QTest>

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
    view.finish(report);
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
};

SEMSCOPE_TEST_MAIN(TestLoadTestRunView)
#include "tst_loadtestrunview.moc"
