// app/cli/LoadtestFailureText.h: the words `semscope-cli loadtest` fails with say a count of one in
// the singular ("1 operation failed", "1 over-admission"), which a real run cannot be made to hit on
// purpose.
#include "TestMain.h"
#include "app/cli/LoadtestFailureText.h"

#include <QTest>

using namespace semscope::cli;

class TestCliLoadtestFailureText : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void operationsFailed_data() {
        QTest::addColumn<qint64>("errors");
        QTest::addColumn<QString>("expected");
        QTest::newRow("one") << qint64(1)
                             << "load test atomic: 1 operation failed; the server was unavailable for 300 ms";
        QTest::newRow("many")
            << qint64(40) << "load test atomic: 40 operations failed; the server was unavailable for 300 ms";
    }
    void operationsFailed() {
        QFETCH(qint64, errors);
        QFETCH(QString, expected);
        QCOMPARE(operationsFailedText(QStringLiteral("atomic"), errors, 300), expected);
    }

    void unsafeRun_data() {
        QTest::addColumn<QString>("semaphore");
        QTest::addColumn<qint64>("overAdmissions");
        QTest::addColumn<qint64>("tokenViolations");
        QTest::addColumn<QString>("expected");
        QTest::newRow("one over-admission")
            << QString() << qint64(1) << qint64(0) << "1 over-admission, 0 token violations";
        QTest::newRow("one token violation")
            << QString() << qint64(0) << qint64(1) << "0 over-admissions, 1 token violation";
        QTest::newRow("many, named") << "pool-2" << qint64(3) << qint64(2)
                                     << "pool-2: 3 over-admissions, 2 token violations";
    }
    void unsafeRun() {
        QFETCH(QString, semaphore);
        QFETCH(qint64, overAdmissions);
        QFETCH(qint64, tokenViolations);
        QFETCH(QString, expected);
        QCOMPARE(unsafeRunText(semaphore, overAdmissions, tokenViolations), expected);
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestCliLoadtestFailureText)
#include "tst_cli_loadtestfailuretext.moc"
