// semscope-cli end to end against a real redis-server: list, show, acquire, refresh, release,
// force-release, purge and repair, human and --json output, exit codes and error lines.
#include "RedisServer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

using namespace semscope;

namespace {

struct CliRun {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    QJsonObject json() const { return QJsonDocument::fromJson(out).object(); }
    QJsonArray jsonArray() const { return QJsonDocument::fromJson(out).array(); }
};

} // namespace

class TestCliSemaphores : public QObject {
    Q_OBJECT

private:
    test::RedisServer m_server;
    QString m_cli;
    QTemporaryDir m_home; // QSettings (semaphore profiles) of the CLI runs go here

    CliRun cli(QStringList args, const QString &url = {}) {
        args.prepend(url.isEmpty() ? m_server.url() : url);
        args.prepend(QStringLiteral("--redis"));
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), m_home.path());
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_home.path());
        p.setProcessEnvironment(env);
        p.setStandardInputFile(QProcess::nullDevice()); // not a terminal
        p.start(m_cli, args);
        CliRun run;
        if (!p.waitForFinished(60000)) {
            p.kill();
            p.waitForFinished();
            return run;
        }
        run.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
        run.out = p.readAllStandardOutput();
        run.err = p.readAllStandardError();
        return run;
    }

    redis::RedisReply cmd(const QList<QByteArray> &args) { return m_server.command(args); }

    static QJsonObject holderNamed(const QJsonObject &show, const QString &id) {
        for (const QJsonValue &h : show.value(QStringLiteral("holders")).toArray()) {
            if (h.toObject().value(QStringLiteral("id")).toString() == id)
                return h.toObject();
        }
        return {};
    }

private Q_SLOTS:
    void initTestCase() {
        m_cli = qEnvironmentVariable("SEMSCOPE_CLI");
        QVERIFY2(QFileInfo::exists(m_cli), "SEMSCOPE_CLI must name the semscope-cli binary");
        QVERIFY(m_home.isValid());
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
    }

    void init() { cmd({"FLUSHALL"}); }

    void acquireShowAndDenyLeased() {
        CliRun r = cli({"acquire", "orders", "--kind", "leased", "--limit", "2", "--holder", "alpha", "--ttl",
                        "30s", "--json"});
        QCOMPARE(r.exitCode, 0);
        QJsonObject granted = r.json();
        QCOMPARE(granted.value(QStringLiteral("status")).toString(), QStringLiteral("granted"));
        QCOMPARE(granted.value(QStringLiteral("token")).toInteger(), 1);
        QCOMPARE(granted.value(QStringLiteral("holder")).toString(), QStringLiteral("alpha"));
        QCOMPARE(cli({"acquire", "orders", "--kind", "leased", "--holder", "beta"}).exitCode, 0);

        // show --json, the kind given
        r = cli({"show", "orders", "--kind", "leased", "--json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject show = r.json();
        QCOMPARE(show.value(QStringLiteral("kind")).toString(), QStringLiteral("leased"));
        QCOMPARE(show.value(QStringLiteral("name")).toString(), QStringLiteral("orders"));
        QCOMPARE(show.value(QStringLiteral("limit")).toInteger(), 2);
        QCOMPARE(show.value(QStringLiteral("limit_source")).toString(), QStringLiteral("stored"));
        QCOMPARE(show.value(QStringLiteral("warnings")).toArray().size(), 0);
        QCOMPARE(show.value(QStringLiteral("holders")).toArray().size(), 2);
        const QJsonObject alpha = holderNamed(show, QStringLiteral("alpha"));
        QCOMPARE(alpha.value(QStringLiteral("token")).toInteger(), 1);
        QCOMPARE(alpha.value(QStringLiteral("state")).toString(), QStringLiteral("live"));
        QVERIFY(alpha.contains(QStringLiteral("rank")));
        QVERIFY(!alpha.contains(QStringLiteral("slot"))); // leased has no slot numbers
        const qint64 ttl = alpha.value(QStringLiteral("ttl_ms")).toInteger();
        QVERIFY2(ttl > 0 && ttl <= 30000, qPrintable(QString::number(ttl)));

        // the kind recognised from the keys
        r = cli({"show", "orders", "--json"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.json().value(QStringLiteral("kind")).toString(), QStringLiteral("leased"));

        // human output: a table with the holders
        r = cli({"show", "orders", "--kind", "leased"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("HOLDER"));
        QVERIFY(r.out.contains("alpha"));
        QVERIFY(r.out.contains("live"));

        // denied: exit 1, and who holds the slots
        r = cli({"acquire", "orders", "--kind", "leased", "--holder", "gamma"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.contains("alpha"));
        QVERIFY(r.out.contains("beta"));
        QVERIFY(r.err.startsWith("semscope-cli: "));
        QVERIFY(r.err.contains("busy"));
        r = cli({"acquire", "orders", "--kind", "leased", "--holder", "gamma", "--json"});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("busy"));
        QCOMPARE(r.json().value(QStringLiteral("holders")).toArray().size(), 2);

        // --wait: a release by another process lets the waiter in
        QProcess waiter;
        waiter.setStandardInputFile(QProcess::nullDevice());
        waiter.start(m_cli, {"--redis", m_server.url(), "acquire", "orders", "--kind", "leased", "--holder",
                             "delta", "--wait", "30s", "--json"});
        QVERIFY(waiter.waitForStarted());
        QTRY_COMPARE_WITH_TIMEOUT(cmd({"ZCARD", "{orders}:waiters"}).toInteger(), std::optional<qint64>(1),
                                  20000);
        QCOMPARE(cli({"release", "orders", "alpha", "--kind", "leased"}).exitCode, 0);
        QVERIFY(waiter.waitForFinished(30000));
        QCOMPARE(waiter.exitCode(), 0);
        const QJsonObject waited = QJsonDocument::fromJson(waiter.readAllStandardOutput()).object();
        QCOMPARE(waited.value(QStringLiteral("token")).toInteger(), 3);
    }

    void refreshAndRelease() {
        QCOMPARE(cli({"acquire", "jobs", "--kind", "leased", "--holder", "w1", "--ttl", "5s"}).exitCode, 0);
        CliRun r = cli({"refresh", "jobs", "w1", "--kind", "leased", "--ttl", "90s", "--json"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("ok"));
        const qint64 ttl =
            holderNamed(cli({"show", "jobs", "--kind", "leased", "--json"}).json(), QStringLiteral("w1"))
                .value(QStringLiteral("ttl_ms"))
                .toInteger();
        QVERIFY2(ttl > 60000, qPrintable(QString::number(ttl)));
        QCOMPARE(cli({"refresh", "jobs", "nobody", "--kind", "leased"}).exitCode, 1);

        QCOMPARE(cli({"release", "jobs", "w1", "--kind", "leased"}).exitCode, 0);
        r = cli({"release", "jobs", "w1", "--kind", "leased", "--json"});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("not-held"));
        // refresh after the loss: lost, and nothing re-acquired
        QCOMPARE(cli({"refresh", "jobs", "w1", "--kind", "leased"}).exitCode, 1);
        QCOMPARE(cmd({"ZCARD", "{jobs}:holders"}).toInteger(), std::optional<qint64>(0));
    }

    void forceReleaseComparesWhatWasSeen() {
        QCOMPARE(cli({"acquire", "fr", "--kind", "leased", "--holder", "stuck"}).exitCode, 0);
        // Not a terminal and no --yes: refused as a usage error, nothing done.
        QCOMPARE(cli({"force-release", "fr", "stuck", "--kind", "leased"}).exitCode, 2);
        CliRun r = cli(
            {"force-release", "fr", "stuck", "--kind", "leased", "--expect-token", "99", "--yes", "--json"});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("changed"));
        QCOMPARE(cmd({"ZCARD", "{fr}:holders"}).toInteger(), std::optional<qint64>(1));
        QCOMPARE(cli({"force-release", "fr", "stuck", "--kind", "leased", "--expect-token", "1",
                      "--expect-slot", "1", "--yes"})
                     .exitCode,
                 2);
        r = cli(
            {"force-release", "fr", "stuck", "--kind", "leased", "--expect-token", "1", "--yes", "--json"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("released"));
        QCOMPARE(cmd({"ZCARD", "{fr}:holders"}).toInteger(), std::optional<qint64>(0));
        r = cli({"force-release", "fr", "stuck", "--kind", "leased", "--yes", "--json"});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("gone"));
    }

    void seedLockThroughTheCli() {
        // Seed 002: SET key id NX PX ms.
        QCOMPARE(cmd({"SET", "report-job", "node-7", "NX", "PX", "30000"}).str, QByteArray("OK"));
        CliRun r = cli({"show", "report-job", "--kind", "lock", "--json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject show = r.json();
        QCOMPARE(show.value(QStringLiteral("limit")).toInteger(), 1);
        QCOMPARE(show.value(QStringLiteral("holders")).toArray().size(), 1);
        const QJsonObject h = show.value(QStringLiteral("holders")).toArray().at(0).toObject();
        QCOMPARE(h.value(QStringLiteral("id")).toString(), QStringLiteral("node-7"));
        QVERIFY(h.value(QStringLiteral("ttl_ms")).toInteger() > 20000);
        QVERIFY(!h.contains(QStringLiteral("token")));

        QCOMPARE(cli({"acquire", "report-job", "--kind", "lock", "--holder", "me"}).exitCode, 1);
        QCOMPARE(cli({"force-release", "report-job", "node-7", "--kind", "lock", "--yes"}).exitCode, 0);
        QCOMPARE(cli({"acquire", "report-job", "--kind", "lock", "--holder", "me", "--ttl", "20s"}).exitCode,
                 0);
        QCOMPARE(cmd({"GET", "report-job"}).str, QByteArray("me"));
        // The seed's compare-and-delete releases what semscope took.
        QCOMPARE(cmd({"EVAL",
                      "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else "
                      "return 0 end",
                      "1", "report-job", "me"})
                     .toInteger(),
                 std::optional<qint64>(1));
    }

    void listShowsEverySemaphore() {
        QCOMPARE(cli({"acquire", "alpha-sem", "--kind", "leased", "--limit", "3", "--holder", "h"}).exitCode,
                 0);
        QCOMPARE(cli({"acquire", "beta-sem", "--kind", "leased", "--limit", "4", "--holder", "h"}).exitCode,
                 0);
        cmd({"SET", "{broken}:holders", "not a zset"});
        cmd({"HSET", "{broken}:meta", "limit", "2"});
        CliRun r = cli({"list", "--json"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.err.contains("scanned"));
        const QJsonArray rows = r.jsonArray();
        QJsonObject alpha;
        QJsonObject broken;
        for (const QJsonValue &v : rows) {
            const QJsonObject o = v.toObject();
            if (o.value(QStringLiteral("name")).toString() == QLatin1String("alpha-sem"))
                alpha = o;
            if (o.value(QStringLiteral("name")).toString() == QLatin1String("broken"))
                broken = o;
        }
        QCOMPARE(alpha.value(QStringLiteral("kind")).toString(), QStringLiteral("leased"));
        QCOMPARE(alpha.value(QStringLiteral("limit")).toInteger(), 3);
        QCOMPARE(alpha.value(QStringLiteral("used")).toInteger(), 1);
        QVERIFY(alpha.value(QStringLiteral("warnings")).isArray());
        QVERIFY(!broken.isEmpty());
        QVERIFY(!broken.value(QStringLiteral("warnings")).toArray().isEmpty());

        r = cli({"list", "--match", "alpha*"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("alpha-sem"));
        QVERIFY(!r.out.contains("beta-sem"));
        QVERIFY(r.out.contains("KIND"));
    }

    void purgeAndRepair() {
        QCOMPARE(cli({"acquire", "pr", "--kind", "leased", "--holder", "old"}).exitCode, 0);
        cmd({"ZADD", "{pr}:holders", "XX", "1", "old"});
        cmd({"HSET", "{pr}:owners", "orphan", "7|1|x"});
        CliRun r = cli({"purge", "pr", "--kind", "leased", "--json"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.json().value(QStringLiteral("affected")).toInteger(), 1);
        r = cli({"repair", "pr", "--kind", "leased", "--json"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.json().value(QStringLiteral("ok")).toBool());
        QVERIFY(cmd({"HGET", "{pr}:owners", "orphan"}).isNil());
        QCOMPARE(cli({"repair", "x", "--kind", "lock"}).exitCode, 1); // not supported for lock
    }

    void badInputAndUnreachableServers() {
        QCOMPARE(cli({"show"}).exitCode, 2);
        QCOMPARE(cli({"show", "x", "--kind", "nonsense"}).exitCode, 2);
        QCOMPARE(cli({"acquire", "x", "--kind", "leased", "--ttl", "soon"}).exitCode, 2);
        QCOMPARE(cli({"show", "missing-entirely"}).exitCode, 1);

        cmd({"SET", "{wrong}:meta", "text"});
        CliRun r = cli({"show", "wrong", "--kind", "leased", "--json"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(!r.json().value(QStringLiteral("warnings")).toArray().isEmpty());

        test::RedisServer dead;
        QVERIFY(dead.start());
        const QString url = dead.url();
        dead.stop();
        r = cli({"show", "x", "--kind", "leased"}, url);
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.startsWith("semscope-cli: "));
        QCOMPARE(r.err.count('\n'), 1);
    }
};

QTEST_GUILESS_MAIN(TestCliSemaphores)
#include "tst_cli_semaphores.moc"
