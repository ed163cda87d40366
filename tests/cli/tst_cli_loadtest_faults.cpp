// semscope-cli loadtest against a server that goes away: a run rides through a restart (its
// connections come back and grants resume), counts what failed meanwhile and does not pass; a run
// by operation count against a server that stays away ends by itself. And what a run leaves behind:
// nothing it created, unless asked.
#include "RedisServer.h"
#include "TestMain.h"
#include "TestWait.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using semscope::test::RedisServer;
using semscope::test::waitFor;

class TestCliLoadtestFaults : public QObject {
    Q_OBJECT

    QTemporaryDir m_home;

    void startCli(QProcess &p, const QStringList &args) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), m_home.path());
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_home.path());
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_home.path());
        p.setProcessEnvironment(env);
        p.setStandardInputFile(QProcess::nullDevice());
        p.start(qEnvironmentVariable("SEMSCOPE_CLI"), args);
        QVERIFY(p.waitForStarted());
    }

    // Calls the server has served for `command` (INFO commandstats), 0 when none.
    static qint64 callsOf(RedisServer &server, const char *command) {
        const QByteArray stats = server.command({"INFO", "commandstats"}).str;
        const auto m =
            QRegularExpression(QStringLiteral("cmdstat_%1:calls=(\\d+)").arg(QLatin1String(command)))
                .match(QString::fromUtf8(stats));
        return m.hasMatch() ? m.captured(1).toLongLong() : 0;
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(!qEnvironmentVariable("SEMSCOPE_CLI").isEmpty(),
                 "SEMSCOPE_CLI is not set (run through ctest)");
        QVERIFY(m_home.isValid());
    }

    void ridesThroughARestartAndDoesNotPass() {
        // Every write is on disk before its reply (as a server holding locks should be run), so the
        // restart loses no grant: the run stays safe and only its failed operations fail it.
        RedisServer server;
        RedisServer::Options durable;
        durable.extraArgs = {QStringLiteral("--appendonly"), QStringLiteral("yes"),
                             QStringLiteral("--appendfsync"), QStringLiteral("always")};
        QVERIFY2(server.start(durable), qPrintable(server.errorString()));
        QProcess p;
        startCli(p, {QStringLiteral("--redis"), server.url(), QStringLiteral("--json"),
                     QStringLiteral("loadtest"), QStringLiteral("lt-restart"), QStringLiteral("--kind"),
                     QStringLiteral("leased"), QStringLiteral("--limit"), QStringLiteral("2"),
                     QStringLiteral("--clients"), QStringLiteral("4"), QStringLiteral("--hold"),
                     QStringLiteral("fixed:5ms"), QStringLiteral("--ttl"), QStringLiteral("5s"),
                     QStringLiteral("--duration"), QStringLiteral("10s")});
        // Under way once its semaphore exists; then the server crashes and comes back empty.
        QVERIFY(waitFor([&] { return server.command({"EXISTS", "{lt-restart}:meta"}).integer == 1; }, 20000));
        server.kill();
        QVERIFY(waitFor([&] { return p.state() == QProcess::NotRunning; }, 1500) == false);
        QVERIFY2(server.restart(), qPrintable(server.errorString()));
        QVERIFY(p.waitForFinished(60000));
        const QByteArray out = p.readAllStandardOutput();
        const QByteArray err = p.readAllStandardError();
        const QJsonObject report = QJsonDocument::fromJson(out).object();
        QVERIFY2(!report.isEmpty(), out.constData());
        // Grants resumed on the restarted server: its scripts were run by the reconnected clients.
        QVERIFY2(callsOf(server, "evalsha") + callsOf(server, "eval") > 0, out.constData());
        QVERIFY2(report.value(QStringLiteral("errors")).toInteger() > 0, out.constData());
        QVERIFY2(report.value(QStringLiteral("unavailable_ms")).toInteger() > 0, out.constData());
        QCOMPARE(report.value(QStringLiteral("safe")).toBool(), true);
        QCOMPARE(report.value(QStringLiteral("ok")).toBool(), false);
        QCOMPARE(p.exitCode(), 1);
        // "operation failed" or "operations failed": how many depends on when the server went.
        QVERIFY2(err.contains("failed; the server was unavailable for"), err.constData());
    }

    void leavesNoKeysBehind() {
        RedisServer server;
        QVERIFY2(server.start(), qPrintable(server.errorString()));
        const QStringList run{QStringLiteral("--redis"),  server.url(),
                              QStringLiteral("loadtest"), QStringLiteral("--kind"),
                              QStringLiteral("leased"),   QStringLiteral("--limit"),
                              QStringLiteral("2"),        QStringLiteral("--clients"),
                              QStringLiteral("3"),        QStringLiteral("--ops"),
                              QStringLiteral("30")};
        auto finish = [this](const QStringList &args) {
            QProcess p;
            startCli(p, args);
            QVERIFY(p.waitForFinished(60000));
            QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        };
        // A semaphore the run created goes with it.
        finish(run + QStringList{QStringLiteral("scratch")});
        QCOMPARE(server.command({"DBSIZE"}).integer, 0);
        // Unless asked to keep it.
        finish(run + QStringList{QStringLiteral("kept"), QStringLiteral("--keep-keys")});
        QCOMPARE(server.command({"EXISTS", "{kept}:meta"}).integer, 1);
        // A semaphore that was there before is the operator's: it stays.
        server.command({"FLUSHALL"});
        finish({QStringLiteral("--redis"), server.url(), QStringLiteral("acquire"), QStringLiteral("theirs"),
                QStringLiteral("--kind"), QStringLiteral("leased"), QStringLiteral("--limit"),
                QStringLiteral("5"), QStringLiteral("--ttl"), QStringLiteral("60s"),
                QStringLiteral("--holder"), QStringLiteral("op")});
        finish(run + QStringList{QStringLiteral("theirs")});
        QCOMPARE(server.command({"ZSCORE", "{theirs}:holders", "op"}).isNil(), false);
        // A training scenario's scratch semaphores go too.
        server.command({"FLUSHALL"});
        QProcess scenario;
        startCli(scenario, {QStringLiteral("--redis"), server.url(), QStringLiteral("loadtest"),
                            QStringLiteral("t"), QStringLiteral("--scenario"), QStringLiteral("incr-lock"),
                            QStringLiteral("--duration"), QStringLiteral("1s")});
        QVERIFY(scenario.waitForFinished(60000));
        QCOMPARE(server.command({"DBSIZE"}).integer, 0);
    }

    void opsRunEndsWhenTheServerStaysAway() {
        RedisServer server;
        QVERIFY2(server.start(), qPrintable(server.errorString()));
        QProcess p;
        startCli(p, {QStringLiteral("--redis"), server.url(), QStringLiteral("--json"),
                     QStringLiteral("loadtest"), QStringLiteral("lt-gone"), QStringLiteral("--kind"),
                     QStringLiteral("leased"), QStringLiteral("--limit"), QStringLiteral("2"),
                     QStringLiteral("--clients"), QStringLiteral("2"), QStringLiteral("--hold"),
                     QStringLiteral("fixed:20ms"), QStringLiteral("--ops"), QStringLiteral("100000000"),
                     QStringLiteral("--give-up"), QStringLiteral("2s")});
        QVERIFY(waitFor([&] { return server.command({"EXISTS", "{lt-gone}:meta"}).integer == 1; }, 20000));
        server.stop();
        QVERIFY2(p.waitForFinished(90000), "the run never ended against a server that is gone");
        QCOMPARE(p.exitCode(), 1);
        const QJsonObject report = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        QCOMPARE(report.value(QStringLiteral("ok")).toBool(), false);
        QVERIFY2(report.value(QStringLiteral("error")).toString().contains(QStringLiteral("unavailable")),
                 qPrintable(report.value(QStringLiteral("error")).toString()));
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestCliLoadtestFaults)
#include "tst_cli_loadtest_faults.moc"
