// docs/monitoring/semscope.rules.yml: valid for Prometheus (`promtool check rules`), and each alert
// fires on what it is about, after its `for:`, and not on healthy series (`promtool test rules`
// with tests/monitor/semscope.rules.test.yml).
#include "TestMain.h"

#include <QProcess>
#include <QStandardPaths>
#include <QTest>

class TestAlertRules : public QObject {
    Q_OBJECT

    static void promtool(const QStringList &args) {
        // CI installs `prometheus` (scripts/bootstrap.sh): without promtool this fails, it does not skip.
        const QString exe = QStandardPaths::findExecutable(QStringLiteral("promtool"));
        QVERIFY2(!exe.isEmpty(), "promtool not found: install Debian's `prometheus` (scripts/bootstrap.sh)");
        QProcess p;
        p.start(exe, args);
        QVERIFY(p.waitForFinished(60000));
        const QByteArray said = p.readAllStandardOutput() + p.readAllStandardError();
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, said.constData());
        QVERIFY2(said.contains("SUCCESS"), said.constData());
    }

private Q_SLOTS:
    void rulesAreValid() {
        promtool({QStringLiteral("check"), QStringLiteral("rules"), QStringLiteral(RULES_FILE)});
    }
    void alertsFireOnWhatTheyAreAbout() {
        promtool({QStringLiteral("test"), QStringLiteral("rules"), QStringLiteral(RULES_TEST_FILE)});
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestAlertRules)
#include "tst_alertrules.moc"
