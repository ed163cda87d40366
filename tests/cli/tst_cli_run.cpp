// semscope-cli run NAME -- COMMAND: COMMAND runs holding a slot, with its grant in the environment; the
// slot is released when it exits, and COMMAND is stopped when the slot is lost, when the lease can no
// longer be renewed, or on SIGTERM. Against a real redis-server and the Consul API double.
#include "RedisServer.h"
#include "TestMain.h"
#include "TestWait.h"
#include "consuldouble/ConsulDouble.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <csignal>
#include <memory>

using namespace semscope;

namespace {

constexpr int kRunMs = 60000; // more than any run here takes; the tests wait on the process, not a clock

struct Finished {
    int exitCode = -1; // -1: did not finish in time, -2: crashed
    QString out;
    QString err;
};

} // namespace

class TestCliRun : public QObject {
    Q_OBJECT

private:
    test::RedisServer m_server;
    QString m_cli;
    QTemporaryDir m_dir; // the runs' HOME, and the files their COMMANDs write

    std::unique_ptr<QProcess> start(QStringList args, const QString &backend = {}, const QString &url = {}) {
        args.prepend(url.isEmpty() ? m_server.url() : url);
        args.prepend(backend.isEmpty() ? QStringLiteral("--redis") : backend);
        auto p = std::make_unique<QProcess>();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), m_dir.path());
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.path());
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_dir.path() + QStringLiteral("/share"));
        env.insert(QStringLiteral("SEMSCOPE_HISTORY"), m_dir.path() + QStringLiteral("/history.sqlite"));
        env.remove(QStringLiteral("CONSUL_HTTP_ADDR"));
        p->setProcessEnvironment(env);
        p->setStandardInputFile(QProcess::nullDevice());
        p->start(m_cli, args);
        return p;
    }

    // Waits with the event loop running (the Consul double answers from it).
    static Finished finish(QProcess &p) {
        Finished f;
        if (!test::waitFor([&p] { return p.state() == QProcess::NotRunning; }, kRunMs)) {
            p.kill();
            p.waitForFinished();
            return f;
        }
        f.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
        f.out = QString::fromUtf8(p.readAllStandardOutput());
        f.err = QString::fromUtf8(p.readAllStandardError());
        return f;
    }

    Finished run(const QStringList &args, const QString &backend = {}, const QString &url = {}) {
        auto p = start(args, backend, url);
        return finish(*p);
    }

    QString file(const QString &name) const { return m_dir.filePath(name); }
    static QString read(const QString &path) {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()).trimmed() : QString();
    }
    qint64 holders(const QByteArray &name) {
        return m_server.command({"ZCARD", "{" + name + "}:holders"}).integer;
    }

    // A COMMAND that says it started (a file), notes a SIGTERM (another file) and otherwise runs until
    // it is stopped.
    QStringList longCommand() const {
        return {QStringLiteral("sh"), QStringLiteral("-c"),
                QStringLiteral("trap 'echo term > %1; exit 5' TERM; echo up > %2; sleep 60 & wait")
                    .arg(file(QStringLiteral("term")), file(QStringLiteral("up")))};
    }
    bool startedUp() {
        return test::waitFor([this] { return QFile::exists(file(QStringLiteral("up"))); }, kRunMs);
    }

private Q_SLOTS:
    void initTestCase() {
        m_cli = qEnvironmentVariable("SEMSCOPE_CLI");
        QVERIFY2(QFileInfo::exists(m_cli), "SEMSCOPE_CLI must name the semscope-cli binary");
        QVERIFY(m_dir.isValid());
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
    }

    void init() {
        m_server.command({"FLUSHALL"});
        for (const QString &name : {QStringLiteral("env"), QStringLiteral("up"), QStringLiteral("term")})
            QFile::remove(file(name));
    }

    // COMMAND gets the grant (holder, fencing token) in its environment, runs while the lease is
    // renewed past its first length, and its exit code is run's; the slot is free afterwards.
    void runsCommandHoldingTheSlot_data() {
        QTest::addColumn<QString>("backend");
        QTest::addColumn<QString>("kind");
        QTest::newRow("redis leased") << "--redis"
                                      << "leased";
        QTest::newRow("consul") << "--consul"
                                << "consul";
    }
    void runsCommandHoldingTheSlot() {
        QFETCH(QString, backend);
        QFETCH(QString, kind);
        consul::ConsulDouble consul;
        QString url;
        if (kind == QLatin1String("consul")) {
            QVERIFY(consul.listen());
            url = consul.url().toString();
        }
        // Redis: a 600 ms lease outlived three times over, so only renewals keep it. (Consul's
        // sessions last at least 10 s.)
        const QString ttl = kind == QLatin1String("consul") ? QStringLiteral("10s") : QStringLiteral("600ms");
        const QString script =
            QStringLiteral(
                "echo \"$SEMSCOPE_SEMAPHORE $SEMSCOPE_KIND $SEMSCOPE_HOLDER $SEMSCOPE_TOKEN\" > %1; "
                "sleep 2; exit 3")
                .arg(file(QStringLiteral("env")));
        auto p = start({"run", "batch/nightly", "--kind", kind, "--limit", "2", "--holder", "job-7", "--ttl",
                        ttl, "--", "sh", "-c", script},
                       backend, url);
        const Finished f = finish(*p);
        QVERIFY2(f.exitCode == 3, qPrintable(f.err));
        const QStringList env = read(file(QStringLiteral("env"))).split(QLatin1Char(' '));
        QCOMPARE(env.value(0), QStringLiteral("batch/nightly"));
        QCOMPARE(env.value(1), kind);
        if (kind == QLatin1String("leased"))
            QCOMPARE(env.value(2), QStringLiteral("job-7"));
        else
            QVERIFY(!env.value(2).isEmpty()); // Consul names a holder by its session
        QVERIFY2(env.value(3).toLongLong() > 0, qPrintable(env.join(QLatin1Char(' '))));
        QVERIFY2(f.err.contains(QStringLiteral("holds batch/nightly (token %1)").arg(env.value(3))),
                 qPrintable(f.err));
        const Finished show = run({"show", "batch/nightly", "--kind", kind}, backend, url);
        QVERIFY2(show.exitCode == 0, qPrintable(show.err));
        QVERIFY2(show.out.contains(QStringLiteral("(no holders)")), qPrintable(show.out));
    }

    void busyDoesNotRunCommand() {
        QCOMPARE(run({"acquire", "jobs", "--kind", "leased", "--limit", "1", "--holder", "other"}).exitCode,
                 0);
        const Finished f = run({"run", "jobs", "--", "sh", "-c", "echo ran > " + file(QStringLiteral("up"))});
        QCOMPARE(f.exitCode, 1);
        QVERIFY2(f.err.contains(QStringLiteral("jobs is busy: its only slot is held")), qPrintable(f.err));
        QVERIFY(!QFile::exists(file(QStringLiteral("up"))));
        QCOMPARE(holders("jobs"), 1);
    }

    // Force-released while COMMAND runs: the next renewal finds the slot gone and COMMAND is stopped
    // (it must not go on beside the next holder). Exit 1; nothing to release.
    void lostSlotStopsCommand() {
        QStringList args{"run",      "jobs", "--kind", "leased", "--limit", "1",
                         "--holder", "h1",   "--ttl",  "3s",     "--"};
        auto p = start(args + longCommand());
        QVERIFY(startedUp());
        QCOMPARE(run({"force-release", "jobs", "h1", "--kind", "leased", "--yes"}).exitCode, 0);
        const Finished f = finish(*p);
        QVERIFY2(f.exitCode == 1, qPrintable(f.err));
        QVERIFY2(f.err.contains(QStringLiteral("h1 lost its slot of jobs while COMMAND ran")),
                 qPrintable(f.err));
        QVERIFY2(f.err.contains(QStringLiteral("(it ended with 5)")), qPrintable(f.err));
        QCOMPARE(read(file(QStringLiteral("term"))), QStringLiteral("term"));
    }

    // The server goes away: no renewal gets through, and COMMAND is stopped before the lease it last
    // confirmed runs out (SIGTERM a grace period early), since another client may take the slot then.
    void unrenewableLeaseStopsCommand() {
        test::RedisServer own;
        QVERIFY2(own.start(), qPrintable(own.errorString()));
        QStringList args{"run", "jobs", "--kind", "leased", "--limit", "1", "--ttl", "3s", "--"};
        auto p = start(args + longCommand(), QStringLiteral("--redis"), own.url());
        QVERIFY(startedUp());
        own.kill();
        const Finished f = finish(*p);
        QVERIFY2(f.exitCode == 2, qPrintable(f.err));
        QVERIFY2(f.err.contains(QStringLiteral("could not be renewed")), qPrintable(f.err));
        QVERIFY2(f.err.contains(QStringLiteral("COMMAND was stopped before it ran out")), qPrintable(f.err));
        QCOMPARE(read(file(QStringLiteral("term"))), QStringLiteral("term"));
    }

    // SIGTERM to semscope-cli: COMMAND is stopped, then the slot released; the shells' 128 + 15.
    void sigtermStopsCommandAndReleases() {
        QStringList args{"run", "jobs", "--kind", "leased", "--limit", "1", "--"};
        auto p = start(args + longCommand());
        QVERIFY(startedUp());
        QCOMPARE(holders("jobs"), 1);
        ::kill(pid_t(p->processId()), SIGTERM);
        const Finished f = finish(*p);
        QVERIFY2(f.exitCode == 143, qPrintable(f.err));
        QVERIFY2(f.err.contains(QStringLiteral("interrupted by SIGTERM: COMMAND stopped (it ended with 5)")),
                 qPrintable(f.err));
        QCOMPARE(read(file(QStringLiteral("term"))), QStringLiteral("term"));
        QCOMPARE(holders("jobs"), 0);
    }

    // A grant that waited in line begins when a release hands it over, later than the request: its
    // lease is not counted from the request. (Counted from there, a wait longer than the lease had
    // run out before COMMAND started, and COMMAND was stopped at once.)
    void aGrantThatWaitedKeepsItsWholeLease() {
        QCOMPARE(run({"acquire", "jobs", "--kind", "leased", "--limit", "1", "--holder", "first"}).exitCode,
                 0);
        QStringList args{"run", "jobs", "--kind", "leased", "--wait", "30s", "--ttl", "900ms", "--"};
        QElapsedTimer waited;
        waited.start();
        auto p =
            start(args + QStringList{"sh", "-c", "echo up > " + file(QStringLiteral("up")) + "; sleep 1"});
        // In line, and for longer than the lease it asks for.
        QVERIFY(test::waitFor(
            [&] {
                return m_server.command({"LLEN", "{jobs}:queue"}).integer == 1 && waited.elapsed() > 1500;
            },
            kRunMs));
        QCOMPARE(run({"release", "jobs", "first", "--kind", "leased"}).exitCode, 0);
        const Finished f = finish(*p);
        QVERIFY2(f.exitCode == 0, qPrintable(f.err));
        QVERIFY(QFile::exists(file(QStringLiteral("up"))));
    }

    void commandThatCannotStartReleases() {
        const Finished f = run({"run", "jobs", "--kind", "leased", "--limit", "1", "--", "/nonexistent/job"});
        QCOMPARE(f.exitCode, 127);
        QVERIFY2(f.err.contains(QStringLiteral("cannot run /nonexistent/job")), qPrintable(f.err));
        QVERIFY2(f.err.contains(QStringLiteral("jobs was released")), qPrintable(f.err));
        QCOMPARE(holders("jobs"), 0);
    }

    void usageErrors_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("no command") << QStringList{"run", "jobs"} << "usage: semscope-cli run NAME";
        QTest::newRow("--json") << QStringList{"run", "jobs", "--json", "--", "true"} << "no --json document";
        QTest::newRow("bad grace") << QStringList{"run", "jobs", "--grace", "soon", "--", "true"}
                                   << "--grace: 'soon' is not a duration";
    }
    void usageErrors() {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Finished f = run(args);
        QCOMPARE(f.exitCode, 2);
        QVERIFY2(f.err.contains(message), qPrintable(f.err));
    }
};

SEMSCOPE_TEST_MAIN(TestCliRun)
#include "tst_cli_run.moc"
