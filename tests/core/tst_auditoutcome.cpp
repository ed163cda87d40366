// What the audit log and the status bar say of an operation's result: a grant's or a refresh's
// warnings (no lease kept, a shorter lease, a limit not used) go with it.
#include "TestMain.h"
#include "core/audit/AuditOutcome.h"

#include <QtTest>

using namespace semscope;

Q_DECLARE_METATYPE(std::optional<qint64>)

class TestAuditOutcome : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void grantSaysWhereAndWhatWasNotAsAsked_data() {
        QTest::addColumn<std::optional<qint64>>("slot");
        QTest::addColumn<QStringList>("warnings");
        QTest::addColumn<QString>("message");
        QTest::newRow("slot, no warning")
            << std::optional<qint64>(2) << QStringList() << QStringLiteral("slot 2");
        QTest::newRow("slot and a warning")
            << std::optional<qint64>(3) << QStringList{QStringLiteral("no lease taken")}
            << QStringLiteral("slot 3; no lease taken");
        QTest::newRow("warnings alone")
            << std::optional<qint64>() << QStringList{QStringLiteral("a"), QStringLiteral("b")}
            << QStringLiteral("a; b");
    }
    void grantSaysWhereAndWhatWasNotAsAsked() {
        QFETCH(std::optional<qint64>, slot);
        QFETCH(QStringList, warnings);
        QFETCH(QString, message);
        core::AcquireResult r;
        r.status = core::AcquireResult::Status::Granted;
        r.grant.slot = slot;
        if (!warnings.isEmpty())
            r.grant.details.insert(QStringLiteral("warnings"), warnings);
        const core::AuditOutcome o = core::auditOutcome(r);
        QCOMPARE(o.result, QStringLiteral("granted"));
        QCOMPARE(o.message, message);
        QVERIFY(o.ok);
    }

    // Busy says how many hold, the count in words.
    void busySaysHowManyHold_data() {
        QTest::addColumn<int>("holders");
        QTest::addColumn<QString>("message");
        QTest::newRow("one") << 1 << QStringLiteral("1 holder, no free slot");
        QTest::newRow("three") << 3 << QStringLiteral("3 holders, no free slot");
    }
    void busySaysHowManyHold() {
        QFETCH(int, holders);
        QFETCH(QString, message);
        core::AcquireResult r;
        r.status = core::AcquireResult::Status::Busy;
        r.holders.resize(holders);
        const core::AuditOutcome o = core::auditOutcome(r);
        QCOMPARE(o.result, QStringLiteral("busy"));
        QCOMPARE(o.message, message);
        QVERIFY(!o.ok);
    }

    void refreshCarriesItsWarnings() {
        core::RefreshResult r;
        r.status = core::RefreshResult::Status::Ok;
        QCOMPARE(core::auditOutcome(r).message, QString());
        r.warnings << QStringLiteral("lease shorter than the 1.0 min asked: capped");
        const core::AuditOutcome o = core::auditOutcome(r);
        QCOMPARE(o.result, QStringLiteral("ok"));
        QCOMPARE(o.message, QStringLiteral("lease shorter than the 1.0 min asked: capped"));
        QVERIFY(o.ok);
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestAuditOutcome)
#include "tst_auditoutcome.moc"
