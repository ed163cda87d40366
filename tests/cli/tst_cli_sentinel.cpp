// semscope-cli through redis+sentinel:// on a real Sentinel group: ping and info name the master
// they reached, acquire and show work, the sentinels' password stays apart and unprinted, and after
// a failover the same URL reaches the new master and shows the holder taken before it.
#include "CliRun.h"
#include "ScriptedRedisServer.h"
#include "SentinelGroup.h"
#include "TestMain.h"
#include "TestWait.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <atomic>
#include <memory>

using semscope::test::CliRun;
using semscope::test::runCliServing;
using semscope::test::ScriptedRedisServer;
using semscope::test::SentinelGroup;
using semscope::test::waitFor;

class TestCliSentinel : public QObject {
    Q_OBJECT

    QTemporaryDir m_home;

    CliRun cli(const QStringList &args, QMap<QString, QString> env = {}) {
        env.insert(QStringLiteral("HOME"), m_home.path());
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_home.path());
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_home.path());
        return runCliServing(args, env);
    }
    static QString describe(const CliRun &r) {
        return QStringLiteral("exit %1\nstdout: %2\nstderr: %3").arg(r.exitCode).arg(r.out, r.err);
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(!qEnvironmentVariable("SEMSCOPE_CLI").isEmpty(),
                 "SEMSCOPE_CLI is not set (run through ctest)");
        QVERIFY(m_home.isValid());
    }

    void pingInfoAcquireShowAcrossFailover() {
        SentinelGroup group;
        SentinelGroup::Options options;
        options.sentinelPassword = QStringLiteral("sentinel-secret");
        QVERIFY2(group.start(options), qPrintable(group.errorString()));
        const QString master = QStringLiteral("127.0.0.1:%1").arg(group.node(0).port());
        const QString url = group.url();
        const QMap<QString, QString> auth{
            {QStringLiteral("SEMSCOPE_SENTINEL_AUTH"), options.sentinelPassword}};

        CliRun r = cli({QStringLiteral("--redis"), url, QStringLiteral("ping")}, auth);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QVERIFY2(r.out.contains(QStringLiteral("(master %1)").arg(master)), qPrintable(r.out));

        // topology names the group and the master the sentinels named, not the URL's host, and lists
        // the replica with its lag.
        r = cli({QStringLiteral("--redis"), url, QStringLiteral("--json"), QStringLiteral("topology")}, auth);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        const QJsonObject topology = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(topology.value(QStringLiteral("mode")).toString(), QStringLiteral("sentinel"));
        QCOMPARE(topology.value(QStringLiteral("summary")).toString(),
                 QStringLiteral("Sentinel mymaster: master %1, 1 replica").arg(master));
        const QJsonArray nodes = topology.value(QStringLiteral("nodes")).toArray();
        QCOMPARE(nodes.size(), 2);
        QCOMPARE(nodes.at(0).toObject().value(QStringLiteral("address")).toString(), master);
        QVERIFY(nodes.at(1).toObject().contains(QStringLiteral("lag_bytes")));

        // The option works as well as the environment, and is never printed.
        r = cli({QStringLiteral("--redis"), url, QStringLiteral("--sentinel-password"),
                 options.sentinelPassword, QStringLiteral("--json"), QStringLiteral("info")});
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        const QJsonObject info = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(info.value(QStringLiteral("master")).toString(), master);
        QCOMPARE(info.value(QStringLiteral("role")).toString(), QStringLiteral("master"));
        QVERIFY(!r.out.contains(options.sentinelPassword) && !r.err.contains(options.sentinelPassword));

        r = cli({QStringLiteral("--redis"), url, QStringLiteral("acquire"), QStringLiteral("jobs"),
                 QStringLiteral("--kind"), QStringLiteral("leased"), QStringLiteral("--limit"),
                 QStringLiteral("2"), QStringLiteral("--holder"), QStringLiteral("before-failover"),
                 QStringLiteral("--ttl"), QStringLiteral("10m")},
                auth);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        // On the replica too before the master changes, so the failover keeps it.
        QVERIFY(waitFor([&] { return group.node(1).command({"EXISTS", "{jobs}:holders"}).integer == 1; }));

        QVERIFY2(group.failover(), qPrintable(group.errorString()));
        QVERIFY(group.waitForMaster(1));
        const QString newMaster = QStringLiteral("127.0.0.1:%1").arg(group.node(1).port());
        r = cli({QStringLiteral("--redis"), url, QStringLiteral("ping")}, auth);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QVERIFY2(r.out.contains(QStringLiteral("(master %1)").arg(newMaster)), qPrintable(r.out));
        r = cli({QStringLiteral("--redis"), url, QStringLiteral("show"), QStringLiteral("jobs"),
                 QStringLiteral("--kind"), QStringLiteral("leased")},
                auth);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QVERIFY2(r.out.contains(QStringLiteral("before-failover")), qPrintable(r.out));
    }

    void loadtestFollowsTheNewMaster() {
        // A forced failover in the middle of a load test through the sentinel URL: the clients
        // pause when the sentinels announce it, follow the new master, grants resume there, and the
        // run passes — no error, no over-admission, no fencing token repeated — with grants in its
        // last second and its keys removed from the new master afterwards.
        SentinelGroup group;
        QVERIFY2(group.start(), qPrintable(group.errorString()));
        QTemporaryDir csvDir;
        const QString csv = csvDir.filePath(QStringLiteral("timeline.csv"));
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), m_home.path());
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_home.path());
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_home.path());
        env.remove(QStringLiteral("REDISCLI_AUTH"));
        p.setProcessEnvironment(env);
        p.setStandardInputFile(QProcess::nullDevice());
        p.start(qEnvironmentVariable("SEMSCOPE_CLI"), {QStringLiteral("--redis"),
                                                       group.url(),
                                                       QStringLiteral("--json"),
                                                       QStringLiteral("loadtest"),
                                                       QStringLiteral("lt-failover"),
                                                       QStringLiteral("--kind"),
                                                       QStringLiteral("leased"),
                                                       QStringLiteral("--limit"),
                                                       QStringLiteral("2"),
                                                       QStringLiteral("--clients"),
                                                       QStringLiteral("4"),
                                                       QStringLiteral("--hold"),
                                                       QStringLiteral("fixed:1ms"),
                                                       QStringLiteral("--think"),
                                                       QStringLiteral("fixed:5ms"),
                                                       QStringLiteral("--ttl"),
                                                       QStringLiteral("5s"),
                                                       QStringLiteral("--duration"),
                                                       QStringLiteral("6s"),
                                                       QStringLiteral("--csv"),
                                                       csv});
        QVERIFY(p.waitForStarted());
        QVERIFY(waitFor(
            [&] {
                return group.node(0).command({"EXISTS", "{lt-failover}:meta"}).integer == 1;
            },
            20000));
        QVERIFY2(group.failover(), qPrintable(group.errorString()));
        QVERIFY(p.waitForFinished(60000));
        const QByteArray out = p.readAllStandardOutput();
        const QByteArray err = p.readAllStandardError();
        const QJsonObject report = QJsonDocument::fromJson(out).object();
        QByteArray brief =
            err +
            QJsonDocument(
                QJsonObject{
                    {QStringLiteral("errors"), report.value(QStringLiteral("errors"))},
                    {QStringLiteral("samples"), report.value(QStringLiteral("error_samples"))},
                    {QStringLiteral("violations"), report.value(QStringLiteral("token_violation_list"))},
                })
                .toJson(QJsonDocument::Compact)
                .left(3000);
        if (p.exitCode() != 0) {
            // What the servers said is what explains lost writes (e.g. "valid up to offset" of the
            // promoted replica); their logs are read while the event loop runs.
            QTest::qWait(500);
            brief += "\nmaster log:\n" + group.node(0).log().right(3000) + "\nreplica log:\n" +
                     group.node(1).log().right(3000) + "\nsentinel log:\n" +
                     group.sentinel(0).log().right(3000);
        }
        QVERIFY2(!report.isEmpty(), brief.constData());
        QVERIFY2(p.exitCode() == 0, brief.constData());
        QCOMPARE(report.value(QStringLiteral("errors")).toInteger(), 0);
        QCOMPARE(report.value(QStringLiteral("over_admissions")).toInteger(), 0);
        QCOMPARE(report.value(QStringLiteral("token_violations")).toInteger(), 0);
        QVERIFY2(!err.contains("the run's keys were left"), err.constData());

        // Grants in the run's last second: the timeline's cumulative grants still grow there.
        QFile timeline(csv);
        QVERIFY(timeline.open(QIODevice::ReadOnly));
        const QList<QByteArray> rows = timeline.readAll().trimmed().split('\n');
        const QList<QByteArray> header = rows.constFirst().split(',');
        const qsizetype elapsedColumn = header.indexOf("elapsed_ms");
        const qsizetype grantsColumn = header.indexOf("grants");
        QVERIFY(elapsedColumn >= 0 && grantsColumn >= 0 && rows.size() > 4);
        const QList<QByteArray> last = rows.constLast().split(',');
        const qint64 endMs = last.at(elapsedColumn).toLongLong();
        qint64 grantsSecondBefore = -1;
        for (qsizetype i = 1; i < rows.size(); ++i) {
            const QList<QByteArray> row = rows.at(i).split(',');
            if (row.at(elapsedColumn).toLongLong() <= endMs - 1000)
                grantsSecondBefore = row.at(grantsColumn).toLongLong();
        }
        QVERIFY2(grantsSecondBefore >= 0 && last.at(grantsColumn).toLongLong() > grantsSecondBefore,
                 QByteArray(rows.join(QByteArrayLiteral("\n")).right(4000) + "\n" + brief).constData());

        // Grants went on at the new master: its scripts ran there. (The sentinel disconnects the
        // promoted node's clients, the fixture's own among them: ask until it answers.)
        QVERIFY(waitFor([&] {
            const QByteArray stats = group.node(1).command({"INFO", "commandstats"}).str;
            return stats.contains("cmdstat_evalsha") || stats.contains("cmdstat_eval:");
        }));
        QVERIFY(group.waitForMaster(1));
        // The clean-up followed the failover too: nothing of the run is left on the new master.
        QVERIFY(waitFor([&] { return group.node(1).command({"DBSIZE"}).integer == 0; }));
    }

    void failoverLostLockVerdicts() {
        // The same verdicts every run: the sequence is fixed, not timed.
        for (int run = 0; run < 2; ++run) {
            const CliRun r =
                cli({QStringLiteral("--json"), QStringLiteral("loadtest"), QStringLiteral("demo"),
                     QStringLiteral("--scenario"), QStringLiteral("failover-lost-lock")});
            QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
            const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
            // The sides under the names every scenario uses (issue 29 item 5).
            const QJsonObject naive = o.value(QStringLiteral("unsafe")).toObject();
            const QJsonObject safe = o.value(QStringLiteral("atomic")).toObject();
            // Both sides, not the title and explanation before them, when a check fails.
            const QByteArray sides = QJsonDocument(QJsonObject{{QStringLiteral("unsafe"), naive},
                                                               {QStringLiteral("atomic"), safe}})
                                         .toJson(QJsonDocument::Compact);
            QVERIFY2(naive.value(QStringLiteral("run")).toString() == QStringLiteral("naive"),
                     sides.constData());
            QVERIFY2(safe.value(QStringLiteral("run")).toString() == QStringLiteral("replica-acknowledged"),
                     sides.constData());
            QVERIFY2(naive.value(QStringLiteral("over_admissions")).toInt() == 1, sides.constData());
            QVERIFY2(naive.value(QStringLiteral("token_violations")).toInt() == 1, sides.constData());
            QVERIFY2(naive.value(QStringLiteral("b_token")).toInteger() <=
                         naive.value(QStringLiteral("a_token")).toInteger(),
                     sides.constData());
            QVERIFY2(safe.value(QStringLiteral("over_admissions")).toInt() == 0, sides.constData());
            QVERIFY2(safe.value(QStringLiteral("token_violations")).toInt() == 0, sides.constData());
            QVERIFY2(safe.value(QStringLiteral("refused_grants")).toInt() == 2, sides.constData());
            QVERIFY2(safe.value(QStringLiteral("a_refusal"))
                         .toString()
                         .contains(QStringLiteral("not replicated to 1 replica")),
                     sides.constData());
            QVERIFY2(o.value(QStringLiteral("shows_the_lesson")).toBool(), sides.constData());
        }
        // Text: both sides and the explanation; and no --redis, since it brings its own servers.
        CliRun r = cli({QStringLiteral("loadtest"), QStringLiteral("demo"), QStringLiteral("--scenario"),
                        QStringLiteral("failover-lost-lock")});
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        // The sides' steps first: a failure report cut short still shows what happened.
        const QString sides = r.out.mid(r.out.indexOf(QStringLiteral("\nnaive (")));
        QVERIFY2(r.out.contains(QStringLiteral("1 over-admission, 1 token violation")), qPrintable(sides));
        QVERIFY2(r.out.contains(QStringLiteral("0 over-admissions, 0 token violations, 2 refused grants")),
                 qPrintable(sides));
        QVERIFY(r.out.contains(QStringLiteral("fencing tokens")));
        r = cli({QStringLiteral("--redis"), QStringLiteral("redis://127.0.0.1:1"), QStringLiteral("loadtest"),
                 QStringLiteral("demo"), QStringLiteral("--scenario"), QStringLiteral("failover-lost-lock")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("drop --redis")), qPrintable(r.err));
    }

    void staleSentinelIsAskedAgain_data() {
        QTest::addColumn<int>("staleAnswers"); // how many times the sentinel names the replica first
        QTest::addColumn<QString>("command");
        QTest::newRow("ping, caught up on the second ask") << 1 << QStringLiteral("ping");
        QTest::newRow("list, caught up on the third ask") << 2 << QStringLiteral("list");
        QTest::newRow("ping, never caught up") << 1000 << QStringLiteral("ping");
        QTest::newRow("list, never caught up") << 1000 << QStringLiteral("list");
    }

    void staleSentinelIsAskedAgain() {
        // A sentinel that has not caught up with a failover names the demoted node: the command
        // asks again and reaches the master; one that keeps naming it is reported, not waited on
        // forever. (A scripted sentinel in front of a real group: a real one cannot lie on cue.)
        QFETCH(int, staleAnswers);
        QFETCH(QString, command);
        SentinelGroup group;
        QVERIFY2(group.start(), qPrintable(group.errorString()));
        auto asked = std::make_shared<std::atomic<int>>(0);
        const std::unique_ptr<ScriptedRedisServer> stale = group.staleSentinel(staleAnswers, asked);
        const QString url = QStringLiteral("redis+sentinel://127.0.0.1:%1/mymaster").arg(stale->port());
        const CliRun r = cli({QStringLiteral("--redis"), url, command});
        if (staleAnswers < 3) {
            QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
            if (command == QLatin1String("ping"))
                QVERIFY2(r.out.contains(QStringLiteral("(master 127.0.0.1:%1)").arg(group.node(0).port())),
                         qPrintable(r.out));
            return;
        }
        QVERIFY2(r.exitCode == 2, qPrintable(describe(r)));
        QVERIFY2(r.err.contains(QStringLiteral("127.0.0.1:%1 is not a master").arg(group.node(1).port())),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("not the master 3 times in a row")), qPrintable(r.err));
    }

    void sentinelPasswordErrors() {
        SentinelGroup group;
        SentinelGroup::Options options;
        options.sentinelPassword = QStringLiteral("right-secret");
        QVERIFY2(group.start(options), qPrintable(group.errorString()));
        CliRun r = cli({QStringLiteral("--redis"), group.url(), QStringLiteral("--sentinel-password"),
                        QStringLiteral("wrong-secret"), QStringLiteral("ping")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("no sentinel named the master 'mymaster'")),
                 qPrintable(r.err));
        QVERIFY(!r.err.contains(QStringLiteral("wrong-secret")) &&
                !r.err.contains(QStringLiteral("right-secret")));
        // Only a Sentinel URL takes it.
        r = cli({QStringLiteral("--redis"), group.node(0).url(), QStringLiteral("--sentinel-password"),
                 QStringLiteral("x"), QStringLiteral("ping")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("--sentinel-password needs a redis+sentinel:// URL")),
                 qPrintable(r.err));
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestCliSentinel)
#include "tst_cli_sentinel.moc"
