// `semscope-cli watch` end to end against a real redis-server: the events other clients cause while
// it runs (acquire, release, expiry, force-release), as JSON lines, and how it ends.
#include "RedisCluster.h"
#include "RedisServer.h"
#include "TestMain.h"
#include "TestWait.h"
#include "consul/ConsulSemaphoreStore.h"
#include "consuldouble/ConsulDouble.h"
#include "redis/topology/HashSlot.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QtTest>
#include <csignal>
#include <functional>

using namespace semscope;

class TestCliWatch : public QObject {
    Q_OBJECT

private:
    test::RedisServer m_server;
    QString m_cli;
    QTemporaryDir m_home; // QSettings and the history of these runs

    QProcessEnvironment environment() const {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), m_home.path());
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_home.path());
        env.insert(QStringLiteral("SEMSCOPE_HISTORY"), m_home.filePath(QStringLiteral("history.sqlite")));
        return env;
    }

    void start(QProcess &p, QStringList args) {
        args.prepend(m_server.url());
        args.prepend(QStringLiteral("--redis"));
        p.setProcessEnvironment(environment());
        p.setStandardInputFile(QProcess::nullDevice());
        p.start(m_cli, args);
    }

    // A one-shot command by another client; its exit code.
    int other(const QStringList &args) {
        QProcess p;
        start(p, args);
        if (!p.waitForFinished(30000))
            return -1;
        if (p.exitCode() != 0)
            qWarning().noquote() << args << p.readAllStandardError();
        return p.exitCode();
    }

    static QList<QJsonObject> jsonLines(const QByteArray &out) {
        QList<QJsonObject> lines;
        for (const QByteArray &line : out.split('\n')) {
            if (line.trimmed().isEmpty())
                continue;
            QJsonParseError error;
            const QJsonDocument doc = QJsonDocument::fromJson(line, &error);
            if (error.error != QJsonParseError::NoError || !doc.isObject()) {
                qWarning() << "not a JSON line:" << line;
                return {};
            }
            lines << doc.object();
        }
        return lines;
    }

    static bool hasEvent(const QList<QJsonObject> &lines, const QString &event, const QString &holder) {
        return std::any_of(lines.begin(), lines.end(), [&](const QJsonObject &o) {
            return o.value("event").toString() == event && o.value("holder").toString() == holder;
        });
    }

    // Starts a watch and waits until it watches (its first discovery is done).
    bool startWatch(QProcess &watch, const QStringList &args) {
        start(watch, args);
        if (!watch.waitForStarted(30000))
            return false;
        QByteArray err;
        QElapsedTimer t;
        t.start();
        while (!err.contains("watching") && t.elapsed() < 30000) {
            watch.waitForReadyRead(200);
            err += watch.readAllStandardError();
        }
        return err.contains("watching");
    }

    // With semaphore `name` held by "a" at `url`, a `watch --interval 1h` sees "b" acquire it within
    // seconds: only a keyspace notification can bring it this side of an hour. `err` gets the
    // watch's standard error.
    void acquireIsReadAtOnce(const QString &url, const QString &name, QByteArray &err) {
        auto on = [&](QStringList args) {
            args.prepend(url);
            args.prepend(QStringLiteral("--redis"));
            return args;
        };
        QProcess seed;
        seed.setProcessEnvironment(environment());
        seed.start(m_cli,
                   on({"acquire", name, "--kind", "leased", "--limit", "5", "--holder", "a", "--ttl", "5m"}));
        QVERIFY(seed.waitForFinished(30000));
        QCOMPARE(seed.exitCode(), 0);

        QProcess watch;
        watch.setProcessEnvironment(environment());
        watch.start(m_cli, on({"watch", "--json", "--interval", "1h", "--for", "30s"}));
        auto saysOnStderr = [&](const char *text) {
            return test::waitFor(
                [&] {
                    watch.waitForReadyRead(50);
                    err += watch.readAllStandardError();
                    return err.contains(text);
                },
                30000);
        };
        QVERIFY2(saysOnStderr("keyspace notifications on"), err.constData());
        QVERIFY2(saysOnStderr("watching 1 semaphore on "), err.constData()); // not "1 semaphores"
        QProcess acquire;
        acquire.setProcessEnvironment(environment());
        acquire.start(m_cli, on({"acquire", name, "--kind", "leased", "--holder", "b", "--ttl", "5m"}));
        QVERIFY(acquire.waitForFinished(30000));
        QCOMPARE(acquire.exitCode(), 0);
        QByteArray out;
        QVERIFY2(test::waitFor(
                     [&] {
                         watch.waitForReadyRead(50);
                         out += watch.readAllStandardOutput();
                         return out.contains("\"event\":\"acquired\",\"holder\":\"b\"");
                     },
                     20000),
                 out.constData());
        ::kill(pid_t(watch.processId()), SIGINT);
        QVERIFY(watch.waitForFinished(30000));
        QCOMPARE(watch.exitCode(), 0);
    }

private Q_SLOTS:
    void initTestCase() {
        m_cli = qEnvironmentVariable("SEMSCOPE_CLI");
        QVERIFY2(QFileInfo::exists(m_cli), "SEMSCOPE_CLI must name the semscope-cli binary");
        QVERIFY(m_home.isValid());
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
    }

    // The "done when": what other clients do during `watch --json --for 8s` is reported.
    void reportsWhatOtherClientsDo() {
        QCOMPARE(other({"acquire", "jobs", "--kind", "leased", "--limit", "10", "--holder", "resident",
                        "--ttl", "5m"}),
                 0);
        QProcess watch;
        QVERIFY(startWatch(watch, {"watch", "--json", "--for", "8s", "--interval", "200ms"}));

        auto run = [&](QStringList args) {
            args.insert(1, QStringLiteral("jobs"));
            args << "--kind"
                 << "leased";
            return other(args);
        };
        // Each step waits until the watch has reported the previous one: a hold shorter than the
        // interval between two reads may be missed, which is not what this test is about.
        QByteArray out;
        auto reported = [&](const char *event, const char *holder) {
            const QByteArray needle = QByteArray("\"event\":\"") + event + "\",\"holder\":\"" + holder + '"';
            QElapsedTimer t;
            t.start();
            while (!out.contains(needle) && t.elapsed() < 5000) {
                watch.waitForReadyRead(100);
                out += watch.readAllStandardOutput();
            }
            return out.contains(needle);
        };
        QCOMPARE(run({"acquire", "--holder", "w-acq", "--ttl", "60s"}), 0);
        QVERIFY(reported("acquired", "w-acq"));
        QCOMPARE(run({"release", "w-acq"}), 0);
        QVERIFY(reported("released", "w-acq"));
        QCOMPARE(run({"acquire", "--holder", "w-exp", "--ttl", "1s"}), 0);
        QVERIFY(reported("acquired", "w-exp"));
        QVERIFY(reported("expired", "w-exp"));
        QCOMPARE(run({"acquire", "--holder", "w-force", "--ttl", "60s"}), 0);
        QVERIFY(reported("acquired", "w-force"));
        QCOMPARE(run({"force-release", "w-force", "--yes"}), 0);
        QVERIFY(reported("force-released", "w-force"));

        QVERIFY(watch.waitForFinished(30000));
        QCOMPARE(watch.exitStatus(), QProcess::NormalExit);
        QCOMPARE(watch.exitCode(), 0); // --for ends it as planned
        const QList<QJsonObject> lines = jsonLines(out + watch.readAllStandardOutput());
        QVERIFY(!lines.isEmpty());
        for (const QJsonObject &o : lines) {
            QCOMPARE(o.keys(), (QStringList{"at_ms", "details", "event", "holder", "kind", "name", "slot",
                                            "token", "ttl_ms"}));
            QCOMPARE(o.value("kind").toString(), QStringLiteral("leased"));
            QCOMPARE(o.value("name").toString(), QStringLiteral("jobs"));
        }
        QVERIFY(hasEvent(lines, "acquired", "w-acq"));
        QVERIFY(hasEvent(lines, "released", "w-acq"));
        QVERIFY(hasEvent(lines, "acquired", "w-exp"));
        QVERIFY(hasEvent(lines, "expired", "w-exp"));
        QVERIFY(hasEvent(lines, "acquired", "w-force"));
        QVERIFY(hasEvent(lines, "force-released", "w-force"));
        QVERIFY(!hasEvent(lines, "released", "w-force"));
        for (const QJsonObject &o : lines)
            if (o.value("event").toString() == QLatin1String("force-released"))
                QVERIFY2(o.value("details").toString().contains("by semscope-cli ("),
                         qPrintable(o.value("details").toString()));
        // The holder that was there before the watch started is no news, and nothing happened to it.
        for (const QJsonObject &o : lines)
            QVERIFY(o.value("holder").toString() != QLatin1String("resident"));
        // A token for every acquisition (leased counts them).
        for (const QJsonObject &o : lines)
            if (o.value("event").toString() == QLatin1String("acquired"))
                QVERIFY(o.value("token").isDouble());
    }

    // With notifications on (keyevents too), a lock that appears after the start is looked for at
    // once (issue 29 item 3): with a read interval (and so a discovery gap) of an hour, only the
    // SET's event can bring it within seconds.
    void aNewKeysEventTriggersDiscovery() {
        test::RedisServer notifying;
        test::RedisServer::Options options;
        options.extraArgs = QStringList{"--notify-keyspace-events", "KEA"};
        QVERIFY2(notifying.start(options), qPrintable(notifying.errorString()));
        QProcess watch;
        watch.setProcessEnvironment(environment());
        watch.start(m_cli,
                    {"--redis", notifying.url(), "watch", "--json", "--interval", "1h", "--for", "60s"});
        QByteArray err;
        QVERIFY2(test::waitFor(
                     [&] {
                         watch.waitForReadyRead(50);
                         err += watch.readAllStandardError();
                         return err.contains("watching 0 semaphores") &&
                                err.contains("keyspace notifications on");
                     },
                     30000),
                 err.constData());
        // Subscribed (the handshake is asynchronous): an event published before would be lost.
        QVERIFY(test::waitFor([&] {
            const redis::RedisReply r = notifying.command({"PUBSUB", "NUMSUB", "__keyevent@0__:set"});
            return r.elements.size() == 2 && r.elements.at(1).integer == 1;
        }));
        const redis::RedisReply set = notifying.command({"SET", "locks:new", "x", "NX", "PX", "60000"});
        QCOMPARE(set.str, QByteArray("OK"));
        QByteArray out;
        QVERIFY2(test::waitFor(
                     [&] {
                         watch.waitForReadyRead(50);
                         out += watch.readAllStandardOutput();
                         return out.contains("\"appeared\"") && out.contains("locks:new");
                     },
                     20000),
                 out.constData());
        // And stderr said it would be.
        QVERIFY2(err.contains("a new semaphore looked for at once"), err.constData());
        watch.kill();
        watch.waitForFinished(10000);
    }

    // Where the server already publishes keyspace notifications, a change is read at once, long
    // before the next interval read; the server's configuration is never changed.
    void keyspaceNotificationsTriggerAnEarlyRead() {
        QByteArray err;
        {
            QProcess plain;
            start(plain, {"watch", "--for", "1s"});
            QVERIFY(plain.waitForFinished(30000));
            err = plain.readAllStandardError();
            QVERIFY2(err.contains("publishes no keyspace notifications"), err.constData());
            const redis::RedisReply setting = m_server.command({"CONFIG", "GET", "notify-keyspace-events"});
            QCOMPARE(setting.elements.value(1).str, QByteArray()); // left as it was
        }
        test::RedisServer notifying;
        test::RedisServer::Options options;
        options.extraArgs = QStringList{"--notify-keyspace-events", "Kgz$hx"};
        QVERIFY2(notifying.start(options), qPrintable(notifying.errorString()));
        acquireIsReadAtOnce(notifying.url(), QStringLiteral("fast"), err);
    }

    // A Cluster publishes a key's events on the master serving its slot only: each is followed there,
    // so a semaphore on another master than the one named in --redis is read at once too.
    void keyspaceNotificationsOnEveryClusterMaster() {
        test::RedisCluster cluster;
        test::RedisCluster::Options options;
        options.replicasPerMaster = 0;
        QVERIFY2(cluster.start(options), qPrintable(cluster.errorString()));
        auto publish = [&](int m) { // the operators' configuration, not semscope's
            return cluster.node(m).command({"CONFIG", "SET", "notify-keyspace-events", "Kgz$hx"}).str == "OK";
        };
        QVERIFY(publish(1) && publish(2));
        {
            // One master that does not publish is named: its semaphores would be read late.
            QProcess partly;
            partly.setProcessEnvironment(environment());
            partly.start(m_cli, {"--redis", cluster.url(), "watch", "--for", "1s"});
            QVERIFY(partly.waitForFinished(30000));
            const QByteArray err = partly.readAllStandardError();
            const QByteArray expected = "publishes no keyspace notifications: not on 127.0.0.1:" +
                                        QByteArray::number(cluster.node(0).port()) + " (none)";
            QVERIFY2(err.contains(expected), err.constData());
        }
        QVERIFY(publish(0));
        QString name;
        for (int i = 0; name.isEmpty(); ++i) {
            const QString candidate = QStringLiteral("far-%1").arg(i);
            const test::RedisServer *master =
                cluster.masterOfSlot(redis::topology::hashSlot(candidate.toUtf8()));
            QVERIFY(master);
            if (master->port() != cluster.node(0).port())
                name = candidate;
        }
        QByteArray err;
        acquireIsReadAtOnce(cluster.url(), name, err);
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(err.contains("keyspace notifications on (g$hzxK on 3 masters)"), err.constData());
    }

    // A Cluster of one master is found and read, and says so in the singular: "on 1 master", not
    // "on 1 masters".
    void keyspaceNotificationsOnAOneMasterCluster() {
        test::RedisCluster cluster;
        test::RedisCluster::Options options;
        options.masters = 1;
        options.replicasPerMaster = 0;
        QVERIFY2(cluster.start(options), qPrintable(cluster.errorString()));
        QCOMPARE(cluster.node(0).command({"CONFIG", "SET", "notify-keyspace-events", "Kgz$hx"}).str,
                 QByteArray("OK"));
        // The lone node names itself with an empty address (it never met another one): it is reached
        // where it was asked, not at ":port" ("host not found").
        QProcess list;
        list.setProcessEnvironment(environment());
        list.start(m_cli, {"--redis", cluster.url(), "list"});
        QVERIFY(list.waitForFinished(30000));
        QVERIFY2(list.exitCode() == 0, list.readAllStandardError().constData());
        QProcess watch;
        watch.setProcessEnvironment(environment());
        watch.start(m_cli, {"--redis", cluster.url(), "watch", "--for", "1s"});
        QVERIFY(watch.waitForFinished(30000));
        const QByteArray err = watch.readAllStandardError();
        QVERIFY2(err.contains("keyspace notifications on (g$hzxK on 1 master)"), err.constData());
    }

    // The "done when" for new semaphores: on a plain Redis (no keyspace notifications) a
    // lock taken ~2 s after the watch started and deleted 1.5 s later is reported, because a small
    // keyspace is scanned for new semaphores every interval (the scan costs far below the budget);
    // stderr says how often and why.
    void lockThatComesAndGoesIsReported() {
        m_server.command({"DEL", "locks:nightly"});
        QProcess watch;
        start(watch, {"watch", "--json", "--interval", "500ms", "--for", "30s"});
        QVERIFY(watch.waitForStarted(30000));
        QByteArray err;
        auto saysOnStderr = [&](const char *text) {
            return test::waitFor(
                [&] {
                    watch.waitForReadyRead(50);
                    err += watch.readAllStandardError();
                    return err.contains(text);
                },
                30000);
        };
        QVERIFY2(saysOnStderr("watching"), err.constData());
        QVERIFY2(saysOnStderr("looking for new semaphores every 500 ms"), err.constData());
        QVERIFY2(err.contains("budget 5 %"), err.constData());
        // The scenario itself, not synchronisation: the lock is taken ~2 s after the start and held
        // for 1.5 s, far less than the 10 s between scans this watch used to wait.
        const redis::RedisReply set =
            m_server.command({"SET", "locks:nightly", "worker-9", "NX", "PX", "600000"});
        QCOMPARE(set.str, QByteArray("OK"));
        QTest::qWait(1500);
        m_server.command({"DEL", "locks:nightly"});
        QByteArray out;
        const bool seen = test::waitFor(
            [&] {
                watch.waitForReadyRead(50);
                out += watch.readAllStandardOutput();
                const auto lines = jsonLines(out);
                const bool appeared = std::any_of(lines.begin(), lines.end(), [](const QJsonObject &o) {
                    return o.value("event").toString() == QLatin1String("appeared") &&
                           o.value("name").toString() == QLatin1String("locks:nightly");
                });
                return appeared && hasEvent(lines, "released", "worker-9");
            },
            15000);
        ::kill(pid_t(watch.processId()), SIGINT);
        QVERIFY(watch.waitForFinished(30000));
        QVERIFY2(seen, QByteArray(out + "\n" + err).constData());
        QCOMPARE(watch.exitCode(), 0);
        for (const QJsonObject &o : jsonLines(out))
            if (o.value("holder").toString() == QLatin1String("worker-9"))
                QCOMPARE(o.value("name").toString(), QStringLiteral("locks:nightly"));
        m_server.command({"DEL", "locks:nightly"});
    }

    void ctrlCEndsItWithExitZero() {
        QProcess watch;
        QVERIFY(startWatch(watch, {"watch", "--interval", "100ms"}));
        ::kill(pid_t(watch.processId()), SIGINT);
        QVERIFY(watch.waitForFinished(30000));
        QCOMPARE(watch.exitStatus(), QProcess::NormalExit);
        QCOMPARE(watch.exitCode(), 0);
    }

    // A watch runs through a Redis restart: it says once that a semaphore cannot be read (not once
    // a round), reconnects, says it reads again and reports what happens after. It used to print
    // "not connected" twice a round until stopped by hand.
    void survivesARedisRestart() {
        test::RedisServer server;
        QVERIFY2(server.start(), qPrintable(server.errorString()));
        auto run = [&](const QStringList &args) {
            QProcess p;
            p.setProcessEnvironment(environment());
            p.start(m_cli, QStringList{"--redis", server.url()} + args);
            return p.waitForFinished(30000) ? p.exitCode() : -1;
        };
        const QStringList acquireArgs{"acquire", "restarted", "--kind", "leased",
                                      "--limit", "2",         "--ttl",  "5m"};
        QCOMPARE(run(acquireArgs + QStringList{"--holder", "a"}), 0);
        QProcess watch;
        watch.setProcessEnvironment(environment());
        watch.start(m_cli, {"--redis", server.url(), "watch", "--json", "--interval", "200ms"});
        QByteArray out, err;
        auto until = [&](const std::function<bool()> &done) {
            return test::waitFor(
                [&] {
                    watch.waitForReadyRead(50);
                    out += watch.readAllStandardOutput();
                    err += watch.readAllStandardError();
                    return done();
                },
                30000);
        };
        QVERIFY2(until([&] { return err.contains("watching 1 semaphore on"); }), err.constData());
        server.kill();
        QVERIFY2(until([&] { return err.contains("semscope-cli: leased:restarted: "); }), err.constData());
        QVERIFY(server.restart());
        QCOMPARE(run(acquireArgs + QStringList{"--holder", "b"}), 0);
        QVERIFY2(until([&] { return out.contains("\"event\":\"acquired\",\"holder\":\"b\""); }),
                 QByteArray(out + err).constData());
        QVERIFY2(until([&] { return err.contains("semscope-cli: leased:restarted: reading it again"); }),
                 err.constData());
        QCOMPARE(err.count("semscope-cli: leased:restarted: "), 2); // the failure once, then the recovery
        ::kill(pid_t(watch.processId()), SIGINT);
        QVERIFY(watch.waitForFinished(30000));
        QCOMPARE(watch.exitCode(), 0);
    }

    // A Consul agent that cannot be reached at the start ends the watch with exit 2, as a Redis
    // server that refuses the connection does; it used to run to --for and exit 0.
    void unreachableConsulAtTheStartIsExit2() {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        const quint16 closed = probe.serverPort();
        probe.close();
        QProcess watch;
        watch.setProcessEnvironment(environment());
        watch.start(m_cli,
                    {"--consul", QStringLiteral("http://127.0.0.1:%1").arg(closed), "watch", "--for", "10s"});
        QVERIFY(watch.waitForFinished(30000));
        const QByteArray err = watch.readAllStandardError();
        QVERIFY2(watch.exitCode() == 2, err.constData());
        QVERIFY2(err.contains("discovery failed"), err.constData());
    }

    void matchAndKindNarrowIt() {
        QCOMPARE(other({"acquire", "other-sem", "--kind", "leased", "--limit", "5", "--holder", "x", "--ttl",
                        "5m"}),
                 0);
        QProcess watch;
        QVERIFY(startWatch(watch,
                           {"watch", "--json", "--for", "3s", "--interval", "100ms", "--match", "other*"}));
        QCOMPARE(other({"acquire", "jobs", "--kind", "leased", "--holder", "not-me", "--ttl", "60s"}), 0);
        QCOMPARE(other({"acquire", "other-sem", "--kind", "leased", "--holder", "me", "--ttl", "60s"}), 0);
        QVERIFY(watch.waitForFinished(30000));
        const auto lines = jsonLines(watch.readAllStandardOutput());
        QVERIFY(hasEvent(lines, "acquired", "me"));
        QVERIFY(!hasEvent(lines, "acquired", "not-me"));

        QProcess byKind;
        QVERIFY(
            startWatch(byKind, {"watch", "--json", "--for", "2s", "--interval", "100ms", "--kind", "zset"}));
        QCOMPARE(other({"acquire", "other-sem", "--kind", "leased", "--holder", "me2", "--ttl", "60s"}), 0);
        QVERIFY(byKind.waitForFinished(30000));
        QVERIFY(jsonLines(byKind.readAllStandardOutput()).isEmpty());
    }

    // Consul: followed with blocking queries (no polling), the same events. The in-process API
    // double answers while the test's event loop runs, so nothing here blocks it.
    void consulThroughBlockingQueries() {
        consul::ConsulDouble fake;
        QVERIFY(fake.listen());
        consul::ConsulConfig config;
        config.address = fake.url();
        consul::ConsulSemaphoreStore store(config);
        core::SemaphoreRef ref;
        ref.kind = core::Kind::Consul;
        ref.name = QStringLiteral("semaphore/watched");
        ref.profile.limit = 3;
        auto acquire = [&](const QString &holder, core::Grant *grant) {
            core::AcquireRequest request;
            request.holder = holder;
            request.ttlMs = 60000;
            core::AcquireResult result;
            const bool answered = test::waitForCallback([&](std::function<void()> done) {
                store.acquire(ref, request, core::Cancellation(), [&, done](core::AcquireResult r) {
                    result = r;
                    done();
                });
            });
            *grant = result.grant;
            return answered && result.status == core::AcquireResult::Status::Granted;
        };
        core::Grant resident, a, b;
        QVERIFY(acquire("resident", &resident));

        QProcess watch;
        QProcessEnvironment env = environment();
        env.remove(QStringLiteral("CONSUL_HTTP_ADDR"));
        watch.setProcessEnvironment(env);
        watch.start(m_cli, {"--consul", fake.url().toString(), "watch", "--json", "--interval", "10s"});
        QByteArray out, err;
        auto reported = [&](const char *event, const QString &holder) {
            const QByteArray needle =
                QByteArray("\"event\":\"") + event + "\",\"holder\":\"" + holder.toUtf8() + '"';
            return test::waitFor(
                [&] {
                    out += watch.readAllStandardOutput();
                    err += watch.readAllStandardError();
                    return out.contains(needle);
                },
                15000);
        };
        QVERIFY(test::waitFor(
            [&] {
                err += watch.readAllStandardError();
                return err.contains("watching 1 semaphore on ");
            },
            30000));
        fake.clearRequestLog();

        // --interval 10s: whatever arrives sooner came through a blocking query.
        QVERIFY(acquire("a", &a));
        QVERIFY2(reported("acquired", a.holder), out.constData());
        QVERIFY(test::waitForCallback(
            [&](std::function<void()> done) { store.release(a, [done](core::ReleaseResult) { done(); }); }));
        QVERIFY2(reported("released", a.holder), out.constData());
        QVERIFY(acquire("b", &b));
        QVERIFY(reported("acquired", b.holder));
        // Its session lapses (what a TTL running out does in Consul): the holder is stale.
        fake.invalidateSession(b.holder);
        QVERIFY2(reported("stale", b.holder), out.constData());

        // Force-released by another semscope (the CLI, through the shared history).
        QProcess force;
        force.setProcessEnvironment(env);
        force.setStandardInputFile(QProcess::nullDevice());
        force.start(m_cli, {"--consul", fake.url().toString(), "force-release", ref.name, resident.holder,
                            "--kind", "consul", "--yes"});
        QSignalSpy forced(&force, &QProcess::finished);
        QVERIFY(forced.wait(30000));
        QCOMPARE(force.exitCode(), 0);
        QVERIFY2(reported("force-released", resident.holder), out.constData());

        bool blocking = false;
        for (const QString &line : fake.requestLog())
            blocking = blocking || (line.contains(QStringLiteral("semaphore/watched")) &&
                                    line.contains(QStringLiteral("index=")));
        QVERIFY(blocking);
        ::kill(pid_t(watch.processId()), SIGINT);
        QSignalSpy finished(&watch, &QProcess::finished);
        QVERIFY(watch.state() == QProcess::NotRunning || finished.wait(30000));
        QCOMPARE(watch.exitCode(), 0);
    }

    // A `slots` holder records no time; its age comes from the shared history, so a one-shot `show`
    // in a new process flags it stuck once it has been seen longer than the threshold.
    void showFlagsAStuckSlotsHolderAcrossRuns() {
        // A foreign `slots` semaphore (written the seed's way, no lease): slot 1 held, slot 2 free.
        QCOMPARE(m_server.command({"RPUSH", "pool|list", "2"}).integer, 1);
        QCOMPARE(m_server.command({"HSET", "pool|map", "crashed", "1"}).integer, 1);
        auto show = [&] {
            QProcess p;
            start(p, {"--json", "show", "pool", "--kind", "slots", "--timeout", "1s"});
            p.waitForFinished(30000);
            const QJsonObject o = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
            return o.value("holders").toArray().at(0).toObject();
        };
        const QJsonObject first = show();
        QCOMPARE(first.value("id").toString(), QStringLiteral("crashed"));
        QCOMPARE(first.value("state").toString(), QStringLiteral("live"));
        const qint64 firstSeen = first.value("first_seen_ms").toInteger();
        QVERIFY(firstSeen > 0);
        // The condition is the clock itself: wait until the first sighting is older than the 1 s
        // threshold (first_seen_ms is this machine's clock, as is the next run's "now").
        QVERIFY(semscope::test::waitFor(
            [firstSeen] { return QDateTime::currentMSecsSinceEpoch() > firstSeen + 1000; }, 10000));
        const QJsonObject later = show();
        QCOMPARE(later.value("first_seen_ms").toInteger(), firstSeen); // the first process's sighting
        QCOMPARE(later.value("state").toString(), QStringLiteral("stale"));
    }

    void badOptionsAreUsageErrors_data() {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("interval not a duration") << QStringList{"watch", "--interval", "soon"};
        QTest::newRow("interval too short") << QStringList{"watch", "--interval", "1ms"};
        QTest::newRow("for not a duration") << QStringList{"watch", "--for", "-3s"};
        QTest::newRow("unknown kind") << QStringList{"watch", "--kind", "mutex"};
        QTest::newRow("stray argument") << QStringList{"watch", "jobs"};
    }
    void badOptionsAreUsageErrors() {
        QFETCH(QStringList, args);
        QProcess p;
        start(p, args);
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(!p.readAllStandardError().isEmpty());
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestCliWatch)
#include "tst_cli_watch.moc"
