#include "TestMain.h"
#include "core/audit/AuditLog.h"

#include <QFile>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace semscope;
using core::AuditEntry;
using core::AuditLog;

class TestAuditLog : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void writesOneJsonLinePerEntry();
    void readsRecentAndSkipsGarbage();
    void reportsUnwritableFile();
    void serverTextIsEscapedAndCut();
};

void TestAuditLog::writesOneJsonLinePerEntry() {
    QTemporaryDir dir;
    AuditLog log(dir.path() + QStringLiteral("/sub/audit.jsonl"));
    QSignalSpy appended(&log, &AuditLog::appended);
    AuditEntry e;
    e.connection = QStringLiteral("prod (redis://10.0.0.5:6379/0)");
    e.environment = QStringLiteral("production");
    e.semaphore = QStringLiteral("leased:jobs");
    e.action = QStringLiteral("force-release");
    e.holder = QStringLiteral("worker-7");
    e.observed.insert(QStringLiteral("token"), 42);
    e.result = QStringLiteral("changed");
    QVERIFY(log.append(e));
    e.result = QStringLiteral("released");
    QVERIFY(log.append(e));
    QCOMPARE(appended.count(), 2);

    QFile f(log.filePath());
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = f.readAll().split('\n');
    QCOMPARE(lines.size(), 3); // two lines and the empty rest after the last newline
    const QJsonObject o = QJsonDocument::fromJson(lines.at(0)).object();
    for (const char *field :
         {"time", "user", "host", "connection", "semaphore", "holder", "observed", "result"})
        QVERIFY2(o.contains(QLatin1String(field)), field);
    QVERIFY(!o.value(QStringLiteral("user")).toString().isEmpty());
    QCOMPARE(o.value(QStringLiteral("result")).toString(), QStringLiteral("changed"));
    QCOMPARE(o.value(QStringLiteral("observed")).toObject().value(QStringLiteral("token")).toInt(), 42);
    QVERIFY(QDateTime::fromString(o.value(QStringLiteral("time")).toString(), Qt::ISODateWithMs).isValid());
}

// A server's error reply ends up in the message: it must neither flood the log nor carry terminal
// escapes to whoever reads the file with tail or cat.
void TestAuditLog::serverTextIsEscapedAndCut() {
    QTemporaryDir dir;
    AuditLog log(dir.path() + QStringLiteral("/audit.jsonl"));
    AuditEntry e;
    e.action = QStringLiteral("acquire");
    e.holder = QStringLiteral("w\x1b[2J1");
    e.result = QStringLiteral("error");
    e.message = QStringLiteral("ERR \x1b[32mall good\r") + QString(8 * 1024 * 1024, QLatin1Char('x'));
    QVERIFY(log.append(e));
    QFile f(log.filePath());
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray line = f.readAll();
    QVERIFY2(line.size() < 5000, QByteArray::number(line.size()));
    const QJsonObject o = QJsonDocument::fromJson(line).object();
    const QString message = o.value(QStringLiteral("message")).toString();
    QVERIFY2(message.startsWith(QStringLiteral("ERR \\e[32mall good\\rxxx")), qPrintable(message.left(80)));
    QCOMPARE(o.value(QStringLiteral("holder")).toString(), QStringLiteral("w\\e[2J1"));
}

void TestAuditLog::readsRecentAndSkipsGarbage() {
    QTemporaryDir dir;
    const QString path = dir.path() + QStringLiteral("/audit.jsonl");
    AuditLog log(path);
    for (int i = 0; i < 5; ++i) {
        AuditEntry e;
        e.action = QStringLiteral("acquire");
        e.holder = QString::number(i);
        log.append(e);
        if (i == 2) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::Append));
            f.write("{not json\n\n");
        }
    }
    const auto recent = log.readRecent(3);
    QCOMPARE(recent.size(), 3);
    QCOMPARE(recent.first().holder, QStringLiteral("2"));
    QCOMPARE(recent.last().holder, QStringLiteral("4"));
}

void TestAuditLog::reportsUnwritableFile() {
    QTemporaryDir dir;
    // A directory where the file should be: the write fails, the entry is still announced.
    QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("audit.jsonl")));
    AuditLog log(dir.path() + QStringLiteral("/audit.jsonl"));
    QSignalSpy appended(&log, &AuditLog::appended);
    QVERIFY(!log.append(AuditEntry{}));
    QCOMPARE(appended.count(), 1);
    QVERIFY(!log.lastError().isEmpty());
}

SEMSCOPE_TEST_GUILESS_MAIN(TestAuditLog)
#include "tst_auditlog.moc"
