#include "TestMain.h"
#include "model/AuditLogModel.h"

#include <QAbstractItemModelTester>
#include <QTemporaryDir>
#include <QtTest>

using namespace semscope;
using model::AuditLogModel;

class TestAuditLogModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void showsNewestFirstAndFollowsTheLog();
};

void TestAuditLogModel::showsNewestFirstAndFollowsTheLog() {
    QTemporaryDir dir;
    core::AuditLog log(dir.path() + QStringLiteral("/audit.jsonl"));
    core::AuditEntry e;
    e.action = QStringLiteral("acquire");
    e.holder = QStringLiteral("old");
    e.result = QStringLiteral("granted");
    log.append(e);

    AuditLogModel model(&log);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 1);
    e.action = QStringLiteral("force-release");
    e.holder = QStringLiteral("new");
    e.result = QStringLiteral("refused");
    log.append(e);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(0, AuditLogModel::HolderColumn).data().toString(), QStringLiteral("new"));
    QCOMPARE(model.index(0, AuditLogModel::ResultColumn).data().toString(), QStringLiteral("refused"));
    QVERIFY(model.index(0, AuditLogModel::ResultColumn).data(Qt::ForegroundRole).isValid());
    QVERIFY(model.index(0, 0).data(Qt::ToolTipRole).toString().contains(QLatin1String("force-release")));
    QCOMPARE(model.index(1, AuditLogModel::HolderColumn).data().toString(), QStringLiteral("old"));
    model.reload();
    QCOMPARE(model.rowCount(), 2);
}

SEMSCOPE_TEST_MAIN(TestAuditLogModel)
#include "tst_auditlogmodel.moc"
