// semscope-cli against an in-process Consul API double: the Consul-only commands (`sessions`,
// `invalidate`, `sandbox consul`) and the generic semaphore commands with --consul.
#include "ConsulTestTarget.h"
#include "TestMain.h"
#include "consul/ConsulTypes.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <sys/types.h>

using namespace semscope::consul;

class TestConsulCli : public QObject {
    Q_OBJECT

    QString m_cli;
    std::unique_ptr<ConsulDouble> m_double;
    QTemporaryDir m_data;
    std::unique_ptr<ConsulClient> m_raw;

    struct Run {
        int exitCode = -1;
        QByteArray out;
        QByteArray err;
    };

    // Runs the CLI without blocking the event loop, so the in-process double keeps answering.
    Run cli(const QStringList &args) {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("CONSUL_HTTP_ADDR"));
        env.remove(QStringLiteral("CONSUL_HTTP_TOKEN"));
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_data.path()); // the audit log of these runs
        p.setProcessEnvironment(env);
        QSignalSpy finished(&p, &QProcess::finished);
        p.start(m_cli, args);
        Run r;
        if (!p.waitForStarted(30000))
            return r;
        if (!finished.wait(120000)) {
            p.kill();
            p.waitForFinished();
            return r;
        }
        r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
        r.out = p.readAllStandardOutput();
        r.err = p.readAllStandardError();
        return r;
    }

    QString session(const QByteArray &json) {
        const HttpResult r = syncRequest(*m_raw, "PUT", QStringLiteral("/v1/session/create"), json);
        return QRegularExpression(QStringLiteral("\"ID\":\"([^\"]+)\""))
            .match(QString::fromUtf8(r.body))
            .captured(1);
    }

    bool cliHasCommand(const QString &name) {
        const Run help = cli({QStringLiteral("--help")});
        return QRegularExpression(QStringLiteral("\\n  %1[ \\n]").arg(name))
            .match(QString::fromUtf8(help.out))
            .hasMatch();
    }

    // Whether the generic semaphore commands of this build accept --consul (the store factory
    // is another part of the CLI; until it opens Consul stores these tests have nothing to run).
    bool genericCommandsTakeConsul() {
        if (!cliHasCommand(QStringLiteral("list")))
            return false;
        const Run r = cli({QStringLiteral("--consul"), m_double->url().toString(), QStringLiteral("list")});
        return !r.err.contains("not built into");
    }

private Q_SLOTS:
    void initTestCase() {
        m_cli = qEnvironmentVariable("SEMSCOPE_CLI");
        QVERIFY2(!m_cli.isEmpty(), "SEMSCOPE_CLI is not set (run through ctest)");
    }

    void init() {
        m_double = std::make_unique<ConsulDouble>();
        QVERIFY(m_double->listen());
        ConsulConfig config;
        config.address = m_double->url();
        m_raw = std::make_unique<ConsulClient>(config);
    }

    void cleanup() {
        m_raw.reset();
        m_double.reset();
    }

    void sessionsListsEverySession() {
        const QString a = session(R"({"Name":"worker a","TTL":"30s","Behavior":"delete"})");
        const QString b = session(R"({"Name":"worker b"})");
        Run r = cli({QStringLiteral("--consul"), m_double->url().toString(), QStringLiteral("sessions")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(a.toUtf8()));
        QVERIFY(r.out.contains(b.toUtf8()));
        QVERIFY(r.out.contains("worker a"));
        r = cli({QStringLiteral("--consul"), m_double->url().toString(), QStringLiteral("--json"),
                 QStringLiteral("sessions")});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray list = QJsonDocument::fromJson(r.out).array();
        QCOMPARE(list.size(), 2);
        QCOMPARE(list[0].toObject().value(QStringLiteral("id")).toString(), a);
        QCOMPARE(list[0].toObject().value(QStringLiteral("behavior")).toString(), QStringLiteral("delete"));
        QCOMPARE(list[0].toObject().value(QStringLiteral("ttl")).toString(), QStringLiteral("30s"));
    }

    void invalidateDestroysTheSession() {
        const QString a = session(R"({"Name":"doomed"})");
        Run r =
            cli({QStringLiteral("--consul"), m_double->url().toString(), QStringLiteral("invalidate"), a});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(m_double->state().session(a) == nullptr);
        QFile log(m_data.filePath(QStringLiteral("semscope/semscope/audit.jsonl")));
        QVERIFY(log.open(QIODevice::ReadOnly));
        const QJsonObject entry = QJsonDocument::fromJson(log.readAll().split('\n').constFirst()).object();
        QCOMPARE(entry.value(QStringLiteral("action")).toString(), QStringLiteral("invalidate-session"));
        QCOMPARE(entry.value(QStringLiteral("result")).toString(), QStringLiteral("ok"));
        QCOMPARE(
            entry.value(QStringLiteral("observed")).toObject().value(QStringLiteral("session")).toString(),
            a);
        r = cli({QStringLiteral("--consul"), m_double->url().toString(), QStringLiteral("invalidate"), a});
        QCOMPARE(r.exitCode, 1); // gone now: nothing to invalidate
        QVERIFY2(r.err.startsWith(
                     QByteArray("semscope-cli: " + m_double->url().toString().toUtf8() + ": no session")),
                 r.err);
    }

    void unreachableConsulIsAUsageError() {
        const quint16 port = m_double->port();
        m_double.reset(); // nobody listens there now
        const Run r = cli({QStringLiteral("--consul"), QStringLiteral("http://127.0.0.1:%1").arg(port),
                           QStringLiteral("sessions")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("listing sessions failed"), r.err);
    }

    void sandboxRunsUntilTerminated() {
        QProcess p;
        p.start(m_cli, {QStringLiteral("sandbox"), QStringLiteral("consul")});
        QVERIFY(p.waitForStarted(30000));
        QByteArray out;
        QTRY_VERIFY_WITH_TIMEOUT((out += p.readAllStandardOutput()).contains("listening on"), 30000);
        const QString url = QRegularExpression(QStringLiteral("listening on (http://\\S+)"))
                                .match(QString::fromUtf8(out))
                                .captured(1);
        QVERIFY(!url.isEmpty());
        ConsulConfig config;
        config.address = QUrl(url);
        ConsulClient client(config);
        const HttpResult put = syncRequest(client, "PUT", QStringLiteral("/v1/kv/hello"), "world");
        QCOMPARE(put.body, QByteArray("true"));
        QCOMPARE(syncRequest(client, "GET", QStringLiteral("/v1/kv/hello?raw"), {}).body,
                 QByteArray("world"));
        p.terminate(); // SIGTERM
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(p.readAllStandardOutput().contains("sandbox stopped"));
    }

    void showWorksWithConsul() {
        if (!cliHasCommand(QStringLiteral("show")) || !genericCommandsTakeConsul())
            QSKIP("this semscope-cli has no `show` command that takes --consul");
        const QString holder = session(R"({"Name":"seed client"})");
        QCOMPARE(
            syncRequest(*m_raw, "PUT", QStringLiteral("/v1/kv/semaphore/jobs/%1?acquire=%1").arg(holder), "")
                .body,
            QByteArray("true"));
        QCOMPARE(syncRequest(*m_raw, "PUT", QStringLiteral("/v1/kv/semaphore/jobs/.lock?cas=0"),
                             QStringLiteral(R"({"limit":3,"holders":["%1"]})").arg(holder).toUtf8())
                     .body,
                 QByteArray("true"));
        const Run r = cli({QStringLiteral("--consul"), m_double->url().toString(), QStringLiteral("show"),
                           QStringLiteral("semaphore/jobs")});
        QVERIFY2(r.exitCode == 0, r.err);
        QVERIFY2(r.out.contains(holder.toUtf8()), r.out);
    }

    void acquireAndReleaseWithConsul() {
        if (!cliHasCommand(QStringLiteral("acquire")) || !cliHasCommand(QStringLiteral("release")) ||
            !genericCommandsTakeConsul())
            QSKIP("this semscope-cli has no `acquire`/`release` commands that take --consul");
        const QString url = m_double->url().toString();
        Run r = cli({QStringLiteral("--consul"), url, QStringLiteral("--kind"), QStringLiteral("consul"),
                     QStringLiteral("acquire"), QStringLiteral("semaphore/cli"), QStringLiteral("--limit"),
                     QStringLiteral("2")});
        QVERIFY2(r.exitCode == 0, r.err);
        const DoubleState::KvEntry *lock = m_double->state().get(QStringLiteral("semaphore/cli/.lock"));
        QVERIFY(lock);
        QCOMPARE(lock->flags, kSemaphoreFlagValue); // a new semaphore is written the Go API's way
        const QString holder = QRegularExpression(QStringLiteral("\\{\"([0-9a-f-]{36})\":true\\}"))
                                   .match(QString::fromUtf8(lock->value))
                                   .captured(1);
        QVERIFY2(!holder.isEmpty(), lock->value.constData());
        r = cli({QStringLiteral("--consul"), url, QStringLiteral("release"), QStringLiteral("semaphore/cli"),
                 holder});
        QVERIFY2(r.exitCode == 0, r.err);
        lock = m_double->state().get(QStringLiteral("semaphore/cli/.lock"));
        QCOMPARE(lock->value, QByteArray(R"({"Limit":2,"Holders":{}})"));
        QCOMPARE(lock->flags, kSemaphoreFlagValue);
        QVERIFY(m_double->state().session(holder) == nullptr);
    }

    // set-limit with --consul: one CAS write of `.lock` in the dialect and with the flags it had; a
    // mutex refuses (its limit is 1) and is left untouched.
    void setLimitWithConsul() {
        const QString url = m_double->url().toString();
        Run r = cli({QStringLiteral("--consul"), url, QStringLiteral("acquire"),
                     QStringLiteral("semaphore/sl"), QStringLiteral("--kind"), QStringLiteral("consul"),
                     QStringLiteral("--limit"), QStringLiteral("2")});
        QVERIFY2(r.exitCode == 0, r.err);
        r = cli({QStringLiteral("--consul"), url, QStringLiteral("--json"), QStringLiteral("set-limit"),
                 QStringLiteral("semaphore/sl"), QStringLiteral("5"), QStringLiteral("--kind"),
                 QStringLiteral("consul")});
        QVERIFY2(r.exitCode == 0, r.err);
        QVERIFY2(r.out.contains(R"("limit_source":"stored")"), r.out.constData());
        const DoubleState::KvEntry *lock = m_double->state().get(QStringLiteral("semaphore/sl/.lock"));
        QVERIFY(lock);
        QVERIFY2(lock->value.startsWith(R"({"Limit":5,)"), lock->value.constData());
        QCOMPARE(lock->flags, kSemaphoreFlagValue);
        const QByteArray before = lock->value;
        r = cli({QStringLiteral("--consul"), url, QStringLiteral("set-limit"), QStringLiteral("semaphore/sl"),
                 QStringLiteral("3"), QStringLiteral("--kind"), QStringLiteral("consul-mutex")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("always 1"), r.err.constData());
        QCOMPARE(m_double->state().get(QStringLiteral("semaphore/sl/.lock"))->value, before);
    }

    // Ctrl-C during `acquire --wait` says it left the queue: then its session and contender key are
    // gone from Consul when the process has ended (the destroy was sent and never waited for, so the
    // process ended first and left a "waiting" contender until the session's TTL).
    void interruptedWaitLeavesNoSessionBehind() {
        const QString url = m_double->url().toString();
        Run r =
            cli({QStringLiteral("--consul"), url, QStringLiteral("acquire"), QStringLiteral("semaphore/iw"),
                 QStringLiteral("--kind"), QStringLiteral("consul"), QStringLiteral("--limit"),
                 QStringLiteral("1"), QStringLiteral("--ttl"), QStringLiteral("5m")});
        QVERIFY2(r.exitCode == 0, r.err);
        QCOMPARE(m_double->state().sessions().size(), 1);
        const QString holder = m_double->state().sessions().constFirst().id;

        QProcess waiter;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_data.path());
        waiter.setProcessEnvironment(env);
        QSignalSpy finished(&waiter, &QProcess::finished);
        waiter.start(m_cli,
                     {QStringLiteral("--consul"), url, QStringLiteral("acquire"),
                      QStringLiteral("semaphore/iw"), QStringLiteral("--wait"), QStringLiteral("60s")});
        QVERIFY(waiter.waitForStarted(30000));
        // In line: its session and its contender key are there.
        QString waiting;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                for (const auto &s : m_double->state().sessions())
                    if (s.id != holder && m_double->state().get(QStringLiteral("semaphore/iw/") + s.id))
                        waiting = s.id;
                return !waiting.isEmpty();
            }(),
            30000);
        ::kill(pid_t(waiter.processId()), SIGINT);
        QVERIFY(finished.wait(30000));
        QCOMPARE(waiter.exitCode(), 130);
        QVERIFY2(waiter.readAllStandardError().contains("left the queue of semaphore/iw"),
                 "the interrupted wait says so");
        QVERIFY(m_double->state().session(waiting) == nullptr);
        QVERIFY(m_double->state().get(QStringLiteral("semaphore/iw/") + waiting) == nullptr);
        QVERIFY(m_double->state().session(holder) != nullptr); // the holder is untouched
    }

    // A lease Consul refuses for a session is said in the unit it was asked in, with the range, not
    // only as Consul's nanoseconds ("Invalid Session TTL '5000000000'").
    void leaseOutsideTheSessionTtlRangeIsExplained() {
        const Run r = cli({QStringLiteral("--consul"), m_double->url().toString(), QStringLiteral("acquire"),
                           QStringLiteral("semaphore/ttl"), QStringLiteral("--kind"),
                           QStringLiteral("consul"), QStringLiteral("--limit"), QStringLiteral("1"),
                           QStringLiteral("--ttl"), QStringLiteral("5s")});
        QCOMPARE(r.exitCode, 1); // Consul answered and refused
        QVERIFY2(r.err.contains("a lease of 5.0 s is outside the session TTLs this agent accepts"),
                 r.err.constData());
        QVERIFY(m_double->state().sessions().isEmpty());
    }

    // `acquire --holder worker-a` names the Consul session; the holder is the session id. release by
    // the name says which id to give instead of only "does not hold".
    void releaseBySessionNameSaysWhichSession() {
        const QString url = m_double->url().toString();
        Run r =
            cli({QStringLiteral("--consul"), url, QStringLiteral("acquire"), QStringLiteral("semaphore/sn"),
                 QStringLiteral("--kind"), QStringLiteral("consul"), QStringLiteral("--limit"),
                 QStringLiteral("2"), QStringLiteral("--holder"), QStringLiteral("worker-a")});
        QVERIFY2(r.exitCode == 0, r.err);
        QCOMPARE(m_double->state().sessions().size(), 1);
        const QString sid = m_double->state().sessions().constFirst().id;
        r = cli({QStringLiteral("--consul"), url, QStringLiteral("release"), QStringLiteral("semaphore/sn"),
                 QStringLiteral("worker-a")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("worker-a names the session %1: give that").arg(sid).toUtf8()),
                 r.err.constData());
        r = cli({QStringLiteral("--consul"), url, QStringLiteral("release"), QStringLiteral("semaphore/sn"),
                 sid});
        QVERIFY2(r.exitCode == 0, r.err);
    }

    // repair is Redis' (slots, leased): on Consul it refuses and names what does the job there, commands
    // that exist (it once pointed at a "destroy" there is none of).
    void repairWithConsulNamesWhatToDoInstead() {
        const QString url = m_double->url().toString();
        Run r = cli({QStringLiteral("--consul"), url, QStringLiteral("acquire"),
                     QStringLiteral("semaphore/rp"), QStringLiteral("--kind"), QStringLiteral("consul"),
                     QStringLiteral("--limit"), QStringLiteral("2")});
        QVERIFY2(r.exitCode == 0, r.err);
        r = cli({QStringLiteral("--consul"), url, QStringLiteral("repair"), QStringLiteral("semaphore/rp")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("purge"), r.err.constData());
        QVERIFY2(r.err.contains("semscope-cli invalidate SESSION"), r.err.constData());
        QVERIFY2(!r.err.contains("destroy"), r.err.constData());
    }

    // The load tester drives ConsulSemaphoreStore like any other store: sessions, contender keys and
    // CAS writes on `.lock`, with waiting acquires on blocking queries.
    void loadtestWithConsul() {
        const QString url = m_double->url().toString();
        const Run r =
            cli({QStringLiteral("--consul"), url, QStringLiteral("--json"), QStringLiteral("loadtest"),
                 QStringLiteral("semaphore/lt"), QStringLiteral("--kind"), QStringLiteral("consul"),
                 QStringLiteral("--limit"), QStringLiteral("2"), QStringLiteral("--clients"),
                 QStringLiteral("4"), QStringLiteral("--connections"), QStringLiteral("2"),
                 QStringLiteral("--hold"), QStringLiteral("uniform:1ms..5ms"), QStringLiteral("--wait"),
                 QStringLiteral("5s"), QStringLiteral("--ops"), QStringLiteral("40")});
        QVERIFY2(r.exitCode == 0, QByteArray(r.err + r.out).constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o.value(QStringLiteral("ok")).toBool(), true);
        QVERIFY2(o.value(QStringLiteral("grants")).toInteger() >= 40, r.out);
        QCOMPARE(o.value(QStringLiteral("over_admissions")).toInteger(), 0);
        QVERIFY(o.value(QStringLiteral("max_concurrent_holders")).toInteger() <= 2);
        QCOMPARE(o.value(QStringLiteral("errors")).toInteger(), 0);
        // Every client released: the semaphore is left without holders, in the Go API's dialect.
        const DoubleState::KvEntry *lock = m_double->state().get(QStringLiteral("semaphore/lt/.lock"));
        QVERIFY(lock);
        QCOMPARE(lock->value, QByteArray(R"({"Limit":2,"Holders":{}})"));
    }

    void loadtestScenarioNeedsRedis() {
        const Run r = cli({QStringLiteral("--consul"), m_double->url().toString(), QStringLiteral("loadtest"),
                           QStringLiteral("x"), QStringLiteral("--scenario"), QStringLiteral("incr-lock")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--redis"), r.err);
    }

    // Redis-only options are never dropped silently: one that says where to connect is refused,
    // one that only spares the servers is noted and the command goes on.
    void redisOnlyOptionsAreNotIgnoredSilently() {
        const QString url = m_double->url().toString();
        Run r =
            cli({QStringLiteral("--consul"), url, QStringLiteral("--from-replicas"), QStringLiteral("list")});
        QVERIFY2(r.exitCode == 0, r.err);
        QVERIFY2(r.err.contains("note: --from-replicas applies to a Redis Cluster only"), r.err);
        r = cli({QStringLiteral("--consul"), url, QStringLiteral("--sentinel-password"),
                 QStringLiteral("s3cret"), QStringLiteral("list")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--sentinel-password needs a redis+sentinel:// URL"), r.err);
        QVERIFY(!r.err.contains("s3cret"));
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestConsulCli)
#include "tst_consul_cli.moc"
