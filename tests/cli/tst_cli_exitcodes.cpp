// semscope-cli's one rule for exit codes and error lines, whatever the command: 1 when the server
// answered and refused, 2 for usage errors and whenever the server could not be asked (connection
// refused, lost after connecting, protocol error). One line on stderr, the endpoint said once, and
// nothing a server sent reaches the terminal raw.
#include "CliRun.h"
#include "RedisCluster.h"
#include "RedisServer.h"
#include "ScriptedRedisServer.h"
#include "TestMain.h"
#include "redis/topology/HashSlot.h"

#include <QTcpServer>
#include <QTemporaryDir>
#include <QtTest>

using semscope::test::RedisServer;
using semscope::test::ScriptedRedisServer;
using Run = semscope::test::CliRun;

namespace {

QString describe(const Run &r) {
    return QStringLiteral("exit %1\nstdout: %2\nstderr: %3").arg(r.exitCode).arg(r.out, r.err);
}

quint16 closedPort() {
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}

// The semaphore commands, each as it would be typed after the store option.
QList<QStringList> semaphoreCommands() {
    return {
        {QStringLiteral("list")},
        {QStringLiteral("show"), QStringLiteral("jobs"), QStringLiteral("--kind"), QStringLiteral("leased")},
        {QStringLiteral("show"), QStringLiteral("jobs")},
        {QStringLiteral("acquire"), QStringLiteral("jobs"), QStringLiteral("--kind"),
         QStringLiteral("leased"), QStringLiteral("--limit"), QStringLiteral("2"), QStringLiteral("--ttl"),
         QStringLiteral("10s")},
        {QStringLiteral("release"), QStringLiteral("jobs"), QStringLiteral("w1"), QStringLiteral("--kind"),
         QStringLiteral("leased")},
        {QStringLiteral("refresh"), QStringLiteral("jobs"), QStringLiteral("w1"), QStringLiteral("--kind"),
         QStringLiteral("leased"), QStringLiteral("--ttl"), QStringLiteral("10s")},
        {QStringLiteral("force-release"), QStringLiteral("jobs"), QStringLiteral("w1"),
         QStringLiteral("--kind"), QStringLiteral("leased"), QStringLiteral("--yes")},
        {QStringLiteral("purge"), QStringLiteral("jobs"), QStringLiteral("--kind"), QStringLiteral("leased")},
        {QStringLiteral("set-limit"), QStringLiteral("jobs"), QStringLiteral("3"), QStringLiteral("--kind"),
         QStringLiteral("leased")},
    };
}

} // namespace

class TestCliExitCodes : public QObject {
    Q_OBJECT

    QTemporaryDir m_home;

    Run cli(const QStringList &args) {
        return semscope::test::runCliServing(args, {{QStringLiteral("HOME"), m_home.path()},
                                                    {QStringLiteral("XDG_CONFIG_HOME"), m_home.path()}});
    }

    // One error line on stderr, starting with the endpoint, which is not repeated after it.
    static void verifyOneLine(const Run &r, const QString &endpoint) {
        const QStringList lines = r.err.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QVERIFY2(lines.size() >= 1, qPrintable(describe(r)));
        const QString last = lines.constLast();
        QVERIFY2(last.startsWith(QStringLiteral("semscope-cli: ") + endpoint + QStringLiteral(": ")),
                 qPrintable(describe(r)));
        QVERIFY2(last.count(endpoint) == 1, qPrintable(describe(r)));
        QVERIFY2(!last.contains(QStringLiteral("failed: discovery failed")), qPrintable(describe(r)));
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(!qEnvironmentVariable("SEMSCOPE_CLI").isEmpty(),
                 "SEMSCOPE_CLI is not set (run through ctest)");
        QVERIFY(m_home.isValid());
    }

    // The server accepts the connection and the handshake, then drops every command: the operation
    // never reached it, so this is a connection error (2), not a refusal (1).
    void connectionLostAfterConnectingIsExit2_data() {
        QTest::addColumn<QStringList>("command");
        for (const QStringList &c : semaphoreCommands())
            QTest::newRow(qPrintable(c.join(QLatin1Char(' ')))) << c;
    }
    void connectionLostAfterConnectingIsExit2() {
        QFETCH(QStringList, command);
        ScriptedRedisServer server(ScriptedRedisServer::afterHandshake(
            [](const QList<QByteArray> &, int) -> std::optional<QByteArray> { return std::nullopt; }));
        const Run r = cli(QStringList{QStringLiteral("--redis"), server.url()} + command);
        QVERIFY2(r.exitCode == 2, qPrintable(describe(r)));
        verifyOneLine(r, server.url() + QStringLiteral("/0"));
    }

    // The same rule per failure class as for Consul (tst_hostile_consul): a server that goes silent
    // (the 10 s command timeout), one that answers with what is not RESP2 (protocol) or drops the
    // connection could not be asked (2); an error reply is a refusal (1).
    void redisFailureClasses_data() {
        QTest::addColumn<QByteArray>("answer"); // to every command after the handshake; "" is silence
        QTest::addColumn<bool>("close");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("error");
        QTest::newRow("timeout") << QByteArray() << false << 2 << QStringLiteral("");
        QTest::newRow("protocol: not RESP2")
            << QByteArray("!garbage\r\n") << false << 2 << QStringLiteral("protocol error");
        QTest::newRow("connection dropped") << QByteArray() << true << 2 << QStringLiteral("");
        QTest::newRow("error reply") << QByteArray("-ERR no such thing\r\n") << false << 1
                                     << QStringLiteral("ERR no such thing");
    }
    void redisFailureClasses() {
        QFETCH(QByteArray, answer);
        QFETCH(bool, close);
        QFETCH(int, exitCode);
        QFETCH(QString, error);
        ScriptedRedisServer server(ScriptedRedisServer::afterHandshake(
            [answer, close](const QList<QByteArray> &, int) -> std::optional<QByteArray> {
                if (close)
                    return std::nullopt;
                return answer;
            }));
        const Run r = cli({QStringLiteral("--redis"), server.url(), QStringLiteral("show"),
                           QStringLiteral("jobs"), QStringLiteral("--kind"), QStringLiteral("leased")});
        QVERIFY2(r.exitCode == exitCode, qPrintable(describe(r)));
        QVERIFY2(r.err.contains(error), qPrintable(describe(r)));
        verifyOneLine(r, server.url() + QStringLiteral("/0"));
    }

    // Refused by a server that answers: exit 1.
    void refusedByTheServerIsExit1() {
        RedisServer server;
        QVERIFY2(server.start(), qPrintable(server.errorString()));
        const QStringList lock{QStringLiteral("--redis"), server.url(),
                               QStringLiteral("acquire"), QStringLiteral("report"),
                               QStringLiteral("--kind"),  QStringLiteral("lock"),
                               QStringLiteral("--ttl"),   QStringLiteral("30s"),
                               QStringLiteral("--holder")};
        const Run first = cli(lock + QStringList{QStringLiteral("a")});
        QVERIFY2(first.exitCode == 0, qPrintable(describe(first)));
        const Run busy = cli(lock + QStringList{QStringLiteral("b")});
        QVERIFY2(busy.exitCode == 1, qPrintable(describe(busy)));
        const Run release =
            cli({QStringLiteral("--redis"), server.url(), QStringLiteral("release"), QStringLiteral("report"),
                 QStringLiteral("nobody"), QStringLiteral("--kind"), QStringLiteral("lock")});
        QVERIFY2(release.exitCode == 1, qPrintable(describe(release)));
    }

    // Consul's "connection refused" is a connection error like Redis'.
    void consulConnectionRefusedIsExit2_data() {
        QTest::addColumn<QStringList>("command");
        QTest::newRow("list") << QStringList{QStringLiteral("list")};
        QTest::newRow("show") << QStringList{QStringLiteral("show"), QStringLiteral("service/x")};
        QTest::newRow("acquire") << QStringList{QStringLiteral("acquire"), QStringLiteral("service/x"),
                                                QStringLiteral("--kind"),  QStringLiteral("consul"),
                                                QStringLiteral("--limit"), QStringLiteral("2"),
                                                QStringLiteral("--ttl"),   QStringLiteral("15s")};
        QTest::newRow("sessions") << QStringList{QStringLiteral("sessions")};
    }
    void consulConnectionRefusedIsExit2() {
        QFETCH(QStringList, command);
        const QString endpoint = QStringLiteral("http://127.0.0.1:%1").arg(closedPort());
        const Run r = cli(QStringList{QStringLiteral("--consul"), endpoint} + command);
        QVERIFY2(r.exitCode == 2, qPrintable(describe(r)));
        QVERIFY2(r.err.contains(QStringLiteral("refused")), qPrintable(describe(r)));
    }

    // What a server says in an error is shown escaped and cut: no ESC, no carriage return that
    // could overwrite the line with a fake "all good", no 8 MB line.
    void serverTextIsEscapedAndCut_data() {
        QTest::addColumn<QByteArray>("error");
        QTest::addColumn<QString>("shown");
        QTest::newRow("escapes") << QByteArray("-ERR \x1b[2J\x1b[32mall good\rOK\r\n")
                                 << QStringLiteral("ERR \\e[2J\\e[32mall good\\rOK");
        QTest::newRow("8 MB") << QByteArray("-ERR ") + QByteArray(8 * 1024 * 1024, 'x') + QByteArray("\r\n")
                              << QStringLiteral("ERR xxxxxxxx");
    }
    void serverTextIsEscapedAndCut() {
        QFETCH(QByteArray, error);
        QFETCH(QString, shown);
        ScriptedRedisServer server(ScriptedRedisServer::afterHandshake(
            [error](const QList<QByteArray> &, int) -> std::optional<QByteArray> { return error; }));
        const Run r = cli({QStringLiteral("--redis"), server.url(), QStringLiteral("show"),
                           QStringLiteral("jobs"), QStringLiteral("--kind"), QStringLiteral("leased")});
        QVERIFY2(r.exitCode == 1, qPrintable(describe(r).left(2000)));
        QVERIFY2(!r.err.contains(QLatin1Char('\x1b')), qPrintable(r.err.left(200)));
        QVERIFY2(!r.err.contains(QLatin1Char('\r')), qPrintable(r.err.left(200)));
        QVERIFY2(r.err.size() < 4000, qPrintable(QString::number(r.err.size())));
        QVERIFY2(r.err.contains(shown), qPrintable(r.err.left(400)));
    }

    // A mutex admits one holder whatever --limit says; taking --limit 3 silently let an operator
    // believe otherwise. Nothing is written.
    void limitOnAMutexIsAUsageError_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QStringList>("extra");
        QTest::newRow("lock") << QStringLiteral("lock")
                              << QStringList{QStringLiteral("--ttl"), QStringLiteral("10s")};
        QTest::newRow("node-mutex") << QStringLiteral("node-mutex") << QStringList{};
        QTest::newRow("redisson-lock") << QStringLiteral("redisson-lock") << QStringList{};
    }
    void limitOnAMutexIsAUsageError() {
        QFETCH(QString, kind);
        QFETCH(QStringList, extra);
        RedisServer server;
        QVERIFY2(server.start(), qPrintable(server.errorString()));
        const Run r = cli(QStringList{QStringLiteral("--redis"), server.url(), QStringLiteral("acquire"),
                                      QStringLiteral("invoice-run"), QStringLiteral("--kind"), kind,
                                      QStringLiteral("--limit"), QStringLiteral("3")} +
                          extra);
        QVERIFY2(r.exitCode == 2, qPrintable(describe(r)));
        QVERIFY2(r.err.contains(QStringLiteral("its limit is always 1")), qPrintable(describe(r)));
        QCOMPARE(server.command({"DBSIZE"}).integer, 0);
    }

    // A bare number is no duration: "--ttl 5" once granted an already expired 5 ms lease.
    void durationsNeedAUnit_data() {
        QTest::addColumn<QStringList>("command");
        QTest::newRow("acquire --ttl 5")
            << QStringList{QStringLiteral("acquire"), QStringLiteral("jobs"),  QStringLiteral("--kind"),
                           QStringLiteral("leased"),  QStringLiteral("--ttl"), QStringLiteral("5")};
        QTest::newRow("acquire --wait 30")
            << QStringList{QStringLiteral("acquire"), QStringLiteral("jobs"),   QStringLiteral("--kind"),
                           QStringLiteral("leased"),  QStringLiteral("--wait"), QStringLiteral("30")};
        QTest::newRow("refresh --ttl 60")
            << QStringList{QStringLiteral("refresh"), QStringLiteral("jobs"),   QStringLiteral("w1"),
                           QStringLiteral("--kind"),  QStringLiteral("leased"), QStringLiteral("--ttl"),
                           QStringLiteral("60")};
    }
    void durationsNeedAUnit() {
        QFETCH(QStringList, command);
        RedisServer server;
        QVERIFY2(server.start(), qPrintable(server.errorString()));
        const Run r = cli(QStringList{QStringLiteral("--redis"), server.url()} + command);
        QVERIFY2(r.exitCode == 2, qPrintable(describe(r)));
        QVERIFY2(r.err.contains(QStringLiteral("give a number with its unit")), qPrintable(describe(r)));
        QCOMPARE(server.command({"DBSIZE"}).integer, 0);
    }

    // A Cluster with one master down: an operation on a name it serves could not be asked (exit 2,
    // not 1 as a refusal); a name served by a live master is still read with --kind, and the lookup
    // that fails without it says so.
    void clusterMasterDown() {
        semscope::test::RedisCluster cluster;
        semscope::test::RedisCluster::Options options;
        options.replicasPerMaster = 0;
        QVERIFY2(cluster.start(options), qPrintable(cluster.errorString()));
        auto nameOn = [&](int node) {
            for (int i = 0;; ++i) {
                const QString candidate = QStringLiteral("down-%1").arg(i);
                const RedisServer *master =
                    cluster.masterOfSlot(semscope::redis::topology::hashSlot(candidate.toUtf8()));
                if (master && master->port() == cluster.node(node).port())
                    return candidate;
            }
        };
        const QString live = nameOn(0), gone = nameOn(2);
        const QStringList leased{QStringLiteral("--kind"),  QStringLiteral("leased"),
                                 QStringLiteral("--limit"), QStringLiteral("1"),
                                 QStringLiteral("--ttl"),   QStringLiteral("5m")};
        for (const QString &name : {live, gone})
            QCOMPARE(
                cli(QStringList{QStringLiteral("--redis"), cluster.url(), QStringLiteral("acquire"), name} +
                    leased)
                    .exitCode,
                0);
        cluster.node(2).kill();

        Run r = cli(QStringList{QStringLiteral("--redis"), cluster.url(), QStringLiteral("acquire"), gone} +
                    leased);
        QVERIFY2(r.exitCode == 2, qPrintable(describe(r)));
        r = cli({QStringLiteral("--redis"), cluster.url(), QStringLiteral("show"), live});
        QVERIFY2(r.exitCode == 2, qPrintable(describe(r)));
        QVERIFY2(r.err.contains(QStringLiteral("--kind K reads %1 without looking it up").arg(live)),
                 qPrintable(describe(r)));
        r = cli({QStringLiteral("--redis"), cluster.url(), QStringLiteral("show"), live,
                 QStringLiteral("--kind"), QStringLiteral("leased")});
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    }

    // A duration past what can be held is said to be too long, not "not a duration".
    void hugeDurationIsTooLong() {
        RedisServer server;
        QVERIFY2(server.start(), qPrintable(server.errorString()));
        const Run r = cli({QStringLiteral("--redis"), server.url(), QStringLiteral("acquire"),
                           QStringLiteral("jobs"), QStringLiteral("--kind"), QStringLiteral("leased"),
                           QStringLiteral("--ttl"), QStringLiteral("100000000000h")});
        QVERIFY2(r.exitCode == 2, qPrintable(describe(r)));
        QVERIFY2(r.err.contains(QStringLiteral("--ttl: '100000000000h' is too long to be a duration")),
                 qPrintable(describe(r)));
        QCOMPARE(server.command({"DBSIZE"}).integer, 0);
    }

    // A --csv path that cannot be written is a usage error said before the run; it used to come
    // after the whole run (exit 1), and the run's report was not printed.
    void unwritableCsvIsAUsageErrorBeforeTheRun() {
        RedisServer server;
        QVERIFY2(server.start(), qPrintable(server.errorString()));
        const Run r =
            cli({QStringLiteral("--redis"), server.url(), QStringLiteral("loadtest"), QStringLiteral("lt"),
                 QStringLiteral("--kind"), QStringLiteral("leased"), QStringLiteral("--limit"),
                 QStringLiteral("2"), QStringLiteral("--clients"), QStringLiteral("2"),
                 QStringLiteral("--duration"), QStringLiteral("20s"), QStringLiteral("--csv"),
                 m_home.filePath(QStringLiteral("no-such-folder/timeline.csv"))});
        QVERIFY2(r.exitCode == 2, qPrintable(describe(r)));
        QVERIFY2(r.err.contains(QStringLiteral("--csv: cannot write")), qPrintable(describe(r)));
        QVERIFY2(r.out.isEmpty(), qPrintable(describe(r))); // no run, so no report
        QCOMPARE(server.command({"INFO", "commandstats"}).str.contains("cmdstat_evalsha"), false);
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestCliExitCodes)
#include "tst_cli_exitcodes.moc"
