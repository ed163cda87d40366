// Is a holder's client still connected? CLIENT LIST parsing (real lines of several Redis
// versions), what in a holder's record identifies its client, and, on a real redis-server, a holder
// whose client is connected, then closed, then a semscope-cli acquire that exited.
#include "CliRun.h"
#include "RedisCluster.h"
#include "RedisServer.h"
#include "TestMain.h"
#include "TestWait.h"
#include "redis/ClientLiveness.h"
#include "redis/ClientLivenessPoll.h"
#include "redis/RedisConnection.h"
#include "redis/RedisSemaphoreStore.h"

#include <QCoreApplication>
#include <QProcess>
#include <QSysInfo>
#include <QtTest>
#include <memory>

using namespace semscope;
using namespace semscope::redis;
using semscope::test::awaitCall;
using State = core::ClientLiveness::State;

namespace {
core::SemaphoreRef leased(const QString &name) {
    core::SemaphoreRef r;
    r.kind = core::Kind::Leased;
    r.name = name;
    r.profile.limit = 3;
    return r;
}

core::Holder holderWithId(const QString &id, const QString &client = {}) {
    core::Holder h;
    h.id = id;
    h.rawId = id.toUtf8();
    if (!client.isEmpty())
        h.details.insert(QStringLiteral("client"), client);
    return h;
}
} // namespace

Q_DECLARE_METATYPE(semscope::core::Holder)

class TestClientLiveness : public QObject {
    Q_OBJECT

private:
    test::RedisServer m_server;

    ClientListRead read(topology::RedisTopology &topology) {
        return awaitCall<ClientListRead>([&](auto done) { readClientList(topology, done); })
            .value_or(ClientListRead{});
    }

    // The CLIENT LIST commands the server ran since the last call, oldest first, each as its
    // arguments ("CLIENT LIST", "CLIENT LIST ID 12"): the slow log keeps every command while
    // slowlog-log-slower-than is 0.
    QStringList clientListsRun() {
        const redis::RedisReply log = m_server.command({"SLOWLOG", "GET", "1000"});
        m_server.command({"SLOWLOG", "RESET"});
        QStringList run;
        for (const redis::RedisReply &entry : log.elements) {
            if (entry.elements.size() < 4)
                continue;
            QStringList args;
            for (const redis::RedisReply &a : entry.elements.at(3).elements)
                args << QString::fromUtf8(a.str);
            if (args.size() >= 2 && args.at(0).compare(QLatin1String("CLIENT"), Qt::CaseInsensitive) == 0 &&
                args.at(1).compare(QLatin1String("LIST"), Qt::CaseInsensitive) == 0)
                run.prepend(args.join(QLatin1Char(' ')).toUpper());
        }
        return run;
    }

    QHash<QString, core::HolderClientLiveness> poll(ClientLivenessPoll &poll, RedisSemaphoreStore &store,
                                                    const core::Holder &holder, const QSet<QString> &seen) {
        return awaitCall<QHash<QString, core::HolderClientLiveness>>(
                   [&](auto done) { poll.read(store.topology(), {holder}, seen, done); })
            .value_or(QHash<QString, core::HolderClientLiveness>{});
    }

    core::Holder onlyHolder(RedisSemaphoreStore &store, const QString &name) {
        const auto snap = awaitCall<core::Snapshot>([&](auto done) { store.snapshot(leased(name), done); });
        if (!snap || snap->holders.size() != 1)
            return {};
        return snap->holders.first();
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY2(m_server.start(), qPrintable(m_server.errorString())); }
    void init() { m_server.command({"FLUSHALL"}); }

    void parsesClientList_data() {
        QTest::addColumn<QByteArray>("reply");
        QTest::addColumn<int>("count");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("addr");
        QTest::addColumn<qint64>("idle");
        QTest::addColumn<QString>("user");
        // Redis 7.0.15, TCP, a semscope connection
        QTest::newRow("redis 7.0 tcp")
            << QByteArray(
                   "id=3 addr=127.0.0.1:52350 laddr=127.0.0.1:6379 fd=8 name=semscope-cli:30410@vm age=12 "
                   "idle=4 flags=N db=0 sub=0 psub=0 ssub=0 multi=-1 qbuf=26 qbuf-free=20448 argv-mem=10 "
                   "multi-mem=0 rbs=1024 rbp=0 obl=0 oll=0 omem=0 tot-mem=22426 events=r cmd=client|list "
                   "user=default redir=-1 resp=2\n")
            << 1 << "semscope-cli:30410@vm"
            << "127.0.0.1:52350" << qint64(4) << "default";
        // Redis 7.0.15 over its Unix socket, no name set
        QTest::newRow("redis 7.0 unix socket, unnamed")
            << QByteArray(
                   "id=4 addr=/tmp/jl/r.sock:0 laddr=/tmp/jl/r.sock:0 fd=7 name= age=0 idle=0 flags=U db=0 "
                   "sub=0 psub=0 ssub=0 multi=-1 qbuf=26 qbuf-free=20448 argv-mem=10 multi-mem=0 rbs=16384 "
                   "rbp=16384 obl=0 oll=0 omem=0 tot-mem=37658 events=r cmd=client|list user=default "
                   "redir=-1 resp=2\n")
            << 1 << ""
            << "/tmp/jl/r.sock:0" << qint64(0) << "default";
        // Redis 5: no user=, no laddr=; two clients
        QTest::newRow("redis 5, two clients")
            << QByteArray(
                   "id=2 addr=127.0.0.1:41736 fd=8 name=worker-7 age=3 idle=1 flags=N db=0 sub=0 psub=0 "
                   "multi=-1 qbuf=26 qbuf-free=32742 obl=0 oll=0 omem=0 events=r cmd=client\n"
                   "id=5 addr=10.0.0.5:51234 fd=9 name= age=99 idle=99 flags=N db=0 sub=1 psub=0 "
                   "multi=-1 qbuf=0 qbuf-free=0 obl=0 oll=0 omem=0 events=r cmd=subscribe\n")
            << 2 << "worker-7"
            << "127.0.0.1:41736" << qint64(1) << "";
        // Redis 7.2 adds lib-name/lib-ver (empty values) and ends lines with \n; a \r\n is tolerated
        QTest::newRow("redis 7.2, crlf")
            << QByteArray(
                   "id=11 addr=[::1]:40012 laddr=[::1]:6379 fd=10 name=semscope:412@build-01 age=7 idle=2 "
                   "flags=N db=0 sub=0 psub=0 ssub=0 multi=-1 watch=0 qbuf=0 qbuf-free=0 argv-mem=0 "
                   "multi-mem=0 rbs=1024 rbp=5 obl=0 oll=0 omem=0 tot-mem=1928 events=r cmd=evalsha "
                   "user=ops redir=-1 resp=3 lib-name=redis-py lib-ver=5.0.1\r\n")
            << 1 << "semscope:412@build-01"
            << "[::1]:40012" << qint64(2) << "ops";
        QTest::newRow("empty") << QByteArray() << 0 << ""
                               << "" << qint64(-1) << "";
        QTest::newRow("garbage") << QByteArray("not a client list\nname=x\n") << 0 << ""
                                 << "" << qint64(-1) << "";
    }
    void parsesClientList() {
        QFETCH(QByteArray, reply);
        QFETCH(int, count);
        const QList<ClientEntry> clients = parseClientList(reply);
        QCOMPARE(clients.size(), count);
        if (count == 0)
            return;
        QFETCH(QString, name);
        QFETCH(QString, addr);
        QFETCH(qint64, idle);
        QFETCH(QString, user);
        QCOMPARE(clients.first().name, name);
        QCOMPARE(clients.first().addr, addr);
        QCOMPARE(clients.first().idleS, idle);
        QCOMPARE(clients.first().user, user);
    }

    void identifiesTheClient_data() {
        QTest::addColumn<core::Holder>("holder");
        QTest::addColumn<bool>("identified");
        QTest::addColumn<QString>("label");
        QTest::addColumn<bool>("certain");
        QTest::newRow("leased owner record") << holderWithId(QStringLiteral("vm:30410:1f2e3d4c"),
                                                             QStringLiteral("semscope-cli pid 30410 on vm"))
                                             << true << "pid 30410 on vm" << true;
        QTest::newRow("owner record, host with a space")
            << holderWithId(QStringLiteral("job-1"), QStringLiteral("semscope pid 7 on my host")) << true
            << "pid 7 on my-host" << true;
        QTest::newRow("owner record in client-name form")
            << holderWithId(QStringLiteral("job-1"), QStringLiteral("semscope:7@vm")) << true << "pid 7 on vm"
            << true;
        QTest::newRow("id semscope makes, no record")
            << holderWithId(QStringLiteral("vm:30410:1f2e3d4c")) << true << "pid 30410 on vm" << false;
        QTest::newRow("id that can be a client name")
            << holderWithId(QStringLiteral("worker-7")) << true << "a client named worker-7" << false;
        QTest::newRow("id with a space") << holderWithId(QStringLiteral("worker 7")) << false << "" << false;
        core::Holder binary = holderWithId(QStringLiteral("ff00"));
        binary.rawId = QByteArray::fromHex("ff00");
        QTest::newRow("binary id") << binary << false << "" << false;
    }
    void identifiesTheClient() {
        QFETCH(core::Holder, holder);
        QFETCH(bool, identified);
        const auto id = clientIdentityOf(holder);
        QCOMPARE(id.has_value(), identified);
        if (!identified)
            return;
        QFETCH(QString, label);
        QFETCH(bool, certain);
        QCOMPARE(id->label(), label);
        QCOMPARE(id->certain, certain);
    }

    // The handshake names the connection after its process, as the owner record does.
    void handshakeNamesTheProcess() {
        ConnectionSettings s = m_server.settings();
        s.clientName = QStringLiteral("semscope-test");
        RedisConnection c(s);
        c.open();
        const auto info = awaitCall<RedisReply>([&](auto done) { c.command({"CLIENT", "GETNAME"}, done); });
        QVERIFY(info);
        const QString expected =
            QStringLiteral("semscope-test:%1@%2")
                .arg(QCoreApplication::applicationPid())
                .arg(QString::fromUtf8(sanitizeClientName(QSysInfo::machineHostName().toUtf8())));
        QCOMPARE(QString::fromUtf8(info->str), expected);
        QCOMPARE(processClientName(QStringLiteral("semscope-test")), expected);
    }

    // A holder acquired by a store of this process reads connected, with the connection it was
    // found by.
    void holderOfAnOpenStoreIsConnected() {
        RedisSemaphoreStore observer(m_server.settings());
        RedisSemaphoreStore holderStore(m_server.settings());
        core::AcquireRequest req;
        req.holder = QStringLiteral("worker-1");
        const auto granted = awaitCall<core::AcquireResult>(
            [&](auto done) { holderStore.acquire(leased(QStringLiteral("jobs")), req, {}, done); });
        QVERIFY(granted);
        QCOMPARE(granted->status, core::AcquireResult::Status::Granted);
        const core::Holder holder = onlyHolder(observer, QStringLiteral("jobs"));
        const auto id = clientIdentityOf(holder);
        QVERIFY2(id, qPrintable(holder.details.value(QStringLiteral("client")).toString()));
        QVERIFY(id->certain);
        const core::ClientLiveness l = livenessFromRead(*id, read(observer.topology()), false);
        QCOMPARE(l.state, State::Connected);
        QVERIFY2(l.evidence.contains(QStringLiteral(":%1@").arg(QCoreApplication::applicationPid())),
                 qPrintable(l.evidence));
    }

    // Another process: a `semscope-cli acquire --wait` queued on a full semaphore is listed as a
    // waiter with its owner record. Connected while it runs; killed, it reads gone.
    void killedClientReadsGone() {
        RedisSemaphoreStore observer(m_server.settings());
        core::AcquireRequest req;
        req.holder = QStringLiteral("first");
        core::SemaphoreRef ref = leased(QStringLiteral("queue"));
        ref.profile.limit = 1;
        const auto granted =
            awaitCall<core::AcquireResult>([&](auto done) { observer.acquire(ref, req, {}, done); });
        QVERIFY(granted && granted->status == core::AcquireResult::Status::Granted);

        QProcess cli;
        cli.start(qEnvironmentVariable("SEMSCOPE_CLI"),
                  {QStringLiteral("--redis"), m_server.url(), QStringLiteral("acquire"),
                   QStringLiteral("queue"), QStringLiteral("--kind"), QStringLiteral("leased"),
                   QStringLiteral("--limit"), QStringLiteral("1"), QStringLiteral("--wait"),
                   QStringLiteral("120s")});
        QVERIFY(cli.waitForStarted());
        core::Holder waiter;
        QVERIFY(test::waitFor(
            [&] {
                const auto snap = awaitCall<core::Snapshot>([&](auto done) { observer.snapshot(ref, done); });
                for (const core::Holder &h : snap ? snap->holders : QList<core::Holder>())
                    if (h.state == core::HolderState::Waiting)
                        waiter = h;
                return !waiter.id.isEmpty();
            },
            20000));
        const auto id = clientIdentityOf(waiter);
        QVERIFY2(id && id->certain, qPrintable(waiter.details.value(QStringLiteral("client")).toString()));
        const qint64 pid = cli.processId(); // 0 once it has finished
        QCOMPARE(id->pid, QString::number(pid));
        QCOMPARE(livenessFromRead(*id, read(observer.topology()), false).state, State::Connected);

        cli.kill(); // SIGKILL: no goodbye, the server only sees the socket close
        QVERIFY(cli.waitForFinished());
        core::ClientLiveness after;
        QVERIFY(test::waitFor(
            [&] {
                after = livenessFromRead(*id, read(observer.topology()), true);
                return after.state == State::Gone;
            },
            10000));
        QVERIFY2(after.evidence.contains(QStringLiteral("no connection of pid %1").arg(pid)),
                 qPrintable(after.evidence));
    }

    // A client that named itself: connected while its connection is open, gone once it closed it
    // (a name is a hint only, so "gone" needs it to have been seen before).
    void namedClientConnectedThenGone() {
        RedisSemaphoreStore observer(m_server.settings());
        const core::Holder holder = holderWithId(QStringLiteral("worker-7"));
        const auto id = clientIdentityOf(holder);
        QVERIFY(id);
        ConnectionSettings s = m_server.settings();
        s.clientName.clear(); // names itself as the foreign client would
        auto client = std::make_unique<RedisConnection>(s);
        client->open();
        QVERIFY(awaitCall<RedisReply>([&](auto done) {
            client->command({"CLIENT", "SETNAME", "worker-7"}, done);
        }));
        QCOMPARE(livenessFromRead(*id, read(observer.topology()), false).state, State::Connected);
        client.reset();
        core::ClientLiveness after;
        QVERIFY(test::waitFor(
            [&] {
                after = livenessFromRead(*id, read(observer.topology()), true);
                return after.state == State::Gone;
            },
            10000));
        QVERIFY2(after.evidence.contains(QStringLiteral("no client named worker-7")),
                 qPrintable(after.evidence));
        // Never seen connected: cannot tell a client that never named itself from one that left.
        const auto never = livenessFromRead(*id, read(observer.topology()), false);
        QCOMPARE(never.state, State::Unknown);
        QVERIFY2(never.evidence.contains(QStringLiteral("does not say which client")),
                 qPrintable(never.evidence));
    }

    // Issue 31 item 6: `semscope-cli acquire` exits holding the slot: its client is gone at once.
    void cliAcquireThatExitedIsGone() {
        const test::CliRun run = test::runCliServing(
            {QStringLiteral("--redis"), m_server.url(), QStringLiteral("acquire"), QStringLiteral("batch"),
             QStringLiteral("--kind"), QStringLiteral("leased"), QStringLiteral("--limit"),
             QStringLiteral("2"), QStringLiteral("--ttl"), QStringLiteral("60s")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        RedisSemaphoreStore observer(m_server.settings());
        const core::Holder holder = onlyHolder(observer, QStringLiteral("batch"));
        const QString record = holder.details.value(QStringLiteral("client")).toString();
        QVERIFY2(record.startsWith(QStringLiteral("semscope-cli pid ")), qPrintable(record));
        const auto id = clientIdentityOf(holder);
        QVERIFY(id);
        const core::ClientLiveness l = livenessFromRead(*id, read(observer.topology()), false);
        QCOMPARE(l.state, State::Gone);
        QVERIFY(l.limits.isEmpty()); // not a Cluster
    }

    // A page polls each second, and CLIENT LIST lists every client of the server: the store
    // (ClientLivenessPoll) reads the whole list only when something may have changed that a short
    // read cannot see, and in between asks for the connection it found for the holder (CLIENT LIST
    // ID). A holder whose connection closes reads gone at the next poll all the same. (A period of
    // ten minutes, so that a slow machine does not reach the periodic whole read mid-test.)
    void pollListsOnlyTheHoldersConnectionsBetweenWholeReads() {
        RedisSemaphoreStore observer(m_server.settings());
        ClientLivenessPoll liveness(600'000);
        const core::Holder holder = holderWithId(QStringLiteral("worker-9"));
        ConnectionSettings s = m_server.settings();
        s.clientName.clear();
        std::vector<std::unique_ptr<RedisConnection>> others; // the rest of a busy server's clients
        for (int i = 0; i < 5; ++i) {
            others.push_back(std::make_unique<RedisConnection>(s));
            others.back()->open();
            QVERIFY(awaitCall<RedisReply>([&](auto done) { others.back()->command({"PING"}, done); }));
        }
        auto client = std::make_unique<RedisConnection>(s);
        client->open();
        QVERIFY(awaitCall<RedisReply>([&](auto done) {
            client->command({"CLIENT", "SETNAME", "worker-9"}, done);
        }));
        m_server.command({"CONFIG", "SET", "slowlog-log-slower-than", "0"});
        const auto restore = qScopeGuard([this] {
            m_server.command({"CONFIG", "SET", "slowlog-log-slower-than", "10000"});
        });
        m_server.command({"CONFIG", "SET", "slowlog-max-len", "1000"});
        m_server.command({"SLOWLOG", "RESET"});

        auto first = poll(liveness, observer, holder, {});
        QCOMPARE(first.value(holder.id).liveness.state, State::Connected);
        const QString key = first.value(holder.id).identityKey;
        const auto second = poll(liveness, observer, holder, {key});
        QCOMPARE(second.value(holder.id).liveness.state, State::Connected);
        QVERIFY2(second.value(holder.id).liveness.evidence.contains(QStringLiteral("worker-9")),
                 qPrintable(second.value(holder.id).liveness.evidence));
        QStringList run = clientListsRun();
        QCOMPARE(run.size(), 2);
        QCOMPARE(run.at(0), QStringLiteral("CLIENT LIST"));
        QVERIFY2(run.at(1).startsWith(QStringLiteral("CLIENT LIST ID ")), qPrintable(run.join(u'|')));

        client.reset(); // its only connection closes
        QVERIFY(test::waitFor(
            [&] {
                return m_server.command({"CLIENT", "LIST"}).str.contains("name=worker-9 ") == false;
            },
            10000));
        const auto third = poll(liveness, observer, holder, {key});
        QCOMPARE(third.value(holder.id).liveness.state, State::Gone);
        run = clientListsRun();
        run.removeAll(QStringLiteral("CLIENT LIST")); // the test's own look above
        QVERIFY2(run.size() == 1 && run.at(0).startsWith(QStringLiteral("CLIENT LIST ID ")),
                 qPrintable(run.join(u'|')));
    }

    // A Cluster: every master's client list is read, and the answer says what it cannot see. A
    // client connected to the third master only is found.
    void clusterReadsEveryMaster() {
        test::RedisCluster cluster;
        QVERIFY2(cluster.start(), qPrintable(cluster.errorString()));
        RedisSemaphoreStore observer(cluster.settings());
        ConnectionSettings third = cluster.node(2).settings();
        third.clientName.clear();
        RedisConnection client(third);
        client.open();
        QVERIFY(awaitCall<RedisReply>([&](auto done) {
            client.command({"CLIENT", "SETNAME", "only-on-third"}, done);
        }));
        const ClientListRead r = read(observer.topology());
        QVERIFY2(r.ok(), qPrintable(r.error));
        QVERIFY(r.cluster);
        QCOMPARE(r.nodes.size(), 3);
        const auto id = clientIdentityOf(holderWithId(QStringLiteral("only-on-third")));
        const core::ClientLiveness l = livenessFromRead(*id, r, false);
        QCOMPARE(l.state, State::Connected);
        QVERIFY2(l.limits.contains(QStringLiteral("every master")), qPrintable(l.limits));
    }

    // A list that does not show this process's own named connection (a pooling proxy in between)
    // proves nothing by a missing name: cannot tell, rather than a false "gone".
    void listWithoutOwnNameCannotTell() {
        ClientListRead r;
        r.nodes << QStringLiteral("10.0.0.9:6379");
        r.clients = parseClientList("id=1 addr=10.0.0.2:4000 fd=8 name= age=1 idle=0 flags=N db=0\n"
                                    "id=2 addr=10.0.0.3:4000 fd=9 name= age=1 idle=0 flags=N db=0\n");
        const auto id =
            clientIdentityOf(holderWithId(QStringLiteral("a"), QStringLiteral("semscope-cli pid 1 on h")));
        const core::ClientLiveness l = livenessFromRead(*id, r, true);
        QCOMPARE(l.state, State::Unknown);
        QVERIFY2(l.evidence.contains(QStringLiteral("proves nothing")), qPrintable(l.evidence));
        // With this process's connection in the list the same read says gone.
        ClientEntry own;
        own.id = 3;
        own.addr = QStringLiteral("10.0.0.4:4000");
        own.name = processClientName(QStringLiteral("semscope"));
        r.clients << own;
        QCOMPARE(livenessFromRead(*id, r, false).state, State::Gone);
    }

    // An ACL user without CLIENT LIST: the answer says why it cannot tell.
    void forbiddenSaysWhy() {
        m_server.command({"ACL", "SETUSER", "narrow", "on", ">pw", "~*", "&*", "+@all", "-client"});
        ConnectionSettings s = m_server.settings();
        s.user = QStringLiteral("narrow");
        s.password = QStringLiteral("pw");
        s.clientName.clear(); // CLIENT SETNAME is refused to this user as well
        RedisSemaphoreStore observer(s);
        const ClientListRead r = read(observer.topology());
        QVERIFY(r.forbidden);
        const auto l = livenessFromRead(
            *clientIdentityOf(holderWithId(QStringLiteral("a"), QStringLiteral("x pid 1 on h"))), r, false);
        QCOMPARE(l.state, State::Unknown);
        QVERIFY2(l.evidence.contains(QStringLiteral("may not run CLIENT LIST")), qPrintable(l.evidence));
        m_server.command({"ACL", "DELUSER", "narrow"});
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestClientLiveness)
#include "tst_clientliveness.moc"
