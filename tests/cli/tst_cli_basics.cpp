// semscope-cli as a user runs it ($SEMSCOPE_CLI via QProcess): --version, --help, ping and info
// against real servers (plain, TLS, Unix socket, ACL), JSON output, and the one-line errors with
// exit code 2 for everything that keeps it from connecting.
#include "RedisServer.h"
#include "TestMain.h"
#include "TlsMaterial.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using semscope::test::RedisServer;
using semscope::test::TlsMaterial;

namespace {

struct Run {
    int exitCode = -1;
    QString out;
    QString err;
    bool finished = false;
};

// Runs $SEMSCOPE_CLI with `args` (behind `wrapper`, e.g. {"unshare", "-rn"}, when given).
Run runCli(const QStringList &args, const QMap<QString, QString> &env = {}, const QStringList &wrapper = {}) {
    Run run;
    QProcess p;
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    e.remove(QStringLiteral("REDISCLI_AUTH"));
    e.remove(QStringLiteral("CONSUL_HTTP_ADDR"));
    for (auto it = env.cbegin(); it != env.cend(); ++it)
        e.insert(it.key(), it.value());
    p.setProcessEnvironment(e);
    if (wrapper.isEmpty())
        p.start(qEnvironmentVariable("SEMSCOPE_CLI"), args);
    else
        p.start(wrapper.constFirst(),
                wrapper.mid(1) + QStringList{qEnvironmentVariable("SEMSCOPE_CLI")} + args);
    if (!p.waitForStarted(30000))
        return run;
    run.finished = p.waitForFinished(60000);
    if (!run.finished)
        p.kill();
    run.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    run.out = QString::fromUtf8(p.readAllStandardOutput());
    run.err = QString::fromUtf8(p.readAllStandardError());
    return run;
}

QStringList lines(const QString &text) {
    return text.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

QString describe(const Run &r) {
    return QStringLiteral("exit %1\nstdout: %2\nstderr: %3").arg(r.exitCode).arg(r.out, r.err);
}

quint16 closedPort() {
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}

} // namespace

// Checks an error run: exit 2, nothing on stdout, exactly one "semscope-cli: ..." line on stderr.
#define VERIFY_ONE_LINE_ERROR(run, code)                                                                     \
    do {                                                                                                     \
        QVERIFY2((run).finished, qPrintable(describe(run)));                                                 \
        QVERIFY2((run).exitCode == (code), qPrintable(describe(run)));                                       \
        QVERIFY2((run).out.isEmpty(), qPrintable(describe(run)));                                            \
        QVERIFY2(lines((run).err).size() == 1, qPrintable(describe(run)));                                   \
        QVERIFY2((run).err.startsWith(QStringLiteral("semscope-cli: ")), qPrintable(describe(run)));         \
    } while (false)

class TestCliBasics : public QObject {
    Q_OBJECT
    void saysTheUsageError(const QStringList &args, const QString &expected);

private Q_SLOTS:
    void initTestCase();
    void version();
    void help();
    void pingAndInfoPlain();
    void jsonOutput();
    void tls();
    void tlsWrongCa();
    void tlsInsecureWarns();
    void unixSocket();
    void aclPasswordFromUrlAndEnvironment();
    void wrongPasswordIsExit2AndNeverPrinted();
    void missingPasswordIsExit2AndSaysSo_data();
    void missingPasswordIsExit2AndSaysSo();
    void malformedUrls_data();
    void malformedUrls();
    void unknownHost();
    void closedPort();
    void usageErrors_data();
    void usageErrors();
    void countsSayWhatIsWrong_data();
    void countsSayWhatIsWrong();
    void optionsThatDoNotApplyAreRefused_data();
    void optionsThatDoNotApplyAreRefused();
    void jsonFailuresPrintOneJsonDocument_data();
    void jsonFailuresPrintOneJsonDocument();
};

void TestCliBasics::initTestCase() {
    QVERIFY2(!qEnvironmentVariable("SEMSCOPE_CLI").isEmpty(), "SEMSCOPE_CLI is not set (run through ctest)");
}

void TestCliBasics::version() {
    const Run r = runCli({QStringLiteral("--version")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(
        QRegularExpression(QStringLiteral("^semscope-cli \\d+\\.\\d+\\.\\d+\\n$")).match(r.out).hasMatch(),
        qPrintable(r.out));
    QVERIFY(r.err.isEmpty());
}

void TestCliBasics::help() {
    const Run r = runCli({QStringLiteral("--help")});
    QCOMPARE(r.exitCode, 0);
    for (const char *expected : {"ping", "info", "--redis", "--tls-ca", "--tls-cert", "--tls-key",
                                 "--tls-insecure", "--json", "--version"}) {
        QVERIFY2(r.out.contains(QLatin1String(expected)), expected);
    }
}

void TestCliBasics::pingAndInfoPlain() {
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    const Run ping = runCli({QStringLiteral("--redis"), server.url(), QStringLiteral("ping")});
    QVERIFY2(ping.exitCode == 0, qPrintable(describe(ping)));
    QVERIFY2(ping.out.startsWith(QStringLiteral("PONG from redis://127.0.0.1:%1/0 in ").arg(server.port())),
             qPrintable(ping.out));
    QVERIFY(ping.err.isEmpty());

    const Run info = runCli({QStringLiteral("--redis"), server.url(), QStringLiteral("info")});
    QVERIFY2(info.exitCode == 0, qPrintable(describe(info)));
    const QByteArray serverInfo = server.command({"INFO", "server"}).str;
    const QString version = QRegularExpression(QStringLiteral("redis_version:(\\S+)"))
                                .match(QString::fromUtf8(serverInfo))
                                .captured(1);
    QVERIFY(!version.isEmpty());
    QVERIFY2(info.out.contains(QStringLiteral("Version:           ") + version), qPrintable(info.out));
    QVERIFY2(info.out.contains(QStringLiteral("Role:              master")), qPrintable(info.out));
    QVERIFY2(QRegularExpression(QStringLiteral("Connected clients: [1-9]")).match(info.out).hasMatch(),
             qPrintable(info.out));
    QVERIFY2(QRegularExpression(QStringLiteral("Used memory:       \\S+ \\(\\d+ bytes\\)"))
                 .match(info.out)
                 .hasMatch(),
             qPrintable(info.out));
}

void TestCliBasics::jsonOutput() {
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    const Run ping =
        runCli({QStringLiteral("--redis"), server.url(), QStringLiteral("--json"), QStringLiteral("ping")});
    QVERIFY2(ping.exitCode == 0, qPrintable(describe(ping)));
    QJsonParseError error;
    const QJsonObject p = QJsonDocument::fromJson(ping.out.toUtf8(), &error).object();
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(ping.out));
    QCOMPARE(p.value(QStringLiteral("reply")).toString(), QStringLiteral("PONG"));
    QCOMPARE(p.value(QStringLiteral("endpoint")).toString(),
             QStringLiteral("redis://127.0.0.1:%1/0").arg(server.port()));
    QVERIFY(p.value(QStringLiteral("roundTripMs")).toDouble(-1) >= 0);

    const Run info =
        runCli({QStringLiteral("--json"), QStringLiteral("--redis"), server.url(), QStringLiteral("info")});
    QVERIFY2(info.exitCode == 0, qPrintable(describe(info)));
    const QJsonObject i = QJsonDocument::fromJson(info.out.toUtf8(), &error).object();
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(info.out));
    QVERIFY(i.value(QStringLiteral("version")).toString().contains(QLatin1Char('.')));
    QCOMPARE(i.value(QStringLiteral("role")).toString(), QStringLiteral("master"));
    QCOMPARE(i.value(QStringLiteral("mode")).toString(), QStringLiteral("standalone"));
    QVERIFY(i.value(QStringLiteral("connectedClients")).toInteger() >= 1);
    QVERIFY(i.value(QStringLiteral("usedMemoryBytes")).toInteger() > 0);
    QVERIFY(!i.value(QStringLiteral("usedMemoryHuman")).toString().isEmpty());
}

void TestCliBasics::tls() {
    RedisServer server;
    RedisServer::Options options;
    options.tls = true;
    QVERIFY2(server.start(options), qPrintable(server.errorString()));
    const QStringList tlsArgs = {
        QStringLiteral("--redis"),    server.url(),      QStringLiteral("--tls-ca"),  server.caFile(),
        QStringLiteral("--tls-cert"), server.certFile(), QStringLiteral("--tls-key"), server.keyFile()};
    const Run ping = runCli(tlsArgs + QStringList{QStringLiteral("ping")});
    QVERIFY2(ping.exitCode == 0, qPrintable(describe(ping)));
    QVERIFY(ping.out.startsWith(QStringLiteral("PONG from rediss://")));
    const Run info = runCli(tlsArgs + QStringList{QStringLiteral("info")});
    QVERIFY2(info.exitCode == 0, qPrintable(describe(info)));
    QVERIFY(info.out.contains(QStringLiteral("Role:              master")));
}

void TestCliBasics::tlsWrongCa() {
    RedisServer server;
    RedisServer::Options options;
    options.tls = true;
    QVERIFY2(server.start(options), qPrintable(server.errorString()));
    QTemporaryDir otherDir;
    TlsMaterial other;
    QString error;
    QVERIFY2(other.generate(otherDir.path(), &error), qPrintable(error));
    const Run r = runCli({QStringLiteral("--redis"), server.url(), QStringLiteral("--tls-ca"), other.caFile(),
                          QStringLiteral("--tls-cert"), server.certFile(), QStringLiteral("--tls-key"),
                          server.keyFile(), QStringLiteral("ping")});
    VERIFY_ONE_LINE_ERROR(r, 2);
    QVERIFY2(r.err.startsWith(QStringLiteral("semscope-cli: rediss://127.0.0.1:%1/0: TLS handshake failed: ")
                                  .arg(server.port())),
             qPrintable(r.err));
}

void TestCliBasics::tlsInsecureWarns() {
    RedisServer server;
    RedisServer::Options options;
    options.tls = true;
    QVERIFY2(server.start(options), qPrintable(server.errorString()));
    const Run r = runCli({QStringLiteral("--redis"), server.url(), QStringLiteral("--tls-insecure"),
                          QStringLiteral("--tls-cert"), server.certFile(), QStringLiteral("--tls-key"),
                          server.keyFile(), QStringLiteral("ping")});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    QCOMPARE(lines(r.err).size(), 1);
    QVERIFY2(r.err.startsWith(QStringLiteral("semscope-cli: warning: ")), qPrintable(r.err));
    QVERIFY(r.err.contains(QStringLiteral("verification is disabled")));
}

void TestCliBasics::unixSocket() {
    RedisServer server;
    RedisServer::Options options;
    options.unixSocket = true;
    QVERIFY2(server.start(options), qPrintable(server.errorString()));
    const Run ping = runCli({QStringLiteral("--redis"), server.url(), QStringLiteral("ping")});
    QVERIFY2(ping.exitCode == 0, qPrintable(describe(ping)));
    QVERIFY(ping.out.startsWith(QStringLiteral("PONG from unix://") + server.unixSocketPath()));
    const Run info =
        runCli({QStringLiteral("--redis"), server.url() + QStringLiteral("?db=2"), QStringLiteral("info")});
    QVERIFY2(info.exitCode == 0, qPrintable(describe(info)));
}

void TestCliBasics::aclPasswordFromUrlAndEnvironment() {
    RedisServer server;
    RedisServer::Options options;
    options.aclUser = QStringLiteral("ops");
    options.aclPassword = QStringLiteral("tr0ub4dor");
    QVERIFY2(server.start(options), qPrintable(server.errorString()));
    const QString withPassword = QStringLiteral("redis://ops:tr0ub4dor@127.0.0.1:%1").arg(server.port());
    const Run fromUrl = runCli({QStringLiteral("--redis"), withPassword, QStringLiteral("ping")});
    QVERIFY2(fromUrl.exitCode == 0, qPrintable(describe(fromUrl)));
    QVERIFY(!fromUrl.out.contains(QStringLiteral("tr0ub4dor")));

    const QString userOnly = QStringLiteral("redis://ops@127.0.0.1:%1").arg(server.port());
    const Run fromEnv = runCli({QStringLiteral("--redis"), userOnly, QStringLiteral("info")},
                               {{QStringLiteral("REDISCLI_AUTH"), QStringLiteral("tr0ub4dor")}});
    QVERIFY2(fromEnv.exitCode == 0, qPrintable(describe(fromEnv)));
}

void TestCliBasics::wrongPasswordIsExit2AndNeverPrinted() {
    RedisServer server;
    RedisServer::Options options;
    options.aclUser = QStringLiteral("ops");
    options.aclPassword = QStringLiteral("tr0ub4dor");
    QVERIFY2(server.start(options), qPrintable(server.errorString()));
    for (const QString &command : {QStringLiteral("ping"), QStringLiteral("info")}) {
        const Run r =
            runCli({QStringLiteral("--redis"),
                    QStringLiteral("redis://ops:hunter2@127.0.0.1:%1").arg(server.port()), command});
        VERIFY_ONE_LINE_ERROR(r, 2);
        QVERIFY2(r.err.startsWith(
                     QStringLiteral("semscope-cli: redis://127.0.0.1:%1/0: authentication failed: WRONGPASS")
                         .arg(server.port())),
                 qPrintable(r.err));
        QVERIFY(!r.err.contains(QStringLiteral("hunter2")));
        QVERIFY(!r.err.contains(QStringLiteral("tr0ub4dor")));
    }
}

void TestCliBasics::missingPasswordIsExit2AndSaysSo_data() {
    QTest::addColumn<QStringList>("command");
    QTest::newRow("ping") << QStringList{"ping"};
    QTest::newRow("info") << QStringList{"info"};
    QTest::newRow("list") << QStringList{"list"};
    QTest::newRow("show") << QStringList{"show", "jobs"};
    // Its script load once failed with "ERR Protocol error: unauthenticated multibulk length", exit 1.
    QTest::newRow("acquire") << QStringList{"acquire", "jobs", "--kind", "leased", "--limit", "1"};
}

void TestCliBasics::missingPasswordIsExit2AndSaysSo() {
    // No password for a server that wants one is a wrong password too: the server could not be asked
    // (exit 2), and the one line says what is missing, not a warning plus the first command's NOAUTH.
    QFETCH(QStringList, command);
    RedisServer server;
    RedisServer::Options options;
    options.aclUser = QStringLiteral("ops");
    options.aclPassword = QStringLiteral("tr0ub4dor");
    QVERIFY2(server.start(options), qPrintable(server.errorString()));
    const Run r = runCli(
        QStringList{QStringLiteral("--redis"), QStringLiteral("redis://127.0.0.1:%1").arg(server.port())} +
        command);
    VERIFY_ONE_LINE_ERROR(r, 2);
    QVERIFY2(
        r.err.contains(QStringLiteral("authentication required: the server wants a password and none was "
                                      "given (NOAUTH")),
        qPrintable(r.err));
}

void TestCliBasics::malformedUrls_data() {
    QTest::addColumn<QString>("url");
    QTest::newRow("empty") << QString();
    QTest::newRow("no scheme") << QStringLiteral("localhost:6379");
    QTest::newRow("wrong scheme") << QStringLiteral("http://127.0.0.1:6379");
    QTest::newRow("port too big") << QStringLiteral("redis://127.0.0.1:70000");
    QTest::newRow("port not a number") << QStringLiteral("redis://127.0.0.1:port");
    QTest::newRow("db not a number") << QStringLiteral("redis://127.0.0.1:6379/zero");
    QTest::newRow("no host") << QStringLiteral("redis://");
    QTest::newRow("relative unix path") << QStringLiteral("unix://redis.sock");
    QTest::newRow("password in a bad url") << QStringLiteral("redis://u:hunter2@127.0.0.1:bad");
    // Base64 passwords hold '/': the redaction once took the first '/' for the end of the host.
    QTest::newRow("password with a slash") << QStringLiteral("redis://u:hunter2/x+y==@127.0.0.1:bad");
}

void TestCliBasics::malformedUrls() {
    QFETCH(QString, url);
    for (const QString &command : {QStringLiteral("ping"), QStringLiteral("info")}) {
        const Run r = runCli({QStringLiteral("--redis"), url, command});
        VERIFY_ONE_LINE_ERROR(r, 2);
        QVERIFY2(r.err.contains(QStringLiteral("malformed Redis URL")), qPrintable(r.err));
        QVERIFY2(!r.err.contains(QStringLiteral("hunter2")), qPrintable(r.err));
        QVERIFY2(!r.err.contains(QStringLiteral("x+y")), qPrintable(r.err));
    }
}

void TestCliBasics::unknownHost() {
    // The lookup runs in a network namespace of its own (unshare), where the resolver is
    // unreachable: "unknown host" without a single packet leaving this machine.
    QProcess probe;
    probe.start(QStringLiteral("unshare"), {QStringLiteral("-rn"), QStringLiteral("true")});
    if (!probe.waitForFinished(30000) || probe.exitStatus() != QProcess::NormalExit || probe.exitCode() != 0)
        QSKIP("unshare -rn is not available here; an unknown-host lookup would need the network");
    const Run r = runCli({QStringLiteral("--redis"), QStringLiteral("redis://no-such-host.invalid:6379"),
                          QStringLiteral("ping")},
                         {}, {QStringLiteral("unshare"), QStringLiteral("-rn")});
    VERIFY_ONE_LINE_ERROR(r, 2);
    QCOMPARE(r.err, QStringLiteral("semscope-cli: redis://no-such-host.invalid:6379/0: host not found\n"));
}

void TestCliBasics::closedPort() {
    const quint16 port = ::closedPort();
    for (const QString &command : {QStringLiteral("ping"), QStringLiteral("info")}) {
        const Run r =
            runCli({QStringLiteral("--redis"), QStringLiteral("redis://127.0.0.1:%1").arg(port), command});
        VERIFY_ONE_LINE_ERROR(r, 2);
        QCOMPARE(r.err,
                 QStringLiteral("semscope-cli: redis://127.0.0.1:%1/0: connection refused\n").arg(port));
    }
}

void TestCliBasics::usageErrors_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("expected");
    QTest::newRow("no --redis") << QStringList{QStringLiteral("ping")} << QStringLiteral("no Redis given");
    QTest::newRow("tls option on plain url")
        << QStringList{QStringLiteral("--redis"), QStringLiteral("redis://127.0.0.1:1"),
                       QStringLiteral("--tls-ca"), QStringLiteral("/x.pem"), QStringLiteral("info")}
        << QStringLiteral("need a rediss:// URL");
    QTest::newRow("cert without key")
        << QStringList{QStringLiteral("--redis"), QStringLiteral("rediss://127.0.0.1:1"),
                       QStringLiteral("--tls-cert"), QStringLiteral("/x.pem"), QStringLiteral("ping")}
        << QStringLiteral("--tls-cert and --tls-key go together");
    QTest::newRow("missing CA file") << QStringList{QStringLiteral("--redis"),
                                                    QStringLiteral("rediss://127.0.0.1:1"),
                                                    QStringLiteral("--tls-ca"),
                                                    QStringLiteral("/nonexistent/ca.pem"),
                                                    QStringLiteral("ping")}
                                     << QStringLiteral("cannot read CA file /nonexistent/ca.pem");
    QTest::newRow("unknown option") << QStringList{QStringLiteral("--bogus"), QStringLiteral("ping")}
                                    << QStringLiteral("bogus");
    // Once ignored: `ping jobs` pinged and exited 0.
    QTest::newRow("ping with an argument")
        << QStringList{QStringLiteral("--redis"), QStringLiteral("redis://127.0.0.1:1"),
                       QStringLiteral("ping"), QStringLiteral("jobs")}
        << QStringLiteral("ping takes no arguments");
    QTest::newRow("info with an argument")
        << QStringList{QStringLiteral("--redis"), QStringLiteral("redis://127.0.0.1:1"),
                       QStringLiteral("info"), QStringLiteral("jobs")}
        << QStringLiteral("info takes no arguments");
}

void TestCliBasics::usageErrors() {
    QFETCH(QStringList, args);
    QFETCH(QString, expected);
    const Run r = runCli(args);
    VERIFY_ONE_LINE_ERROR(r, 2);
    QVERIFY2(r.err.contains(expected), qPrintable(r.err));
}

void TestCliBasics::countsSayWhatIsWrong_data() {
    // Every count an operator types is judged the same way, naming what was meant and what was
    // typed. A negative positional number once stopped in the option parser: `set-limit jobs -1`
    // said "Unknown option '1'.".
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("expected");
    const QString limit = QStringLiteral("set-limit: the limit must be a whole number of at least 1, not %1");
    QTest::newRow("set-limit negative") << QStringList{"set-limit", "jobs", "-1"} << limit.arg("-1");
    QTest::newRow("set-limit negative, options after")
        << QStringList{"set-limit", "jobs", "-1", "--kind", "leased"} << limit.arg("-1");
    QTest::newRow("set-limit negative after --")
        << QStringList{"set-limit", "--", "jobs", "-5"} << limit.arg("-5");
    QTest::newRow("set-limit zero") << QStringList{"set-limit", "jobs", "0"} << limit.arg("0");
    QTest::newRow("set-limit fraction") << QStringList{"set-limit", "jobs", "2.5"} << limit.arg("2.5");
    QTest::newRow("set-limit word") << QStringList{"set-limit", "jobs", "many"} << limit.arg("'many'");
    QTest::newRow("--limit negative")
        << QStringList{"acquire", "jobs", "--limit", "-3"}
        << QStringLiteral("--limit must be a whole number of at least 1, not -3");
    QTest::newRow("--limit=negative")
        << QStringList{"acquire", "jobs", "--limit=-3"}
        << QStringLiteral("--limit must be a whole number of at least 1, not -3");
    QTest::newRow("--clients negative")
        << QStringList{"loadtest", "jobs", "--kind", "leased", "--clients", "-2"}
        << QStringLiteral("--clients must be a whole number from 1 to 100000, not -2");
    QTest::newRow("--ops negative") << QStringList{"loadtest", "jobs", "--kind", "leased", "--ops", "-1"}
                                    << QStringLiteral(
                                           "--ops must be a whole number from 1 to 1000000000, not -1");
    QTest::newRow("--replicas negative")
        << QStringList{"acquire", "jobs", "--replicas", "-1"}
        << QStringLiteral("--replicas must be a whole number from 0 to 100, not -1");
    QTest::newRow("--port negative") << QStringList{"sandbox", "consul", "--port", "-1"}
                                     << QStringLiteral(
                                            "--port must be a whole number from 0 to 65535, not -1");
}

// A usage error is said before any connection (the port is closed): one line, exit 2.
void TestCliBasics::saysTheUsageError(const QStringList &args, const QString &expected) {
    const Run r =
        runCli(QStringList{QStringLiteral("--redis"), QStringLiteral("redis://127.0.0.1:1")} + args);
    VERIFY_ONE_LINE_ERROR(r, 2);
    QCOMPARE(r.err, QStringLiteral("semscope-cli: %1\n").arg(expected));
}

void TestCliBasics::countsSayWhatIsWrong() {
    QFETCH(QStringList, args);
    QFETCH(QString, expected);
    saysTheUsageError(args, expected);
}

void TestCliBasics::optionsThatDoNotApplyAreRefused_data() {
    // Every command's options share one parser, so an option of another command was taken and
    // ignored: `run ... --replicas 1` ran COMMAND on a grant no replica had acknowledged.
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("expected");
    QTest::newRow("release --replicas") << QStringList{"release", "jobs", "h1", "--replicas", "1"}
                                        << "--replicas does not apply to release; see semscope-cli --help";
    QTest::newRow("ping --wait") << QStringList{"ping", "--wait", "5s"}
                                 << "--wait does not apply to ping; see semscope-cli --help";
    QTest::newRow("show --grace") << QStringList{"show", "jobs", "--grace", "1s"}
                                  << "--grace does not apply to show; see semscope-cli --help";
    QTest::newRow("list --interval") << QStringList{"list", "--interval", "1s"}
                                     << "--interval does not apply to list; see semscope-cli --help";
}

void TestCliBasics::optionsThatDoNotApplyAreRefused() {
    QFETCH(QStringList, args);
    QFETCH(QString, expected);
    saysTheUsageError(args, expected);
}

void TestCliBasics::jsonFailuresPrintOneJsonDocument_data() {
    // "URL" stands for a running server's URL.
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("status");
    QTest::newRow("option parser") << QStringList{"--json", "--nope"} << 2 << "error";
    QTest::newRow("no command") << QStringList{"--json"} << 2 << "error";
    QTest::newRow("unknown command") << QStringList{"--json", "frobnicate"} << 2 << "error";
    QTest::newRow("missing NAME") << QStringList{"--redis", "URL", "--json", "show"} << 2 << "error";
    QTest::newRow("negative limit") << QStringList{"--redis", "URL", "--json", "set-limit", "x", "-1"} << 2
                                    << "error";
    QTest::newRow("bare --ttl") << QStringList{"--redis", "URL", "--json", "acquire", "x", "--ttl", "5"} << 2
                                << "error";
    QTest::newRow("refused port") << QStringList{"--redis", "redis://127.0.0.1:1", "--json", "ping"} << 2
                                  << "error";
    QTest::newRow("no such semaphore")
        << QStringList{"--redis", "URL", "--json", "show", "nosuch"} << 1 << "error";
    // A refusal with an answer of its own prints that answer, not a second document.
    QTest::newRow("busy acquire") << QStringList{"--redis", "URL",    "--json", "acquire",
                                                 "full",    "--kind", "leased"}
                                  << 1 << "busy";
}

void TestCliBasics::jsonFailuresPrintOneJsonDocument() {
    // With --json a script reading stdout gets one JSON document on every path, failures included
    // (stdout used to be empty for most of them); stderr still has the one line.
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, status);
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    const Run held =
        runCli({QStringLiteral("--redis"), server.url(), QStringLiteral("acquire"), QStringLiteral("full"),
                QStringLiteral("--kind"), QStringLiteral("leased"), QStringLiteral("--limit"),
                QStringLiteral("1"), QStringLiteral("--ttl"), QStringLiteral("5m")});
    QCOMPARE(held.exitCode, 0);
    args.replaceInStrings(QRegularExpression(QStringLiteral("^URL$")), server.url());

    const Run r = runCli(args);
    QVERIFY2(r.finished, qPrintable(describe(r)));
    QVERIFY2(r.exitCode == exitCode, qPrintable(describe(r)));
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(r.out.toUtf8(), &parseError);
    QVERIFY2(parseError.error == QJsonParseError::NoError && doc.isObject(), qPrintable(describe(r)));
    QCOMPARE(doc.object().value(QStringLiteral("status")).toString(), status);
    QVERIFY2(lines(r.err).size() == 1 && r.err.startsWith(QStringLiteral("semscope-cli: ")),
             qPrintable(describe(r)));
    if (status != QLatin1String("error"))
        return;
    QCOMPARE(doc.object().value(QStringLiteral("exit_code")).toInt(), exitCode);
    const QString error = doc.object().value(QStringLiteral("error")).toString();
    QVERIFY2(!error.isEmpty() && r.err.contains(error), qPrintable(describe(r)));
}
SEMSCOPE_TEST_GUILESS_MAIN(TestCliBasics)
#include "tst_cli_basics.moc"
