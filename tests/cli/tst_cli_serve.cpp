// `semscope-cli serve --metrics` end to end: a real redis-server, the exporter as a process, its
// /metrics read by a stock parser (promtool) and scraped by a real `prometheus` whose query API
// returns the right limit, used and stale counts; a stuck lease-less `slots` holder stays stale
// across a restart (the shared history); scrapes never read the server; a busy port exits 2; the
// listener answers only what it should.
#include "RedisServer.h"
#include "TestMain.h"
#include "TestWait.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>
#include <csignal>
#include <memory>

using namespace semscope;
using test::waitFor;

namespace {

struct HttpReply {
    int status = 0; // 0: no answer
    QByteArray head;
    QByteArray body;
};

// One HTTP/1.0 request on a fresh connection (the server closes it after the answer, so neither
// side needs chunked bodies or keep-alive). Blocking is fine: the server is another process.
HttpReply http(quint16 port, const QByteArray &target, const QByteArray &method = "GET",
               const QByteArray &extraHead = {}) {
    QTcpSocket socket;
    socket.connectToHost(QStringLiteral("127.0.0.1"), port);
    HttpReply reply;
    if (!socket.waitForConnected(5000))
        return reply;
    socket.write(method + ' ' + target + " HTTP/1.0\r\nHost: 127.0.0.1\r\n" + extraHead + "\r\n");
    QByteArray all;
    while (socket.state() == QAbstractSocket::ConnectedState && socket.waitForReadyRead(10000))
        all += socket.readAll();
    all += socket.readAll();
    const qsizetype split = all.indexOf("\r\n\r\n");
    if (!all.startsWith("HTTP/1.") || split < 0)
        return reply;
    reply.head = all.left(split);
    reply.body = all.mid(split + 4);
    reply.status = all.mid(9, 3).toInt();
    return reply;
}

// The value of `family` for the semaphore `name` in a /metrics text; nullopt when not there.
std::optional<double> sample(const QByteArray &metrics, const QString &family, const QString &name) {
    const QString prefix = family + QLatin1Char('{');
    const QString nameLabel = QStringLiteral("name=\"%1\"").arg(name);
    for (const QString &line : QString::fromUtf8(metrics).split(QLatin1Char('\n'))) {
        if (line.startsWith(prefix) && line.contains(nameLabel))
            return line.section(QLatin1Char(' '), -1).toDouble();
    }
    return std::nullopt;
}

std::optional<double> counter(const QByteArray &metrics, const QString &family, const QString &label = {}) {
    for (const QString &line : QString::fromUtf8(metrics).split(QLatin1Char('\n'))) {
        if (line.startsWith(family + QLatin1Char('{')) && (label.isEmpty() || line.contains(label)))
            return line.section(QLatin1Char(' '), -1).toDouble();
    }
    return std::nullopt;
}

quint16 freePort() {
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}

} // namespace

class TestCliServe : public QObject {
    Q_OBJECT

private:
    test::RedisServer m_redis;
    QString m_cli;
    QTemporaryDir m_home; // settings, profiles and the history of the CLI runs
    QString m_history;    // SEMSCOPE_HISTORY of the runs (one per test)

    QProcessEnvironment environment() const {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("CONSUL_HTTP_ADDR"));
        env.remove(QStringLiteral("REDISCLI_AUTH"));
        env.insert(QStringLiteral("HOME"), m_home.path());
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_home.path() + QStringLiteral("/config"));
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_home.path() + QStringLiteral("/data"));
        env.insert(QStringLiteral("SEMSCOPE_HISTORY"), m_history);
        return env;
    }

    int cli(const QStringList &args) {
        QProcess p;
        p.setProcessEnvironment(environment());
        p.setStandardInputFile(QProcess::nullDevice());
        p.start(m_cli, QStringList{QStringLiteral("--redis"), m_redis.url()} + args);
        if (!p.waitForFinished(60000)) {
            p.kill();
            p.waitForFinished();
            return -1;
        }
        return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    }

    // Starts `serve` on a port of its choosing and returns the port it prints (0 on failure).
    quint16 startServe(QProcess &p, const QStringList &args, QStringList store = {}) {
        if (store.isEmpty())
            store = {QStringLiteral("--redis"), m_redis.url()};
        p.setProcessEnvironment(environment());
        p.setStandardInputFile(QProcess::nullDevice());
        p.start(m_cli, store +
                           QStringList{QStringLiteral("serve"), QStringLiteral("--metrics"),
                                       QStringLiteral("127.0.0.1:0")} +
                           args);
        static const QRegularExpression announced(QStringLiteral("on http://127\\.0\\.0\\.1:(\\d+)/metrics"));
        QByteArray err;
        quint16 port = 0;
        waitFor([&] {
            err += p.readAllStandardError();
            const QRegularExpressionMatch m = announced.match(QString::fromUtf8(err));
            if (m.hasMatch())
                port = quint16(m.captured(1).toUInt());
            return port != 0 || p.state() == QProcess::NotRunning;
        });
        if (port == 0)
            qWarning("serve did not start: %s", err.constData());
        return port;
    }

    // SIGINT (Ctrl-C): serve must end with exit 0.
    static bool interrupt(QProcess &p) {
        ::kill(pid_t(p.processId()), SIGINT);
        if (!p.waitForFinished(10000)) {
            p.kill();
            p.waitForFinished();
            return false;
        }
        return p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
    }

    // Waits until /metrics says `family` of `name` is `value`; returns the last text read.
    QByteArray waitForSample(quint16 port, const QString &family, const QString &name, double value) {
        QByteArray last;
        waitFor([&] {
            last = http(port, "/metrics").body;
            return sample(last, family, name) == value;
        });
        return last;
    }

    // The orders (leased, 3 permits, 2 holders) and printers (`slots` as its foreign clients write
    // it: no lease, 3 slots, worker-1 holding slot 1) semaphores.
    void makeSemaphores() {
        QCOMPARE(
            cli({"acquire", "orders", "--kind", "leased", "--limit", "3", "--holder", "a", "--ttl", "60s"}),
            0);
        QCOMPARE(cli({"acquire", "orders", "--kind", "leased", "--holder", "b", "--ttl", "60s"}), 0);
        m_redis.command({"RPUSH", "printers|list", "2", "3"});
        m_redis.command({"HSET", "printers|map", "worker-1", "1"});
    }

private Q_SLOTS:
    void initTestCase() {
        m_cli = qEnvironmentVariable("SEMSCOPE_CLI");
        QVERIFY2(QFileInfo::exists(m_cli), "SEMSCOPE_CLI must name the semscope-cli binary");
        QVERIFY(m_home.isValid());
        QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString()));
    }

    void init() {
        m_redis.command({"FLUSHALL"});
        static int n = 0;
        m_history = m_home.filePath(QStringLiteral("history-%1.sqlite").arg(++n));
    }

    void exposesLimitUsedStaleAndEvents() {
        makeSemaphores();
        QProcess serve;
        const quint16 port = startServe(serve, {"--interval", "200ms", "--stuck-after", "1h"});
        QVERIFY(port != 0);
        QByteArray metrics =
            waitForSample(port, QStringLiteral("semscope_semaphore_used"), QStringLiteral("orders"), 2);
        QCOMPARE(sample(metrics, QStringLiteral("semscope_semaphore_used"), QStringLiteral("orders")), 2.0);
        QCOMPARE(sample(metrics, QStringLiteral("semscope_semaphore_limit"), QStringLiteral("orders")), 3.0);
        QCOMPARE(
            sample(metrics, QStringLiteral("semscope_semaphore_stale_holders"), QStringLiteral("orders")),
            0.0);
        QCOMPARE(sample(metrics, QStringLiteral("semscope_semaphore_waiters"), QStringLiteral("orders")),
                 0.0);
        const auto soonest = sample(metrics, QStringLiteral("semscope_semaphore_soonest_expiry_seconds"),
                                    QStringLiteral("orders"));
        QVERIFY(soonest && *soonest > 0 && *soonest <= 60);
        metrics =
            waitForSample(port, QStringLiteral("semscope_semaphore_used"), QStringLiteral("printers"), 1);
        QCOMPARE(sample(metrics, QStringLiteral("semscope_semaphore_limit"), QStringLiteral("printers")),
                 3.0);
        QCOMPARE(
            sample(metrics, QStringLiteral("semscope_semaphore_stale_holders"), QStringLiteral("printers")),
            0.0);
        QVERIFY(!sample(metrics, QStringLiteral("semscope_semaphore_soonest_expiry_seconds"),
                        QStringLiteral("printers")));
        QVERIFY(metrics.contains(QByteArray("endpoint=\"" + m_redis.url().toUtf8())));
        QVERIFY(counter(metrics, QStringLiteral("semscope_discovery_duration_seconds")).has_value());
        QCOMPARE(counter(metrics, QStringLiteral("semscope_scrape_errors_total")), 0.0);

        // The live output passes the stock parser too.
        const QString promtool = QStandardPaths::findExecutable(QStringLiteral("promtool"));
        QVERIFY2(!promtool.isEmpty(),
                 "promtool not found: install Debian's `prometheus` (scripts/bootstrap.sh)");
        QProcess check;
        check.start(promtool, {QStringLiteral("check"), QStringLiteral("metrics")});
        check.write(metrics);
        check.closeWriteChannel();
        QVERIFY(check.waitForFinished(30000));
        QVERIFY2(check.exitCode() == 0, check.readAll().constData());

        // What other clients do meanwhile is counted as holder events.
        QCOMPARE(cli({"release", "orders", "a", "--kind", "leased"}), 0);
        metrics = waitForSample(port, QStringLiteral("semscope_semaphore_used"), QStringLiteral("orders"), 1);
        QCOMPARE(sample(metrics, QStringLiteral("semscope_semaphore_used"), QStringLiteral("orders")), 1.0);
        QVERIFY(waitFor([&] {
            return counter(http(port, "/metrics").body, QStringLiteral("semscope_holder_events_total"),
                           QStringLiteral("event=\"released\"")) == 1.0;
        }));
        QVERIFY(interrupt(serve));
    }

    // A holder the layout gives no time: its age comes from the shared history, so a stuck one is
    // stale from the first round of a restarted exporter — not only after --stuck-after again.
    void stuckSlotsHolderStaysStaleAcrossRestart() {
        makeSemaphores();
        const QStringList args{"--interval", "200ms", "--stuck-after", "3s", "--match", "printers*"};
        QProcess first;
        quint16 port = startServe(first, args);
        QVERIFY(port != 0);
        const QByteArray before = waitForSample(port, QStringLiteral("semscope_semaphore_stale_holders"),
                                                QStringLiteral("printers"), 1);
        QCOMPARE(
            sample(before, QStringLiteral("semscope_semaphore_stale_holders"), QStringLiteral("printers")),
            1.0);
        QVERIFY(
            !sample(before, QStringLiteral("semscope_semaphore_used"), QStringLiteral("orders"))); // --match
        QVERIFY(interrupt(first));

        // The first answer that lists printers after the restart already counts it stale (well
        // within 3 s of the restart, so not from this run's own watching).
        QProcess second;
        port = startServe(second, args);
        QVERIFY(port != 0);
        QByteArray after;
        QVERIFY(waitFor([&] {
            after = http(port, "/metrics").body;
            return sample(after, QStringLiteral("semscope_semaphore_used"), QStringLiteral("printers"))
                .has_value();
        }));
        QCOMPARE(
            sample(after, QStringLiteral("semscope_semaphore_stale_holders"), QStringLiteral("printers")),
            1.0);
        QVERIFY(*sample(after, QStringLiteral("semscope_semaphore_oldest_holder_age_seconds"),
                        QStringLiteral("printers")) >= 3.0);
        QVERIFY(interrupt(second));

        // Control: a history that never saw the holder starts its age at 0.
        m_history = m_home.filePath(QStringLiteral("history-fresh.sqlite"));
        QProcess fresh;
        port = startServe(fresh, args);
        QVERIFY(port != 0);
        QVERIFY(waitFor([&] {
            after = http(port, "/metrics").body;
            return sample(after, QStringLiteral("semscope_semaphore_used"), QStringLiteral("printers"))
                .has_value();
        }));
        QCOMPARE(
            sample(after, QStringLiteral("semscope_semaphore_stale_holders"), QStringLiteral("printers")),
            0.0);
        QVERIFY(interrupt(fresh));
    }

    // Reads happen on the watcher's schedule: twenty scrapes send nothing to the server.
    void scrapesNeverReadTheServer() {
        makeSemaphores();
        QProcess serve;
        const quint16 port = startServe(serve, {"--interval", "1h"});
        QVERIFY(port != 0);
        waitForSample(port, QStringLiteral("semscope_semaphore_used"), QStringLiteral("printers"), 1);
        const auto processed = [this] {
            const QByteArray info = m_redis.command({"INFO", "stats"}).str;
            const QRegularExpression re(QStringLiteral("total_commands_processed:(\\d+)"));
            return re.match(QString::fromLatin1(info)).captured(1).toLongLong();
        };
        const qint64 before = processed();
        for (int i = 0; i < 20; ++i)
            QCOMPARE(http(port, "/metrics").status, 200);
        const qint64 after = processed();
        // Our own INFO is one command; anything near 20 would be a read per scrape.
        QVERIFY2(after - before <= 3, qPrintable(QStringLiteral("%1 commands").arg(after - before)));
        QVERIFY(interrupt(serve));
    }

    // Failed reads are counted, the last values stay, and the exporter keeps answering.
    void serverGoneCountsScrapeErrors() {
        makeSemaphores();
        QProcess serve;
        const quint16 port = startServe(serve, {"--interval", "100ms"});
        QVERIFY(port != 0);
        waitForSample(port, QStringLiteral("semscope_semaphore_used"), QStringLiteral("orders"), 2);
        m_redis.stop();
        QByteArray metrics;
        const bool counted = waitFor([&] {
            metrics = http(port, "/metrics").body;
            return counter(metrics, QStringLiteral("semscope_scrape_errors_total")).value_or(0) >= 1;
        });
        QVERIFY2(m_redis.restart(), qPrintable(m_redis.errorString()));
        QVERIFY2(counted, metrics.constData());
        QCOMPARE(sample(metrics, QStringLiteral("semscope_semaphore_used"), QStringLiteral("orders")), 2.0);
        QCOMPARE(http(port, "/-/healthy").status, 200);
        QCOMPARE(serve.state(), QProcess::Running);
        QVERIFY(interrupt(serve));
    }

    // After a Redis restart the exporter reads again (it reconnects): the metrics follow what the
    // restarted server holds. It used to stay disconnected, counting scrape errors, until restarted.
    void readsAgainAfterTheServerRestarts() {
        makeSemaphores();
        QProcess serve;
        const quint16 port = startServe(serve, {"--interval", "100ms"});
        QVERIFY(port != 0);
        waitForSample(port, QStringLiteral("semscope_semaphore_used"), QStringLiteral("orders"), 2);
        m_redis.kill(); // a crash: what it held is gone
        QVERIFY(waitFor([&] {
            return counter(http(port, "/metrics").body, QStringLiteral("semscope_scrape_errors_total"))
                       .value_or(0) >= 1;
        }));
        QVERIFY2(m_redis.restart(), qPrintable(m_redis.errorString()));
        QCOMPARE(
            cli({"acquire", "orders", "--kind", "leased", "--limit", "3", "--holder", "c", "--ttl", "60s"}),
            0);
        const QByteArray metrics =
            waitForSample(port, QStringLiteral("semscope_semaphore_used"), QStringLiteral("orders"), 1);
        QCOMPARE(sample(metrics, QStringLiteral("semscope_semaphore_used"), QStringLiteral("orders")), 1.0);
        QVERIFY(interrupt(serve));
    }

    // Consul (the API double run by `sandbox consul`): followed through blocking queries; a holder
    // whose session is invalidated turns stale.
    void consulSemaphore() {
        QProcess sandbox;
        sandbox.setProcessEnvironment(environment());
        sandbox.start(m_cli, {"sandbox", "consul", "--port", "0"});
        QString url;
        QByteArray said;
        QVERIFY(waitFor([&] {
            said += sandbox.readAllStandardOutput();
            url = QRegularExpression(QStringLiteral("listening on (http://[0-9.:]+)"))
                      .match(QString::fromUtf8(said))
                      .captured(1);
            return !url.isEmpty() || sandbox.state() == QProcess::NotRunning;
        }));
        QVERIFY2(!url.isEmpty(), said.constData());
        const auto stopSandbox = qScopeGuard([&sandbox] { interrupt(sandbox); });

        QProcess acquire;
        acquire.setProcessEnvironment(environment());
        acquire.start(m_cli, {"--consul", url, "acquire", "jobs", "--kind", "consul", "--limit", "2",
                              "--holder", "x", "--ttl", "60s", "--json"});
        QVERIFY(waitFor([&] { return acquire.state() == QProcess::NotRunning; }, 30000));
        QCOMPARE(acquire.exitCode(), 0);
        const QString session = QJsonDocument::fromJson(acquire.readAllStandardOutput())
                                    .object()
                                    .value(QStringLiteral("holder"))
                                    .toString();
        QVERIFY(!session.isEmpty());

        QProcess serve;
        const quint16 port = startServe(serve, {}, {"--consul", url});
        QVERIFY(port != 0);
        QByteArray metrics =
            waitForSample(port, QStringLiteral("semscope_semaphore_used"), QStringLiteral("jobs"), 1);
        QCOMPARE(sample(metrics, QStringLiteral("semscope_semaphore_limit"), QStringLiteral("jobs")), 2.0);
        QCOMPARE(sample(metrics, QStringLiteral("semscope_semaphore_stale_holders"), QStringLiteral("jobs")),
                 0.0);
        QVERIFY(metrics.contains(
            QByteArray("backend=\"consul\",endpoint=\"" + url.toUtf8() + "\",kind=\"consul\"")));

        QProcess invalidate;
        invalidate.setProcessEnvironment(environment());
        invalidate.start(m_cli, {"--consul", url, "invalidate", session});
        QVERIFY(waitFor([&] { return invalidate.state() == QProcess::NotRunning; }, 30000));
        QCOMPARE(invalidate.exitCode(), 0);
        metrics = waitForSample(port, QStringLiteral("semscope_semaphore_stale_holders"),
                                QStringLiteral("jobs"), 1);
        QCOMPARE(sample(metrics, QStringLiteral("semscope_semaphore_stale_holders"), QStringLiteral("jobs")),
                 1.0);
        QCOMPARE(counter(metrics, QStringLiteral("semscope_holder_events_total"),
                         QStringLiteral("event=\"stale\"")),
                 1.0);
        QVERIFY(interrupt(serve));
    }

    // The endpoint label names the server, never its password.
    void endpointLabelCarriesNoSecret() {
        test::RedisServer secured;
        test::RedisServer::Options options;
        options.aclUser = QStringLiteral("ops");
        options.aclPassword = QStringLiteral("s3cret-pw");
        QVERIFY2(secured.start(options), qPrintable(secured.errorString()));
        QProcess serve;
        const quint16 port =
            startServe(serve, {"--interval", "200ms"},
                       {"--redis", QStringLiteral("redis://ops:s3cret-pw@127.0.0.1:%1").arg(secured.port())});
        QVERIFY(port != 0);
        QByteArray metrics;
        QVERIFY(waitFor([&] {
            metrics = http(port, "/metrics").body;
            return metrics.contains("semscope_semaphores{");
        }));
        QVERIFY2(!metrics.contains("s3cret-pw"), metrics.constData());
        QVERIFY2(metrics.contains(QByteArray(QByteArray("127.0.0.1:") + QByteArray::number(secured.port()))),
                 metrics.constData());
        QCOMPARE(counter(metrics, QStringLiteral("semscope_scrape_errors_total")), 0.0);
        QVERIFY(interrupt(serve));
    }

    void busyPortExitsTwo() {
        QTcpServer taken;
        QVERIFY(taken.listen(QHostAddress::LocalHost, 0));
        QProcess p;
        p.setProcessEnvironment(environment());
        p.start(m_cli, {"--redis", m_redis.url(), "serve", "--metrics",
                        QStringLiteral("127.0.0.1:%1").arg(taken.serverPort())});
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 2);
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(err.contains(QStringLiteral("127.0.0.1:%1: cannot listen there").arg(taken.serverPort())),
                 qPrintable(err));
    }

    void badArgumentsExitTwo_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("said");
        QTest::newRow("no --metrics") << QStringList{"serve"} << QStringLiteral("usage: semscope-cli serve");
        QTest::newRow("no port") << QStringList{"serve", "--metrics", "127.0.0.1"}
                                 << QStringLiteral("needs a port from 0 to 65535");
        QTest::newRow("port too big")
            << QStringList{"serve", "--metrics", ":70000"} << QStringLiteral("needs a port from 0 to 65535");
        QTest::newRow("host name") << QStringList{"serve", "--metrics", "example.org:9464"}
                                   << QStringLiteral("does not name an IP address");
        QTest::newRow("bare IPv6") << QStringList{"serve", "--metrics", "::1:9464"}
                                   << QStringLiteral("[ADDRESS]:PORT");
        QTest::newRow("bad stuck-after") << QStringList{"serve", "--metrics", ":0", "--stuck-after", "soon"}
                                         << QStringLiteral("--stuck-after: 'soon' is not a duration");
        QTest::newRow("bad kind") << QStringList{"serve", "--metrics", ":0", "--kind", "nope"}
                                  << QStringLiteral("--kind: unknown kind 'nope'");
    }

    void badArgumentsExitTwo() {
        QFETCH(QStringList, args);
        QFETCH(QString, said);
        QProcess p;
        p.setProcessEnvironment(environment());
        p.start(m_cli, QStringList{"--redis", m_redis.url()} + args);
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 2);
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(err.contains(said), qPrintable(err));
    }

    void listenerAnswersOnlyWhatItShould() {
        QProcess serve;
        const quint16 port = startServe(serve, {"--interval", "1s"});
        QVERIFY(port != 0);
        HttpReply r = http(port, "/-/healthy");
        QCOMPARE(r.status, 200);
        r = http(port, "/metrics");
        QCOMPARE(r.status, 200);
        QVERIFY2(r.head.contains("Content-Type: text/plain; version=0.0.4"), r.head.constData());
        r = http(port, "/metrics", "HEAD");
        QCOMPARE(r.status, 200);
        QVERIFY(r.body.isEmpty());
        r = http(port, "/metrics", "POST");
        QCOMPARE(r.status, 405);
        QVERIFY(r.head.contains("Allow: GET, HEAD"));
        QCOMPARE(http(port, "/keys").status, 404);
        QCOMPARE(http(port, "/metrics", "GET", "X-Filler: " + QByteArray(9000, 'x') + "\r\n").status, 431);
        // Garbage gets 400 and the exporter keeps serving.
        QTcpSocket junk;
        junk.connectToHost(QStringLiteral("127.0.0.1"), port);
        QVERIFY(junk.waitForConnected(5000));
        junk.write("\x16\x03\x01 not http at all\r\n\r\n");
        QVERIFY(junk.waitForReadyRead(5000));
        QVERIFY(junk.readAll().startsWith("HTTP/1.1 400"));
        QCOMPARE(http(port, "/-/healthy").status, 200);
        QVERIFY(interrupt(serve));
    }

    // A stock Prometheus server scrapes the exporter; its query API returns the values.
    // Where the server publishes keyspace notifications, a change is in the metrics at once, not
    // at the next --interval (an hour here).
    void keyspaceNotificationsUpdateTheMetricsAtOnce() {
        QCOMPARE(m_redis.command({"CONFIG", "SET", "notify-keyspace-events", "KEA"}).str, QByteArray("OK"));
        const auto quiet = qScopeGuard([this] {
            m_redis.command({"CONFIG", "SET", "notify-keyspace-events", ""});
        });
        makeSemaphores();
        QProcess serve;
        const quint16 port = startServe(serve, {"--interval", "1h", "--match", "orders*"});
        QVERIFY(port != 0);
        const QByteArray metrics =
            waitForSample(port, QStringLiteral("semscope_semaphore_used"), QStringLiteral("orders"), 2);
        QCOMPARE(sample(metrics, QStringLiteral("semscope_semaphore_used"), QStringLiteral("orders")), 2.0);
        QVERIFY(waitFor([&] {
            const redis::RedisReply r =
                m_redis.command({"PUBSUB", "NUMSUB", "__keyspace@0__:{orders}:holders"});
            return r.elements.size() == 2 && r.elements.at(1).integer == 1;
        }));
        QCOMPARE(cli({"release", "orders", "a", "--kind", "leased"}), 0);
        QVERIFY(waitFor([&] {
            return sample(http(port, "/metrics").body, QStringLiteral("semscope_semaphore_used"),
                          QStringLiteral("orders")) == 1.0;
        }));
        QVERIFY(interrupt(serve));
    }

    void prometheusScrapesIt() {
        const QString prometheus = QStandardPaths::findExecutable(QStringLiteral("prometheus"));
        QVERIFY2(!prometheus.isEmpty(),
                 "prometheus not found: install Debian's `prometheus` (scripts/bootstrap.sh)");
        makeSemaphores();
        QProcess serve;
        const quint16 servePort = startServe(serve, {"--interval", "200ms", "--stuck-after", "1s"});
        QVERIFY(servePort != 0);

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile config(dir.filePath(QStringLiteral("prometheus.yml")));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write(QStringLiteral("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
                                    "scrape_configs:\n  - job_name: semscope\n    static_configs:\n"
                                    "      - targets: ['127.0.0.1:%1']\n")
                         .arg(servePort)
                         .toUtf8());
        config.close();
        const quint16 apiPort = freePort();
        QProcess prom;
        prom.setProcessChannelMode(QProcess::MergedChannels);
        prom.start(prometheus, {QStringLiteral("--config.file=") + config.fileName(),
                                QStringLiteral("--storage.tsdb.path=") + dir.filePath(QStringLiteral("data")),
                                QStringLiteral("--web.listen-address=127.0.0.1:%1").arg(apiPort)});
        QVERIFY(prom.waitForStarted(10000));
        const auto stopPrometheus = qScopeGuard([&prom] {
            prom.terminate();
            if (!prom.waitForFinished(10000)) {
                prom.kill();
                prom.waitForFinished();
            }
        });

        const auto query = [apiPort](const QString &promql) -> std::optional<double> {
            const HttpReply r = http(apiPort, "/api/v1/query?query=" + QUrl::toPercentEncoding(promql));
            if (r.status != 200)
                return std::nullopt;
            const QJsonArray result = QJsonDocument::fromJson(r.body)
                                          .object()
                                          .value(QStringLiteral("data"))
                                          .toObject()
                                          .value(QStringLiteral("result"))
                                          .toArray();
            if (result.size() != 1)
                return std::nullopt;
            return result.at(0)
                .toObject()
                .value(QStringLiteral("value"))
                .toArray()
                .at(1)
                .toString()
                .toDouble();
        };
        std::optional<double> used;
        const bool scraped = waitFor(
            [&] {
                used = query(QStringLiteral(
                    "semscope_semaphore_used{job=\"semscope\",name=\"orders\",kind=\"leased\"}"));
                return used == 2.0;
            },
            60000);
        QVERIFY2(scraped, prom.readAll().right(2000).constData());
        QCOMPARE(query(QStringLiteral("semscope_semaphore_limit{name=\"orders\"}")), 3.0);
        QCOMPARE(query(QStringLiteral("semscope_semaphore_stale_holders{name=\"orders\"}")), 0.0);
        QCOMPARE(query(QStringLiteral("semscope_semaphore_limit{name=\"printers\",kind=\"slots\"}")), 3.0);
        QCOMPARE(query(QStringLiteral("semscope_semaphore_used{name=\"printers\"}")), 1.0);
        // worker-1 has held slot 1 for longer than --stuck-after by now (or soon).
        QVERIFY(waitFor(
            [&] {
                return query(QStringLiteral("semscope_semaphore_stale_holders{name=\"printers\"}")) == 1.0;
            },
            30000));
        QCOMPARE(query(QStringLiteral("up{job=\"semscope\"}")), 1.0);
        QVERIFY(interrupt(serve));
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestCliServe)
#include "tst_cli_serve.moc"
