// monitor::DiscoverySchedule: how often `watch`, `serve` and the app look for new semaphores.
#include "TestMain.h"
#include "monitor/DiscoverySchedule.h"

#include <QTest>

using semscope::monitor::DiscoverySchedule;

class TestDiscoverySchedule : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void smallKeyspaceIsScannedEveryInterval() {
        DiscoverySchedule s(500);
        QCOMPARE(s.nextDelayMs(), 500); // nothing measured yet: the interval
        s.recordDiscovery(2);           // 2 ms per scan: 2 / (2 + 500) is far below 5 %
        QCOMPARE(s.nextDelayMs(), 500);
        QCOMPARE(s.explanation(),
                 QStringLiteral("looking for new semaphores every 500 ms (a scan costs ~2 ms, budget 5 %)"));
    }

    void expensiveScanWaitsLongerWithinTheBudget() {
        DiscoverySchedule s(500);
        s.recordDiscovery(200); // at 5 %, a 200 ms scan may run once per 4 s: 200 / (200 + 3800)
        QCOMPARE(s.nextDelayMs(), 3800);
        const double share = 200.0 / (200.0 + double(s.nextDelayMs()));
        QVERIFY(share <= DiscoverySchedule::kDefaultBudget + 1e-9);
        QVERIFY2(s.explanation().contains(QLatin1String("~200 ms")), qPrintable(s.explanation()));
        QVERIFY2(s.explanation().contains(QLatin1String("every 3.8 s")), qPrintable(s.explanation()));
    }

    void hugeScanIsBoundedByTheLongestGap() {
        DiscoverySchedule s(1000, 0.05, 60000);
        s.recordDiscovery(30000); // 30 s per scan would need 570 s between scans
        QCOMPARE(s.nextDelayMs(), 60000);
        QVERIFY2(s.explanation().contains(QLatin1String("longest gap")), qPrintable(s.explanation()));
    }

    void costlierScanCountsAtOnceCheaperGradually() {
        DiscoverySchedule s(100);
        s.recordDiscovery(10);
        s.recordDiscovery(1000); // the keyspace grew: the budget holds from the next gap on
        QCOMPARE(s.costMs(), 1000.0);
        QCOMPARE(s.nextDelayMs(), 19000);
        s.recordDiscovery(10); // one cheap scan (a lucky moment) does not undo it at once
        QVERIFY(s.costMs() > 500);
        for (int i = 0; i < 30; ++i)
            s.recordDiscovery(10);
        // 10 ms per scan: 10 / (10 + 190) = 5 % (the smoothed cost is a hair above 10 ms)
        QVERIFY2(s.nextDelayMs() >= 190 && s.nextDelayMs() <= 191,
                 qPrintable(QString::number(s.nextDelayMs())));
    }

    void budgetIsAParameter() {
        DiscoverySchedule s(100, 0.5); // half the server's time: as long a gap as a scan
        s.recordDiscovery(400);
        QCOMPARE(s.nextDelayMs(), 400);
    }

    void onlyRealChangesAreWorthTelling() {
        QVERIFY(DiscoverySchedule::worthTelling(0, 500)); // the first time
        QVERIFY(!DiscoverySchedule::worthTelling(500, 500));
        QVERIFY(!DiscoverySchedule::worthTelling(500, 900));
        QVERIFY(DiscoverySchedule::worthTelling(500, 1000));
        QVERIFY(DiscoverySchedule::worthTelling(1000, 500));
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestDiscoverySchedule)
#include "tst_discoveryschedule.moc"
