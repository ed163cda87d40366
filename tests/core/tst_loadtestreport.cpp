// core::LoadTestReport::summaryText, the report `semscope-cli loadtest` prints: each count said in
// words, a count of one in the singular ("1 over-admission (max 1 holder at once …)").
#include "TestMain.h"
#include "core/loadtest/LoadTestReport.h"

#include <QTest>

using namespace semscope::core;

class TestLoadTestReport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void countsAreSaidInWords_data() {
        QTest::addColumn<qint64>("n");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("one") << qint64(1)
                             << QStringList{QStringLiteral(": 1 grant in "),
                                            QStringLiteral("1 operation failed;"),
                                            QStringLiteral("1 operation was cut off by a failover"),
                                            QStringLiteral("1 grant refused (not acknowledged"),
                                            QStringLiteral("safety: 1 over-admission (max 1 holder at once"),
                                            QStringLiteral(", 1 token violation\n")};
        QTest::newRow("three") << qint64(3)
                               << QStringList{
                                      QStringLiteral(": 3 grants in "),
                                      QStringLiteral("3 operations failed;"),
                                      QStringLiteral("3 operations were cut off by a failover"),
                                      QStringLiteral("3 grants refused (not acknowledged"),
                                      QStringLiteral("safety: 3 over-admissions (max 3 holders at once"),
                                      QStringLiteral(", 3 token violations\n")};
    }
    void countsAreSaidInWords() {
        QFETCH(qint64, n);
        QFETCH(QStringList, expected);
        LoadTestReport r;
        r.ok = true;
        r.label = QStringLiteral("load test jobs");
        r.config.limit = 5;
        r.config.replicas = 1;
        r.grants = n;
        r.errors = n;
        r.failoverInterruptions = n;
        r.refusedGrants = n;
        r.safety.overAdmissions = n;
        r.safety.maxConcurrentHolders = int(n);
        r.safety.tokenViolations = n;
        const QString text = r.summaryText();
        for (const QString &e : expected)
            QVERIFY2(text.contains(e), qPrintable(QStringLiteral("no \"%1\" in:\n%2").arg(e, text)));
    }
};

SEMSCOPE_TEST_MAIN(TestLoadTestReport)
#include "tst_loadtestreport.moc"
