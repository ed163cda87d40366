#include "TestMain.h"
#include "core/audit/LoadTestAudit.h"

#include <QtTest>

using namespace semscope;

// A load test writes like an operator, so each run is an audit entry saying what it did to which
// semaphore and how it ended.
class TestLoadTestAudit : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void outcome_data() {
        QTest::addColumn<bool>("ran");
        QTest::addColumn<qint64>("overAdmissions");
        QTest::addColumn<qint64>("errors");
        QTest::addColumn<QString>("result");
        QTest::addColumn<QString>("says");
        QTest::newRow("passed") << true << 0LL << 0LL << "ok"
                                << "120 grants";
        QTest::newRow("over-admitted") << true << 3LL << 0LL << "over-admitted"
                                       << "3 over-admissions";
        QTest::newRow("operations failed") << true << 0LL << 40LL << "failed"
                                           << "40 operations failed";
        // A count of one in the singular, not "1 over-admissions".
        QTest::newRow("one over-admission") << true << 1LL << 0LL << "over-admitted"
                                            << "1 over-admission, up to";
        QTest::newRow("one operation failed") << true << 0LL << 1LL << "failed"
                                              << "1 operation failed;";
        QTest::newRow("did not run") << false << 0LL << 0LL << "failed"
                                     << "connection refused";
    }
    void outcome() {
        QFETCH(bool, ran);
        QFETCH(qint64, overAdmissions);
        QFETCH(qint64, errors);
        QFETCH(QString, result);
        QFETCH(QString, says);
        core::LoadTestReport r;
        r.config.ref.kind = core::Kind::Leased;
        r.config.ref.name = QStringLiteral("jobs");
        r.config.limit = 5;
        r.label = QStringLiteral("leased");
        r.ok = ran;
        r.error = ran ? QString() : QStringLiteral("connection refused");
        r.grants = 120;
        r.errors = errors;
        r.safety.overAdmissions = overAdmissions;
        const core::AuditEntry e =
            core::loadTestAuditEntry(QStringLiteral("payments (redis://127.0.0.1:6379/0)"),
                                     QStringLiteral("production"), r, QStringLiteral("load-test"));
        QCOMPARE(e.action, QStringLiteral("load-test"));
        QCOMPARE(e.semaphore, QStringLiteral("leased:jobs"));
        QCOMPARE(e.environment, QStringLiteral("production"));
        QVERIFY2(e.connection.startsWith(QStringLiteral("payments (")), qPrintable(e.connection));
        QCOMPARE(e.result, result);
        QVERIFY2(e.message.contains(says), qPrintable(e.message));
        QCOMPARE(e.observed.value(QStringLiteral("limit")).toInt(), 5);
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestLoadTestAudit)
#include "tst_loadtestaudit.moc"
