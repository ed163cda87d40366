// semscope-cli end to end against a real redis-server: list, show, acquire, refresh, release,
// force-release, purge and repair, human and --json output, exit codes and error lines.
#include "RedisServer.h"
#include "TestMain.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSettings>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QtTest>
#include <csignal>

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

    // Starts semscope-cli with `args` against the test server (or `url`).
    void startCli(QProcess &p, QStringList args, const QString &url = {}) {
        args.prepend(url.isEmpty() ? m_server.url() : url);
        args.prepend(QStringLiteral("--redis"));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), m_home.path());
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_home.path());
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_home.path() + QStringLiteral("/share"));
        env.insert(QStringLiteral("SEMSCOPE_HISTORY"), historyPath()); // this test's own
        p.setProcessEnvironment(env);
        p.setStandardInputFile(QProcess::nullDevice()); // not a terminal
        p.start(m_cli, args);
    }

    QString historyPath() const { return m_home.path() + QStringLiteral("/history.sqlite"); }

    CliRun cli(QStringList args, const QString &url = {}, int timeoutMs = 60000) {
        QProcess p;
        startCli(p, args, url);
        CliRun run;
        if (!p.waitForFinished(timeoutMs)) {
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
        const qint64 alphaToken = granted.value(QStringLiteral("token")).toInteger();
        QVERIFY(alphaToken > 0); // a new counter starts from the server's clock (README)
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
        QCOMPARE(alpha.value(QStringLiteral("token")).toInteger(), alphaToken);
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
        QVERIFY2(r.err.contains("orders is busy: all 2 slots are held"), r.err.constData()); // not "slot(s)"
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
        QTRY_COMPARE_WITH_TIMEOUT(cmd({"LLEN", "{orders}:queue"}).toInteger(), std::optional<qint64>(1),
                                  20000);
        // The waiter is listed after the holders with its place in the queue.
        r = cli({"show", "orders", "--kind", "leased"});
        QCOMPARE(r.exitCode, 0);
        const QString text = QString::fromUtf8(r.out);
        const QString waiterRow = text.split(QLatin1Char('\n')).filter(QStringLiteral("delta")).value(0);
        QVERIFY2(waiterRow.contains(QStringLiteral("line 1")) &&
                     waiterRow.contains(QStringLiteral("waiting")),
                 qPrintable(text));
        QVERIFY(text.indexOf(QStringLiteral("beta")) < text.indexOf(QStringLiteral("delta")));
        QCOMPARE(cli({"release", "orders", "alpha", "--kind", "leased"}).exitCode, 0);
        QVERIFY(waiter.waitForFinished(30000));
        QCOMPARE(waiter.exitCode(), 0);
        const QJsonObject waited = QJsonDocument::fromJson(waiter.readAllStandardOutput()).object();
        QCOMPARE(waited.value(QStringLiteral("token")).toInteger(), alphaToken + 2);
    }

    // The first question about a stuck slot, answered by `show` as the app's holder card answers it:
    // is the holder's client still connected? A `semscope-cli acquire` has exited (gone); a client
    // still waiting in line, named by semscope, is connected.
    void showSaysWhetherEachHoldersClientIsThere() {
        const CliRun took =
            cli({QStringLiteral("acquire"), QStringLiteral("report"), QStringLiteral("--kind"),
                 QStringLiteral("leased"), QStringLiteral("--limit"), QStringLiteral("1"),
                 QStringLiteral("--holder"), QStringLiteral("exited-job"), QStringLiteral("--ttl"),
                 QStringLiteral("10m")});
        QCOMPARE(took.exitCode, 0);
        QProcess waiter;
        startCli(waiter, {QStringLiteral("acquire"), QStringLiteral("report"), QStringLiteral("--kind"),
                          QStringLiteral("leased"), QStringLiteral("--holder"), QStringLiteral("patient-job"),
                          QStringLiteral("--ttl"), QStringLiteral("10m"), QStringLiteral("--wait"),
                          QStringLiteral("5m")});
        QVERIFY(waiter.waitForStarted());
        QTRY_COMPARE_WITH_TIMEOUT(cmd({"LLEN", "{report}:queue"}).integer, 1, 15000);

        const CliRun text = cli({QStringLiteral("show"), QStringLiteral("report"), QStringLiteral("--kind"),
                                 QStringLiteral("leased")});
        QCOMPARE(text.exitCode, 0);
        const QString out = QString::fromUtf8(text.out);
        QVERIFY2(out.contains(QStringLiteral("CLIENT")), qPrintable(out));
        QVERIFY2(QRegularExpression(QStringLiteral("exited-job +client gone — no connection of pid \\d+"))
                     .match(out)
                     .hasMatch(),
                 qPrintable(out));
        QVERIFY2(QRegularExpression(QStringLiteral("patient-job +client connected")).match(out).hasMatch(),
                 qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("exits on purpose")), qPrintable(out));

        const CliRun json = cli({QStringLiteral("--json"), QStringLiteral("show"), QStringLiteral("report"),
                                 QStringLiteral("--kind"), QStringLiteral("leased")});
        QCOMPARE(json.exitCode, 0);
        const QJsonObject client =
            holderNamed(json.json(), QStringLiteral("exited-job")).value(QStringLiteral("client")).toObject();
        QCOMPARE(client.value(QStringLiteral("state")).toString(), QStringLiteral("gone"));
        QVERIFY(client.value(QStringLiteral("identity")).toString().startsWith(QStringLiteral("pid ")));
        QCOMPARE(holderNamed(json.json(), QStringLiteral("patient-job"))
                     .value(QStringLiteral("client"))
                     .toObject()
                     .value(QStringLiteral("state"))
                     .toString(),
                 QStringLiteral("connected"));

        waiter.kill();
        waiter.waitForFinished();
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
        CliRun granted = cli({"acquire", "fr", "--kind", "leased", "--holder", "stuck", "--json"});
        QCOMPARE(granted.exitCode, 0);
        const QString token = QString::number(granted.json().value(QStringLiteral("token")).toInteger());
        // Not a terminal and no --yes: refused as a usage error, nothing done.
        QCOMPARE(cli({"force-release", "fr", "stuck", "--kind", "leased"}).exitCode, 2);
        CliRun r = cli(
            {"force-release", "fr", "stuck", "--kind", "leased", "--expect-token", "99", "--yes", "--json"});
        QVERIFY(token != QStringLiteral("99"));
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("changed"));
        QCOMPARE(cmd({"ZCARD", "{fr}:holders"}).toInteger(), std::optional<qint64>(1));
        QCOMPARE(cli({"force-release", "fr", "stuck", "--kind", "leased", "--expect-token", token,
                      "--expect-slot", "1", "--yes"})
                     .exitCode,
                 2);
        r = cli(
            {"force-release", "fr", "stuck", "--kind", "leased", "--expect-token", token, "--yes", "--json"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("released"));
        QCOMPARE(cmd({"ZCARD", "{fr}:holders"}).toInteger(), std::optional<qint64>(0));
        r = cli({"force-release", "fr", "stuck", "--kind", "leased", "--yes", "--json"});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("gone"));
    }

    // The shared history busy in another process past its timeout: the holder is removed all the
    // same, and the operator is told that a watch will not learn who removed it.
    void forceReleaseTheHistoryCouldNotMarkIsSaid() {
        QCOMPARE(cli({"acquire", "frh", "--kind", "leased", "--holder", "first"}).exitCode, 0);
        QCOMPARE(cli({"force-release", "frh", "first", "--kind", "leased", "--yes"}).exitCode,
                 0); // makes the file
        const QString path = historyPath();
        QVERIFY2(QFile::exists(path), qPrintable(path));
        QCOMPARE(cli({"acquire", "frh", "--kind", "leased", "--holder", "stuck"}).exitCode, 0);
        {
            QSqlDatabase other =
                QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("other"));
            other.setDatabaseName(path);
            QVERIFY(other.open());
            QSqlQuery lock(other);
            QVERIFY(lock.exec(QStringLiteral("BEGIN EXCLUSIVE")));
            const CliRun r = cli({"force-release", "frh", "stuck", "--kind", "leased", "--yes"});
            QVERIFY(lock.exec(QStringLiteral("ROLLBACK")));
            other.close();
            QVERIFY2(r.exitCode == 0, r.err.constData());
            QVERIFY2(r.err.contains("warning: the shared history did not record this force-release"),
                     r.err.constData());
            QCOMPARE(cmd({"ZCARD", "{frh}:holders"}).toInteger(), std::optional<qint64>(0));
        }
        QSqlDatabase::removeDatabase(QStringLiteral("other"));
    }

    // Where the app shows its audit log: the CLI's writes must land in the same file.
    QList<QJsonObject> auditEntries() const {
        QFile file(m_home.path() + QStringLiteral("/share/semscope/semscope/audit.jsonl"));
        QList<QJsonObject> entries;
        if (!file.open(QIODevice::ReadOnly))
            return entries;
        for (const QByteArray &line : file.readAll().split('\n')) {
            if (!line.isEmpty())
                entries << QJsonDocument::fromJson(line).object();
        }
        return entries;
    }

    void everyWriteIsAudited() {
        QFile::remove(m_home.path() + QStringLiteral("/share/semscope/semscope/audit.jsonl"));
        QCOMPARE(cli({"acquire", "aud", "--kind", "leased", "--limit", "2", "--holder", "w1", "--ttl", "30s"})
                     .exitCode,
                 0);
        QCOMPARE(cli({"refresh", "aud", "w1", "--kind", "leased", "--ttl", "60s"}).exitCode, 0);
        QCOMPARE(cli({"show", "aud", "--kind", "leased"}).exitCode, 0); // a read: not logged
        QCOMPARE(cli({"release", "aud", "w1", "--kind", "leased"}).exitCode, 0);
        CliRun stuck = cli({"acquire", "aud", "--kind", "leased", "--holder", "stuck", "--json"});
        QCOMPARE(stuck.exitCode, 0);
        const QString token = QString::number(stuck.json().value(QStringLiteral("token")).toInteger());
        QCOMPARE(cli({"force-release", "aud", "stuck", "--kind", "leased", "--expect-token", token, "--yes"})
                     .exitCode,
                 0);
        QCOMPARE(cli({"set-limit", "aud", "3", "--kind", "leased"}).exitCode, 0);
        QCOMPARE(
            cli({"loadtest", "aud-run", "--kind", "leased", "--clients", "2", "--limit", "1", "--ops", "20"})
                .exitCode,
            0);

        const QList<QJsonObject> log = auditEntries();
        QStringList actions;
        for (const QJsonObject &e : log)
            actions << e.value(QStringLiteral("action")).toString() + QLatin1Char('=') +
                           e.value(QStringLiteral("result")).toString();
        QCOMPARE(actions, (QStringList{"acquire=granted", "refresh=ok", "release=ok", "acquire=granted",
                                       "force-release=released", "set-limit=ok", "load-test=ok"}));
        const QJsonObject forced = log.at(4);
        QCOMPARE(forced.value(QStringLiteral("semaphore")).toString(), QStringLiteral("leased:aud"));
        QCOMPARE(forced.value(QStringLiteral("holder")).toString(), QStringLiteral("stuck"));
        QCOMPARE(
            forced.value(QStringLiteral("observed")).toObject().value(QStringLiteral("token")).toInteger(),
            token.toLongLong());
        QCOMPARE(forced.value(QStringLiteral("connection")).toString(),
                 m_server.url() + QStringLiteral("/0"));
        QVERIFY(!forced.value(QStringLiteral("user")).toString().isEmpty());
        QCOMPARE(log.at(6).value(QStringLiteral("semaphore")).toString(), QStringLiteral("leased:aud-run"));
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

    // issue 29 item 2: an acquire never holds a slot longer than the --ttl it was given. On the layout
    // the seed's clients write (no lease) it is refused, nothing taken, and the operator told how to
    // take the slot without one; on `fair`, whose holders share one timeout, a timeout above the
    // --ttl is refused and one below it granted with a warning.
    void aTtlTheLayoutCannotKeepIsNeverDropped() {
        cmd({"HSET", "printers|map", "10.0.0.1", "1"});
        cmd({"RPUSH", "printers|list", "2", "3"});
        CliRun r = cli({"acquire", "printers", "--holder", "ops-1", "--ttl", "30s"});
        QVERIFY2(r.exitCode == 1, QByteArray(r.out + r.err).constData());
        QVERIFY2(r.err.contains("keeps no lease") && r.err.contains("30.0 s asked") &&
                     r.err.contains("nothing was taken") && r.err.contains("omit --ttl"),
                 r.err.constData());
        QVERIFY(cmd({"HGET", "printers|map", "ops-1"}).isNil());
        QCOMPARE(cmd({"LLEN", "printers|list"}).toInteger(), std::optional<qint64>(2));
        QCOMPARE(cmd({"EXISTS", "printers|lease"}).toInteger(), std::optional<qint64>(0));
        r = cli({"acquire", "printers", "--holder", "ops-1", "--ttl", "30s", "--json"});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("error"));
        // Without --ttl: the slot, and a word that it is held until released.
        r = cli({"acquire", "printers", "--holder", "ops-1"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("slot 2") && r.out.contains("no lease"), r.out.constData());
        QVERIFY2(r.err.contains("held until it is released"), r.err.constData());

        // fair: the shared timeout (10 s unless the profile says otherwise) against the --ttl.
        r = cli({"acquire", "fq", "--kind", "fair", "--limit", "2", "--holder", "f1", "--ttl", "2s"});
        QVERIFY2(r.exitCode == 1, QByteArray(r.out + r.err).constData());
        QVERIFY2(r.err.contains("shared timeout of 10.0 s") && r.err.contains("nothing was taken"),
                 r.err.constData());
        QCOMPARE(cmd({"EXISTS", "fq"}).toInteger(), std::optional<qint64>(0));
        r = cli(
            {"acquire", "fq", "--kind", "fair", "--limit", "2", "--holder", "f1", "--ttl", "5m", "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.err.contains("warning: lease shorter than the 5 m 00 s asked"), r.err.constData());
        QCOMPARE(r.json().value(QStringLiteral("warnings")).toArray().size(), 1);
        const qint64 ttl = holderNamed(cli({"show", "fq", "--kind", "fair", "--limit", "2", "--json"}).json(),
                                       QStringLiteral("f1"))
                               .value(QStringLiteral("ttl_ms"))
                               .toInteger();
        QVERIFY2(ttl > 0 && ttl <= 10000, qPrintable(QString::number(ttl)));
        // The default ttl is no request: granted with the shared timeout, nothing to warn about.
        r = cli({"acquire", "fq", "--kind", "fair", "--limit", "2", "--holder", "f2"});
        QVERIFY2(r.exitCode == 0 && r.err.isEmpty(), r.err.constData());
    }

    // force-release pins what the layout records: a --expect-slot on a layout without slot numbers
    // (or --expect-token without tokens) is refused as such, with what can be pinned instead, not
    // reported as a holder that changed.
    void forceReleaseRefusesAPinTheLayoutCannotCheck() {
        QCOMPARE(cli({"acquire", "zz", "--kind", "zset", "--limit", "2", "--holder", "z1"}).exitCode, 0);
        CliRun r = cli({"force-release", "zz", "z1", "--kind", "zset", "--limit", "2", "--expect-slot", "3",
                        "--yes", "--json"});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("error"));
        r = cli(
            {"force-release", "zz", "z1", "--kind", "zset", "--limit", "2", "--expect-slot", "3", "--yes"});
        QVERIFY2(r.err.contains("z1 has no slot number in zz") && r.err.contains("named by its id") &&
                     r.err.contains("nothing was done"),
                 r.err.constData());
        QCOMPARE(cmd({"ZCARD", "zz"}).toInteger(), std::optional<qint64>(1));
        // A leased holder has a token but no slot number: pointed to --expect-token.
        QCOMPARE(cli({"acquire", "ls", "--kind", "leased", "--holder", "l1"}).exitCode, 0);
        r = cli({"force-release", "ls", "l1", "--kind", "leased", "--expect-slot", "1", "--yes"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("use --expect-token"), r.err.constData());
        QCOMPARE(cmd({"ZCARD", "{ls}:holders"}).toInteger(), std::optional<qint64>(1));
    }

    // slots, on the layout the seed's clients write: --limit on acquire neither grows nor shrinks it;
    // refresh says nothing was extended.
    // refresh without --ttl sets the default 30 s lease: on a holder with more left that would cut
    // its lease behind its back, so it is refused and nothing is changed.
    void refreshNeverShortensALeaseUnasked() {
        QCOMPARE(
            cli({"acquire", "long", "--kind", "leased", "--limit", "1", "--holder", "w1", "--ttl", "10m"})
                .exitCode,
            0);
        CliRun r = cli({"refresh", "long", "w1"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("refresh without --ttl sets 30.0 s, which would shorten it"),
                 r.err.constData());
        const qint64 ttl = holderNamed(cli({"show", "long", "--json"}).json(), QStringLiteral("w1"))
                               .value(QStringLiteral("ttl_ms"))
                               .toInteger();
        QVERIFY2(ttl > 60000, qPrintable(QString::number(ttl)));
        QCOMPARE(cli({"refresh", "long", "w1", "--ttl", "20m"}).exitCode, 0);
    }

    void slotsSayWhatTheyDid() {
        cmd({"HSET", "printers|map", "10.0.0.1", "1"});
        cmd({"RPUSH", "printers|list", "2"});
        CliRun r = cli({"acquire", "printers", "--kind", "slots", "--holder", "c"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("slot 2") && r.out.contains("no lease"), r.out.constData());
        QVERIFY2(r.err.contains("warning: no lease taken"), r.err.constData());
        r = cli({"refresh", "printers", "c", "--kind", "slots", "--ttl", "1m"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("nothing was extended") && !r.out.contains("1 m 00 s"), r.out.constData());
        r = cli({"refresh", "printers", "c", "--kind", "slots", "--json"});
        QCOMPARE(r.json().value(QStringLiteral("extended")).toBool(true), false);

        r = cli({"acquire", "printers", "--kind", "slots", "--limit", "5", "--holder", "d"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("the limit given (5) is not used"), r.err.constData());
        QCOMPARE(cmd({"HLEN", "printers|map"}).toInteger(), std::optional<qint64>(2));
        QCOMPARE(cmd({"LLEN", "printers|list"}).toInteger(), std::optional<qint64>(0));

        // A leaked slot below a held one (a->1, b->3, nothing free): the missing 2 is handed out.
        cmd({"HSET", "pr|map", "a", "1", "b", "3"});
        r = cli({"acquire", "pr", "--kind", "slots", "--limit", "3", "--holder", "c", "--json"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.json().value(QStringLiteral("slot")).toInteger(), 2);
    }

    // force-release --expect-token on slots takes the token show prints: the same holder back on the
    // same slot is another acquisition and is left alone.
    void slotsForceReleaseExpectsTheTokenShown() {
        QCOMPARE(cli({"acquire", "T", "--kind", "slots", "--limit", "1", "--holder", "h"}).exitCode, 0);
        const qint64 seen =
            holderNamed(cli({"show", "T", "--kind", "slots", "--json"}).json(), QStringLiteral("h"))
                .value(QStringLiteral("token"))
                .toInteger();
        QCOMPARE(seen, 1);
        QCOMPARE(cli({"release", "T", "h", "--kind", "slots"}).exitCode, 0);
        QCOMPARE(cli({"acquire", "T", "--kind", "slots", "--holder", "h"}).exitCode, 0);
        CliRun r = cli({"force-release", "T", "h", "--kind", "slots", "--expect-token", QString::number(seen),
                        "--yes", "--json"});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("changed"));
        QCOMPARE(cmd({"HGET", "T|map", "h"}).str, QByteArray("1"));
        QCOMPARE(cli({"force-release", "T", "h", "--kind", "slots", "--expect-token", "2", "--yes"}).exitCode,
                 0);
        QCOMPARE(cmd({"HLEN", "T|map"}).toInteger(), std::optional<qint64>(0));
        // The seed's layout records no token: asking for one is refused, not guessed.
        cmd({"HSET", "seed|map", "10.0.0.1", "1"});
        r = cli({"force-release", "seed", "10.0.0.1", "--kind", "slots", "--expect-token", "1", "--yes"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("has no token"), r.err.constData());
        QCOMPARE(cmd({"HLEN", "seed|map"}).toInteger(), std::optional<qint64>(1));
    }

    // fair: refresh prints the lease the store set (the shared timeout), not --ttl; while a client
    // of the layout holds its outer lock, acquire does nothing and says why.
    void fairSaysWhatItDid() {
        const QStringList fair{"--kind", "fair", "--limit", "1", "--timeout", "10s"};
        QCOMPARE(cli(QStringList{"acquire", "fs", "--holder", "a"} + fair).exitCode, 0);
        CliRun r = cli(QStringList{"refresh", "fs", "a", "--ttl", "30s"} + fair);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("shared timeout") && !r.out.contains("for 30.0 s"), r.out.constData());
        QCOMPARE(cli(QStringList{"release", "fs", "a"} + fair).exitCode, 0);

        cmd({"SET", "lock:fs", "book-client", "PX", "60000"});
        r = cli(QStringList{"acquire", "fs", "--holder", "b"} + fair);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("lock:fs held by book-client"), r.err.constData());
        QVERIFY(cmd({"ZSCORE", "fs:owner", "b"}).isNil());
        // Named in the profile (here --lock-key), only that key is the layout's lock.
        QCOMPARE(cli(QStringList{"acquire", "fs", "--holder", "b", "--lock-key", "fs-lock"} + fair).exitCode,
                 0);
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

    // What list says on stderr agrees with what it lists: the progress line above the summary once
    // said "0 semaphores so far" right before "found 1 semaphore", and with --match the summary
    // counted every semaphore the scan came across ("found 2 semaphores" above a table of one).
    void listProgressAndSummaryAgreeWithTheTable_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("rows");
        QTest::newRow("everything") << QStringList{"list", "--json"} << 2;
        QTest::newRow("--match") << QStringList{"list", "--json", "--match", "jobs"} << 1;
    }
    void listProgressAndSummaryAgreeWithTheTable() {
        QFETCH(QStringList, args);
        QFETCH(int, rows);
        for (const char *name : {"jobs", "jobs2"})
            QCOMPARE(cli({"acquire", name, "--kind", "leased", "--limit", "2", "--holder", "h"}).exitCode, 0);
        const CliRun r = cli(args);
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.jsonArray().size(), rows);
        const QString found =
            rows == 1 ? QStringLiteral("1 semaphore") : QStringLiteral("%1 semaphores").arg(rows);
        const QStringList lines = QString::fromUtf8(r.err).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QVERIFY2(!lines.isEmpty() && lines.last().endsWith(QStringLiteral(", found ") + found),
                 r.err.constData());
        for (const QString &line : lines) {
            if (line.contains(QStringLiteral("so far")))
                QVERIFY2(line.endsWith(QStringLiteral(", ") + found + QStringLiteral(" so far")),
                         r.err.constData());
        }
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

    // set-limit writes the limit where the layout keeps it (slots, leased: one script in Redis), keeps
    // it in semscope's profile where the layout has none (fair), and refuses for a mutex.
    void setLimitWhereTheLimitLives() {
        CliRun r = cli({"--help"});
        QVERIFY(r.out.contains("set-limit NAME N"));

        // slots, as the seed's clients leave it: held 1, free 2 and 3.
        cmd({"RPUSH", "pool|list", "2", "3"});
        cmd({"HSET", "pool|map", "10.0.0.1", "1"});
        r = cli({"set-limit", "pool", "5", "--kind", "slots", "--json"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.json().value(QStringLiteral("ok")).toBool());
        QCOMPARE(r.json().value(QStringLiteral("limit")).toInteger(), 5);
        QCOMPARE(r.json().value(QStringLiteral("limit_source")).toString(), QStringLiteral("stored"));
        QCOMPARE(cmd({"LLEN", "pool|list"}).toInteger(), std::optional<qint64>(4));
        r = cli({"show", "pool", "--json"}); // kind recognised from the keys
        QCOMPARE(r.json().value(QStringLiteral("limit")).toInteger(), 5);
        QCOMPARE(r.json().value(QStringLiteral("limit_source")).toString(), QStringLiteral("stored"));
        // Shrinking under a holder's slot is refused, nothing changes.
        cmd({"HSET", "pool|map", "10.0.0.9", "5"});
        cmd({"LREM", "pool|list", "0", "5"});
        r = cli({"set-limit", "pool", "3", "--kind", "slots"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("held"), r.err.constData());
        QCOMPARE(cmd({"LLEN", "pool|list"}).toInteger(), std::optional<qint64>(3));

        // leased: stored in {N}:meta.
        QCOMPARE(cli({"acquire", "ls", "--kind", "leased", "--limit", "2", "--holder", "h"}).exitCode, 0);
        QCOMPARE(cli({"set-limit", "ls", "4", "--kind", "leased"}).exitCode, 0);
        QCOMPARE(cmd({"HGET", "{ls}:meta", "limit"}).str, QByteArray("4"));

        // fair: not stored in Redis; kept in the profile, nothing written, and show uses it.
        cmd({"ZADD", "fs", QByteArray::number(QDateTime::currentSecsSinceEpoch()), "a"});
        cmd({"ZADD", "fs:owner", "1", "a"});
        cmd({"SET", "fs:counter", "1"});
        const qint64 keys = cmd({"DBSIZE"}).toInteger().value_or(-1);
        r = cli({"set-limit", "fs", "4", "--kind", "fair"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("does not store its limit") && r.out.contains("profile"), r.out.constData());
        QCOMPARE(cmd({"DBSIZE"}).toInteger().value_or(-2), keys);
        r = cli({"show", "fs", "--kind", "fair", "--json"});
        QCOMPARE(r.json().value(QStringLiteral("limit")).toInteger(), 4);
        QCOMPARE(r.json().value(QStringLiteral("limit_source")).toString(), QStringLiteral("profile"));
        // Issue 16 item 8: emptied (its keys gone), it keeps the operator's limit, not "?".
        cmd({"DEL", "fs", "fs:owner", "fs:counter"});
        r = cli({"show", "fs", "--kind", "fair", "--json"});
        QCOMPARE(r.json().value(QStringLiteral("limit")).toInteger(), 4);
        QCOMPARE(r.json().value(QStringLiteral("limit_source")).toString(), QStringLiteral("profile"));
        r = cli({"show", "fs", "--kind", "fair"});
        QVERIFY2(r.out.contains("4") && r.out.contains("profile") && !r.out.contains("inferred"),
                 r.out.constData());

        // lock: always 1.
        cmd({"SET", "lk", "me", "PX", "30000"});
        r = cli({"set-limit", "lk", "3", "--kind", "lock", "--json"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(!r.json().value(QStringLiteral("ok")).toBool());
        QVERIFY(r.json().value(QStringLiteral("message")).toString().contains(QStringLiteral("always 1")));

        // Usage errors.
        QCOMPARE(cli({"set-limit", "pool", "many", "--kind", "slots"}).exitCode, 2);
        QCOMPARE(cli({"set-limit", "pool", "0", "--kind", "slots"}).exitCode, 2);
        QCOMPARE(cli({"set-limit", "pool"}).exitCode, 2);
    }

    // Thirty set-limit runs at once, each on its own semaphore, all into the one profiles file: every
    // profile is kept (each change is a read-modify-write under a lock, not a last-writer-wins).
    void concurrentSetLimitsLoseNothing() {
        const int runs = 30;
        std::vector<std::unique_ptr<QProcess>> processes;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), m_home.path());
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_home.path());
        for (int i = 0; i < runs; ++i) {
            auto p = std::make_unique<QProcess>();
            p->setProcessEnvironment(env);
            p->setStandardInputFile(QProcess::nullDevice());
            p->start(m_cli, {QStringLiteral("--redis"), m_server.url(), QStringLiteral("set-limit"),
                             QStringLiteral("parallel-%1").arg(i), QString::number(i + 1),
                             QStringLiteral("--kind"), QStringLiteral("zset")});
            processes.push_back(std::move(p));
        }
        QStringList outputs;
        for (auto &p : processes) {
            QVERIFY(p->waitForFinished(120000));
            QVERIFY2(p->exitCode() == 0, p->readAllStandardError().constData());
            outputs << QString::fromUtf8(p->readAllStandardOutput() + p->readAllStandardError());
        }
        QSettings saved(m_home.path() + QStringLiteral("/semscope/profiles.conf"), QSettings::IniFormat);
        QMap<QString, qint64> limits; // semaphore name -> saved limit
        for (const QString &key : saved.allKeys()) {
            const QStringList parts = key.split(QLatin1Char('/'));
            if (parts.size() >= 2 && parts.constLast() == QLatin1String("limit"))
                limits.insert(parts.at(parts.size() - 2), saved.value(key).toLongLong());
        }
        for (int i = 0; i < runs; ++i)
            QVERIFY2(limits.value(QStringLiteral("parallel-%1").arg(i)) == qint64(i + 1),
                     qPrintable(outputs.at(i)));
    }

    // An idle Redisson RSemaphore is a bare integer: list does not guess, but once the operator's
    // profile names it (set-limit keeps its capacity there) list and show find it.
    void idleRedissonSemaphoreFoundThroughTheProfile() {
        cmd({"SET", "rsem", "3"});
        cmd({"SET", "hits", "12"});
        CliRun r = cli({"list", "--json"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.jsonArray().size(), 0);
        r = cli({"set-limit", "rsem", "5", "--kind", "redisson-semaphore", "--json"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.json().value(QStringLiteral("limit_source")).toString(), QStringLiteral("profile"));
        // In the profiles file the desktop app reads too.
        QFile shared(m_home.path() + QStringLiteral("/semscope/profiles.conf"));
        QVERIFY2(shared.open(QIODevice::ReadOnly), qPrintable(shared.fileName()));
        const QByteArray profiles = shared.readAll();
        QVERIFY2(profiles.contains("redisson-semaphore") && profiles.contains("rsem"), profiles.constData());
        r = cli({"list", "--json"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.jsonArray().size(), 1);
        const QJsonObject row = r.jsonArray().at(0).toObject();
        QCOMPARE(row.value(QStringLiteral("kind")).toString(), QStringLiteral("redisson-semaphore"));
        QCOMPARE(row.value(QStringLiteral("name")).toString(), QStringLiteral("rsem"));
        QCOMPARE(row.value(QStringLiteral("limit")).toInteger(), 5);
        QCOMPARE(row.value(QStringLiteral("used")).toInteger(), 0); // Redisson records no holders
        QCOMPARE(row.value(QStringLiteral("warnings")).toArray().size(), 0);
        r = cli({"show", "rsem", "--json"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.json().value(QStringLiteral("kind")).toString(), QStringLiteral("redisson-semaphore"));
        QCOMPARE(
            r.json().value(QStringLiteral("details")).toObject().value(QStringLiteral("in_use")).toInteger(),
            2);
    }

    // The JSON contract of the issue: show has kind, name, limit, limit_source, holders (id, slot,
    // rank, token, ttl_ms, state where the kind has them) and warnings; list rows have kind, name,
    // limit, used and warnings. A healthy fair semaphore without a profile carries no warning: its
    // limit is shown inferred, with a note.
    void jsonFieldsAndInferredLimits() {
        cmd({"ZADD", "rf", QByteArray::number(QDateTime::currentSecsSinceEpoch()), "a"});
        cmd({"ZADD", "rf:owner", "1", "a"});
        cmd({"SET", "rf:counter", "1"});
        CliRun r = cli({"show", "rf", "--json"});
        QCOMPARE(r.exitCode, 0);
        QJsonObject show = r.json();
        QCOMPARE(show.value(QStringLiteral("kind")).toString(), QStringLiteral("fair"));
        QCOMPARE(show.value(QStringLiteral("name")).toString(), QStringLiteral("rf"));
        QCOMPARE(show.value(QStringLiteral("limit")).toInteger(), 1);
        QCOMPARE(show.value(QStringLiteral("limit_source")).toString(), QStringLiteral("inferred"));
        QCOMPARE(show.value(QStringLiteral("warnings")).toArray().size(), 0);
        QVERIFY(!show.value(QStringLiteral("notes")).toArray().isEmpty());
        QJsonObject a = holderNamed(show, QStringLiteral("a"));
        for (const char *field : {"id", "rank", "token", "ttl_ms", "state"})
            QVERIFY2(a.contains(QLatin1String(field)), field);
        QCOMPARE(a.value(QStringLiteral("state")).toString(), QStringLiteral("live"));
        r = cli({"show", "rf"});
        QVERIFY(r.out.contains("note: the limit is not stored"));
        QVERIFY(!r.out.contains("warning:"));
        // Nobody holding and no profile: the limit is unknown, and says so with null.
        cmd({"ZADD", "empty-fair:owner", "1", "gone"});
        cmd({"ZREM", "empty-fair:owner", "gone"});
        cmd({"SET", "empty-fair:counter", "9"});
        show = cli({"show", "empty-fair", "--kind", "fair", "--json"}).json();
        QVERIFY(show.contains(QStringLiteral("limit")));
        QVERIFY(show.value(QStringLiteral("limit")).isNull());
        QCOMPARE(show.value(QStringLiteral("limit_source")).toString(), QStringLiteral("unknown"));
        QCOMPARE(show.value(QStringLiteral("warnings")).toArray().size(), 0);
        cmd({"DEL", "empty-fair:counter"});

        cmd({"RPUSH", "sl|list", "2"});
        cmd({"HSET", "sl|map", "10.0.0.1", "1"});
        show = cli({"show", "sl", "--json"}).json();
        QCOMPARE(holderNamed(show, QStringLiteral("10.0.0.1")).value(QStringLiteral("slot")).toInteger(), 1);

        // node MultiSemaphore: one holder taking three permits.
        const QByteArray t = QByteArray::number(QDateTime::currentMSecsSinceEpoch());
        cmd({"ZADD", "semaphore:nm", t, "job_0", t, "job_1", t, "job_2"});
        cmd({"PEXPIRE", "semaphore:nm", "10000"});
        show = cli({"show", "nm", "--kind", "node-semaphore", "--json"}).json();
        QCOMPARE(show.value(QStringLiteral("holders")).toArray().size(), 1);
        QCOMPARE(holderNamed(show, QStringLiteral("job")).value(QStringLiteral("permits")).toInteger(), 3);
        QCOMPARE(show.value(QStringLiteral("used")).toInteger(), 3);
        QVERIFY(cli({"show", "nm", "--kind", "node-semaphore"}).out.contains("job (3 permits)"));

        r = cli({"list", "--json"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.jsonArray().size(), 3);
        for (const QJsonValue &v : r.jsonArray()) {
            const QJsonObject row = v.toObject();
            for (const char *field : {"kind", "name", "limit", "used", "warnings"})
                QVERIFY2(row.contains(QLatin1String(field)), field);
            QVERIFY2(row.value(QStringLiteral("warnings")).toArray().isEmpty(),
                     qPrintable(row.value(QStringLiteral("name")).toString()));
        }
        // Force-releasing the multi-permit holder by its identifier frees all three permits at once.
        r = cli({"force-release", "nm", "job", "--kind", "node-semaphore", "--yes", "--json"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("released"));
        QCOMPARE(cmd({"EXISTS", "semaphore:nm"}).toInteger(), std::optional<qint64>(0));
    }

    // Issue 14 items 9 and 10: the seed's `semaphore:acquire` (no key TTL, expiry scores) is a zset;
    // a redis-semaphore Semaphore under an ioredis keyPrefix (key TTL, acquire times in ms) is a
    // node-semaphore named by its full key, and a zset purge forced on it removes nothing.
    void zsetAndNodeSemaphoreToldApart() {
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        cmd({"ZADD", "semaphore:acquire", QByteArray::number(now - 2000), "crashed",
             QByteArray::number(now - 1000), "crashed-too"}); // the seed's clients died: expiries past
        cmd({"ZADD", "app:semaphore:uploads", QByteArray::number(now - 3000), "n1", QByteArray::number(now),
             "n2"});
        cmd({"PEXPIRE", "app:semaphore:uploads", "10000"});
        CliRun r = cli({"list", "--json"});
        QCOMPARE(r.exitCode, 0);
        QStringList seen;
        for (const QJsonValue &v : r.jsonArray())
            seen << v.toObject().value(QStringLiteral("kind")).toString() + QLatin1Char(' ') +
                        v.toObject().value(QStringLiteral("name")).toString();
        seen.sort();
        QCOMPARE(seen, (QStringList{QStringLiteral("node-semaphore app:semaphore:uploads"),
                                    QStringLiteral("zset semaphore:acquire")}));

        r = cli({"show", "semaphore:acquire", "--json"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.json().value(QStringLiteral("kind")).toString(), QStringLiteral("zset"));
        QCOMPARE(holderNamed(r.json(), QStringLiteral("crashed")).value(QStringLiteral("state")).toString(),
                 QStringLiteral("expired"));

        r = cli({"show", "app:semaphore:uploads", "--kind", "node-semaphore", "--json"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(holderNamed(r.json(), QStringLiteral("n1")).value(QStringLiteral("state")).toString(),
                 QStringLiteral("live"));
        r = cli({"show", "app:semaphore:uploads", "--json"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.json().value(QStringLiteral("kind")).toString(), QStringLiteral("node-semaphore"));

        r = cli({"purge", "app:semaphore:uploads", "--kind", "zset"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("acquire or refresh times"), r.err.constData());
        QCOMPARE(cmd({"ZCARD", "app:semaphore:uploads"}).toInteger(), std::optional<qint64>(2));
    }

    // Issue 14 item 11: a limit the operator set reads as the operator's, though semscope guessed
    // the timeout and the score unit beside it.
    void operatorLimitIsNotReportedAsGuessed() {
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        cmd({"ZADD", "semaphore:uploads", QByteArray::number(now - 1000), "a", QByteArray::number(now), "b"});
        cmd({"PEXPIRE", "semaphore:uploads", "10000"});
        QCOMPARE(cli({"set-limit", "uploads", "3", "--kind", "node-semaphore"}).exitCode, 0);
        const QJsonObject show = cli({"show", "uploads", "--json"}).json();
        QCOMPARE(show.value(QStringLiteral("kind")).toString(), QStringLiteral("node-semaphore"));
        QCOMPARE(show.value(QStringLiteral("limit")).toInteger(), 3);
        QCOMPARE(show.value(QStringLiteral("limit_source")).toString(), QStringLiteral("profile"));
        QVERIFY(show.value(QStringLiteral("details"))
                    .toObject()
                    .value(QStringLiteral("timeout_inferred"))
                    .toBool());
    }

    // Issue 14 item 1, as reported: semscope's millisecond score, then a client's seconds score; the
    // next acquire must not evict the client, and show names the conflict.
    void mixedScoreUnitsRefuseAcquire() {
        QCOMPARE(cli({"acquire", "zs", "--kind", "zset", "--limit", "2", "--holder", "sem1", "--ttl", "60s"})
                     .exitCode,
                 0);
        cmd({"ZADD", "zs", QByteArray::number(QDateTime::currentSecsSinceEpoch() + 60), "seedA"});
        CliRun r =
            cli({"acquire", "zs", "--kind", "zset", "--limit", "2", "--holder", "sem2", "--ttl", "60s"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("mixes second and millisecond scores"), r.err.constData());
        QVERIFY(!cmd({"ZSCORE", "zs", "seedA"}).isNil());
        QCOMPARE(cmd({"ZCARD", "zs"}).toInteger(), std::optional<qint64>(2));
        r = cli({"show", "zs", "--kind", "zset"});
        QVERIFY2(r.out.contains("mixes second and millisecond scores"), r.out.constData());
    }

    // A zset lease the layout's clients cap (here: their 10 s timeout) comes out shorter than asked:
    // acquire and refresh both say so and why, in words and in --json.
    void zsetLeaseShortenedIsSaid() {
        const QStringList zset{"--kind", "zset", "--limit", "2", "--timeout", "10s"};
        CliRun r = cli(QStringList{"acquire", "capped", "--holder", "c1", "--ttl", "60s"} + zset);
        QCOMPARE(r.exitCode, 0);
        const QByteArray why = "lease shorter than the 1 m 00 s asked: capped at the clients' lease";
        QVERIFY2(r.err.contains(QByteArray("warning: " + why)), r.err.constData());
        r = cli(QStringList{"refresh", "capped", "c1", "--ttl", "60s"} + zset);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains(QByteArray("warning: " + why)), r.err.constData());
        QVERIFY2(!r.out.contains("not the"), r.out.constData()); // said once, with why
        r = cli(QStringList{"refresh", "capped", "c1", "--ttl", "60s", "--json"} + zset);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.json()
                     .value(QStringLiteral("warnings"))
                     .toArray()
                     .first()
                     .toString()
                     .startsWith(QString::fromUtf8(why)),
                 r.out.constData());
    }

    // Bad data of every sort in one keyspace: list names each problem on the semaphore it concerns,
    // exits 0, and the healthy semaphores beside them are listed clean and still operable.
    void badDataIsListedAndTheRestStillWorks() {
        QCOMPARE(cli({"acquire", "good", "--kind", "leased", "--limit", "2", "--holder", "h"}).exitCode, 0);
        cmd({"RPUSH", "fine|list", "2"});
        cmd({"HSET", "fine|map", "10.0.0.1", "1"});
        cmd({"SET", "{wt}:holders", "not a zset"}); // wrong type under a semaphore's name
        cmd({"HSET", "{wt}:meta", "limit", "2"});
        cmd({"ZADD", "nn", "inf", "a"}); // non-numeric (infinite) acquire time
        cmd({"ZADD", "nn:owner", "1", "a"});
        cmd({"SET", "nn:counter", "1"});
        cmd({"RPUSH", "dup|list", "1", "2", "2"}); // duplicate free slot
        cmd({"HSET", "dup|map", "h", "3"});
        cmd({"RPUSH", "miss|list", "1"}); // slot 2 neither free nor held
        cmd({"HSET", "miss|map", "h", "3"});
        cmd({"RPUSH", "gh|list", "1"}); // garbage in the hash
        cmd({"HSET", "gh|map", "h", "banana"});
        cmd({"RPUSH", "big|list", "1"}); // a 10 MB value
        cmd({"HSET", "big|map", "h", QByteArray(10 << 20, 'x')});
        const QList<std::pair<QString, QString>> expected{
            {QStringLiteral("wt"), QStringLiteral("expected a zset")},
            {QStringLiteral("nn"), QStringLiteral("non-numeric")},
            {QStringLiteral("dup"), QStringLiteral("duplicate free slots")},
            {QStringLiteral("miss"), QStringLiteral("leaked")},
            {QStringLiteral("gh"), QStringLiteral("banana")},
            {QStringLiteral("big"), QStringLiteral("10.0 MB")}};

        const CliRun r = cli({"list", "--json"});
        QCOMPARE(r.exitCode, 0);
        QHash<QString, QString> warnings;
        for (const QJsonValue &v : r.jsonArray()) {
            const QJsonObject row = v.toObject();
            QStringList w;
            for (const QJsonValue &x : row.value(QStringLiteral("warnings")).toArray())
                w << x.toString();
            warnings.insert(row.value(QStringLiteral("name")).toString(), w.join(QStringLiteral("; ")));
        }
        QCOMPARE(warnings.size(), expected.size() + 2);
        for (const auto &[name, text] : expected)
            QVERIFY2(warnings.value(name).contains(text),
                     qPrintable(name + QStringLiteral(": ") + warnings.value(name)));
        QVERIFY2(warnings.value(QStringLiteral("good")).isEmpty(),
                 qPrintable(warnings.value(QStringLiteral("good"))));
        QVERIFY2(warnings.value(QStringLiteral("fine")).isEmpty(),
                 qPrintable(warnings.value(QStringLiteral("fine"))));
        // The human table shows them too, and the neighbours still work.
        QVERIFY(cli({"list"}).out.contains("banana"));
        QCOMPARE(cli({"acquire", "good", "--kind", "leased", "--holder", "h2"}).exitCode, 0);
        QCOMPARE(cli({"acquire", "fine", "--kind", "slots", "--holder", "10.0.0.2"}).exitCode, 0);
        QCOMPARE(cli({"repair", "dup", "--kind", "slots"}).exitCode, 0);
        QCOMPARE(cli({"show", "dup", "--kind", "slots", "--json"})
                     .json()
                     .value(QStringLiteral("warnings"))
                     .toArray()
                     .size(),
                 0);
        QCOMPARE(cmd({"STRLEN", "big|list"}).isError(), true); // nothing rewrote the bad keys
        QCOMPARE(cmd({"HSTRLEN", "big|map", "h"}).toInteger(), std::optional<qint64>(10 << 20));
    }

    // 10,000 semaphores among 1,000,000 keys: list completes, with progress on stderr. Run by the
    // `slow` ctest entry tst_cli_list_large only.
    void listOnAMillionKeys() {
        if (!QCoreApplication::arguments().contains(QStringLiteral("listOnAMillionKeys")))
            QSKIP("runs as tst_cli_list_large (label slow)");
        QVERIFY(!cmd({"DEBUG", "POPULATE", "990000", "key", "8"}).isError());
        // A third each of slots, zset and fair semaphores, made in one script.
        const QByteArray populate = R"LUA(
local s = tonumber(redis.call('TIME')[1])
for i = 1, tonumber(ARGV[1]) do
    local m = i % 3
    if m == 0 then
        redis.call('RPUSH', 'slots:' .. i .. '|list', 2, 3)
        redis.call('HSET', 'slots:' .. i .. '|map', 'h' .. i, 1)
    elseif m == 1 then
        redis.call('ZADD', 'zsem:' .. i, s * 1000 + 600000, 'h' .. i)
    else
        redis.call('ZADD', 'fair:' .. i, s, 'h' .. i)
        redis.call('ZADD', 'fair:' .. i .. ':owner', 1, 'h' .. i)
        redis.call('SET', 'fair:' .. i .. ':counter', 1)
    end
end
return 1
)LUA";
        QVERIFY(!cmd({"EVAL", populate, "0", "10000"}).isError());
        const qint64 dbsize = cmd({"DBSIZE"}).toInteger().value_or(-1);
        QVERIFY2(dbsize >= 1000000, qPrintable(QString::number(dbsize)));

        const CliRun r = cli({"list", "--json"}, {}, 600000);
        QCOMPARE(r.exitCode, 0);
        const QJsonArray rows = r.jsonArray();
        QCOMPARE(rows.size(), 10000);
        // Every semaphore read (fair holders may time out meanwhile: that warning is real, so it is
        // not checked here; the discovery test checks the recognition warnings).
        QHash<QString, int> kinds;
        for (const QJsonValue &v : rows) {
            const QJsonObject row = v.toObject();
            kinds[row.value(QStringLiteral("kind")).toString()] += 1;
            QVERIFY(row.contains(QStringLiteral("used")));
        }
        QCOMPARE(kinds.value(QStringLiteral("slots")), 3333);
        QCOMPARE(kinds.value(QStringLiteral("zset")), 3334);
        QCOMPARE(kinds.value(QStringLiteral("fair")), 3333);
        // Progress: "scanned X of <dbsize> keys, N semaphores so far" lines, then the total.
        const QList<QByteArray> lines = r.err.trimmed().split('\n');
        QVERIFY2(lines.size() >= 2, r.err.constData());
        QVERIFY2(lines.first().contains(QByteArray(" of " + QByteArray::number(dbsize) + " keys")),
                 r.err.constData());
        QCOMPARE(lines.last(),
                 QByteArray("scanned " + QByteArray::number(dbsize) + " keys, found 10000 semaphores"));
        qInfo("list: %d stderr lines", int(lines.size()));
    }

    // issue 14 item 3 from the operator's side: a leased semaphore whose meta was deleted refuses
    // acquires with what to do, `show` says it, repair and set-limit make it whole with tokens that
    // keep rising.
    void lostLeasedMetaIsShownAndRepaired() {
        CliRun a = cli({"acquire", "gone", "--kind", "leased", "--limit", "2", "--holder", "a", "--json"});
        QCOMPARE(a.exitCode, 0);
        const qint64 aToken = a.json().value(QStringLiteral("token")).toInteger();
        cmd({"DEL", "{gone}:meta"});
        CliRun r = cli({"acquire", "gone", "--kind", "leased", "--limit", "5", "--holder", "c"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("meta missing — run repair"), r.err.constData());
        r = cli({"show", "gone", "--kind", "leased"});
        const QByteArray shown = r.out + r.err;
        QVERIFY2(shown.contains("meta missing — run repair"), shown.constData());
        r = cli({"repair", "gone", "--kind", "leased"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("set-limit"), r.out.constData());
        QCOMPARE(cli({"set-limit", "gone", "2", "--kind", "leased"}).exitCode, 0);
        r = cli({"acquire", "gone", "--kind", "leased", "--holder", "c", "--json"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.json().value(QStringLiteral("token")).toInteger() > aToken);
    }

    // issue 14 item 5: an `acquire --wait` ended by Ctrl-C or SIGTERM leaves the queue before it
    // exits, so the next release goes to a live newcomer, not to the process that is gone. One killed
    // outright (it cannot leave) drops out once its short waiter lease is over, and is then never
    // handed the slot.
    void interruptedWaitLeavesTheQueue_data() {
        QTest::addColumn<int>("signal");
        QTest::newRow("SIGTERM") << int(SIGTERM);
        QTest::newRow("SIGINT") << int(SIGINT);
        QTest::newRow("SIGKILL") << int(SIGKILL);
    }
    void interruptedWaitLeavesTheQueue() {
        QFETCH(int, signal);
        QCOMPARE(cli({"acquire", "busy", "--kind", "leased", "--limit", "1", "--holder", "a", "--ttl", "60s"})
                     .exitCode,
                 0);
        QProcess waiter;
        startCli(waiter,
                 {"acquire", "busy", "--kind", "leased", "--holder", "w", "--ttl", "60s", "--wait", "60s"});
        QVERIFY(waiter.waitForStarted());
        QTRY_COMPARE_WITH_TIMEOUT(cmd({"LLEN", "{busy}:queue"}).integer, 1LL, 30000);
        QCOMPARE(::kill(static_cast<pid_t>(waiter.processId()), signal), 0);
        QVERIFY(waiter.waitForFinished(30000));

        if (signal == SIGKILL) {
            // Still in line, with a lease that is short ("ticket|ttl|lease|tag|info")...
            const QList<QByteArray> record = cmd({"HGET", "{busy}:waiting", "w"}).str.split('|');
            QVERIFY(record.size() >= 5);
            const qint64 lease = record.at(2).toLongLong();
            const auto serverNowMs = [this] {
                const redis::RedisReply t = cmd({"TIME"});
                return t.elements.value(0).str.toLongLong() * 1000 +
                       t.elements.value(1).str.toLongLong() / 1000;
            };
            QVERIFY2(lease - serverNowMs() <= 5000, qPrintable(QString::number(lease - serverNowMs())));
            // ...which runs out, as it is renewed no more.
            QTRY_VERIFY_WITH_TIMEOUT(serverNowMs() > lease, 30000);
        } else {
            QCOMPARE(waiter.exitStatus(), QProcess::NormalExit);
            QCOMPARE(waiter.exitCode(), 128 + signal);
            const QByteArray err = waiter.readAllStandardError();
            QVERIFY2(err.contains("left the queue"), err.constData());
            QCOMPARE(cmd({"LLEN", "{busy}:queue"}).integer, 0LL);
            QCOMPARE(cmd({"HLEN", "{busy}:waiting"}).integer, 0LL);
        }

        QCOMPARE(cli({"release", "busy", "a", "--kind", "leased"}).exitCode, 0);
        QVERIFY(cmd({"ZSCORE", "{busy}:holders", "w"}).isNil());
        const CliRun newcomer = cli({"acquire", "busy", "--kind", "leased", "--holder", "n"});
        QVERIFY2(newcomer.exitCode == 0, newcomer.err.constData());
        QVERIFY(cmd({"ZSCORE", "{busy}:holders", "w"}).isNil());
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

SEMSCOPE_TEST_GUILESS_MAIN(TestCliSemaphores)
#include "tst_cli_semaphores.moc"
