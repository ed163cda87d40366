// app/cli/ListProgress: what `list` writes on stderr while discovery runs and when it ends. A pipe
// once showed "scanned 3 of 3 keys, 0 semaphores so far" right above "scanned 3 keys, found 1
// semaphore" (the reports that found it came within the second and were never written); the last
// progress line now always says what the summary says. Timings are given, not measured.
#include "TestMain.h"
#include "app/cli/ListProgress.h"

#include <QTest>

using namespace semscope::cli;

// One discovery report: when, keys scanned, of how many (-1: unknown), semaphores newly found.
struct Report {
    qint64 elapsedMs;
    qint64 scanned;
    qint64 total;
    qint64 found;
    double walked = -1; // the share of the keyspace walked (from the SCAN cursor), -1 unknown
};
Q_DECLARE_METATYPE(QList<Report>)

class TestCliListProgress : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void progressAndSummaryAgree_data() {
        QTest::addColumn<bool>("terminal");
        QTest::addColumn<bool>("matchedOnly"); // the scanned counts are matches (Redis SCAN MATCH)
        QTest::addColumn<QList<Report>>("reports");
        QTest::addColumn<qint64>("scanned"); // what the result says
        QTest::addColumn<qint64>("found");
        QTest::addColumn<QString>("written");

        const QString summary1 = QStringLiteral("scanned 3 keys, found 1 semaphore\n");
        QTest::newRow("pipe, done within a second: the summary alone")
            << false << false << QList<Report>{{0, 3, 3, 0}, {40, 3, 3, 1}} << qint64(3) << qint64(1)
            << summary1;
        QTest::newRow("pipe, a line a second, the one left behind brought up to date")
            << false << false << QList<Report>{{0, 0, 100, 0}, {1000, 50, 100, 1}, {1500, 100, 100, 1}}
            << qint64(100) << qint64(1)
            << QStringLiteral("scanned 50 of 100 keys, 1 semaphore so far\n"
                              "scanned 100 of 100 keys, 1 semaphore so far\n"
                              "scanned 100 keys, found 1 semaphore\n");
        QTest::newRow("pipe, the last line already says it")
            << false << false << QList<Report>{{1200, 100, 100, 2}} << qint64(100) << qint64(2)
            << QStringLiteral("scanned 100 of 100 keys, 2 semaphores so far\n"
                              "scanned 100 keys, found 2 semaphores\n");
        QTest::newRow("pipe, the result found more than the reports")
            << false << false << QList<Report>{{1000, 0, 0, 0}} << qint64(0) << qint64(1)
            << QStringLiteral("scanned 0 of 0 keys, 0 semaphores so far\n"
                              "scanned 0 of 0 keys, 1 semaphore so far\n"
                              "scanned 0 keys, found 1 semaphore\n");
        QTest::newRow("pipe, total unknown")
            << false << false << QList<Report>{{1000, 5, -1, 1}} << qint64(5) << qint64(1)
            << QStringLiteral("scanned 5 keys, 1 semaphore so far\n"
                              "scanned 5 keys, found 1 semaphore\n");
        QTest::newRow("terminal, one line rewritten at every report")
            << true << false << QList<Report>{{0, 3, 3, 0}, {40, 3, 3, 1}} << qint64(3) << qint64(1)
            << QStringLiteral("\rscanned 3 of 3 keys, 0 semaphores so far"
                              "\rscanned 3 of 3 keys, 1 semaphore so far \n") +
                   summary1;
        QTest::newRow("terminal, the result found more than the reports")
            << true << false << QList<Report>{{0, 3, 3, 0}} << qint64(3) << qint64(1)
            << QStringLiteral("\rscanned 3 of 3 keys, 0 semaphores so far"
                              "\rscanned 3 of 3 keys, 1 semaphore so far \n") +
                   summary1;
        // `list --match` on Redis: SCAN MATCH returns only the keys that match, so "scanned 12 of
        // 1000000 keys" stood still for the whole walk.
        QTest::newRow("pipe, --match on Redis")
            << false << true << QList<Report>{{1000, 12, 1000000, 3}, {2000, 12, 1000000, 0}} << qint64(12)
            << qint64(3)
            << QStringLiteral("scanning 1000000 keys: 12 keys matched, 3 semaphores so far\n"
                              "scanning 1000000 keys: 12 keys matched, 3 semaphores so far\n"
                              "12 keys matched, found 3 semaphores\n");
        // ... and how far the walk is, from the scan's cursor.
        QTest::newRow("pipe, --match on Redis, the share walked")
            << false << true << QList<Report>{{1000, 12, 1000000, 3, 0.404}, {2000, 12, 1000000, 0, 0.9}}
            << qint64(12) << qint64(3)
            << QStringLiteral("scanning 1000000 keys, 40 % walked: 12 keys matched, 3 semaphores so far\n"
                              "scanning 1000000 keys, 90 % walked: 12 keys matched, 3 semaphores so far\n"
                              "scanning 1000000 keys, 100 % walked: 12 keys matched, 3 semaphores so far\n"
                              "12 keys matched, found 3 semaphores\n");
        QTest::newRow("pipe, --match on Redis, one key, total unknown")
            << false << true << QList<Report>{{1000, 1, -1, 1}} << qint64(1) << qint64(1)
            << QStringLiteral("scanning: 1 key matched, 1 semaphore so far\n"
                              "1 key matched, found 1 semaphore\n");
        QTest::newRow("terminal, no report")
            << true << false << QList<Report>{} << qint64(3) << qint64(1) << summary1;
    }
    void progressAndSummaryAgree() {
        QFETCH(bool, terminal);
        QFETCH(bool, matchedOnly);
        QFETCH(QList<Report>, reports);
        QFETCH(qint64, scanned);
        QFETCH(qint64, found);
        QFETCH(QString, written);
        ListProgress progress(terminal, matchedOnly);
        QString out;
        for (const Report &r : reports)
            out += progress.report(r.elapsedMs, r.scanned, r.total, r.found, r.walked);
        out += progress.finish(scanned, found);
        out += progress.summary(scanned, found);
        QCOMPARE(out, written);
    }

    void interruptedEndsATerminalLine() {
        ListProgress terminal(true);
        QCOMPARE(terminal.interrupted(), QString());
        terminal.report(0, 1, 10, 0);
        QCOMPARE(terminal.interrupted(), QStringLiteral("\n"));
        ListProgress pipe(false);
        pipe.report(1000, 1, 10, 0);
        QCOMPARE(pipe.interrupted(), QString());
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestCliListProgress)
#include "tst_cli_listprogress.moc"
