// RedisConnection against a real redis-server (tests/support/RedisServer): transports, handshake,
// pipelining, failures and recovery, scripts, pub/sub and timeouts.
#include "RedisServer.h"
#include "TestMain.h"
#include "TestWait.h"
#include "TlsMaterial.h"
#include "redis/RedisConnection.h"

#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <charconv>
#include <memory>
#include <vector>

using semscope::redis::ConnectionSettings;
using semscope::redis::LuaScript;
using semscope::redis::RedisConnection;
using semscope::redis::RedisReply;
using semscope::test::RedisServer;
using semscope::test::TlsMaterial;
using semscope::test::waitFor;
using semscope::test::waitForCallback;
using State = semscope::redis::RedisConnection::State;

namespace {

constexpr int kWaitMs = 20000; // generous: a loaded 2-core machine, maybe under ASan

RedisReply call(RedisConnection &connection, const QList<QByteArray> &args, int waitMs = kWaitMs) {
    RedisReply result = RedisReply::transportError(QStringLiteral("test: no reply in time"));
    waitForCallback(
        [&](std::function<void()> done) {
            connection.command(args, [&result, done](const RedisReply &reply) {
                result = reply;
                done();
            });
        },
        waitMs);
    return result;
}

RedisReply callEval(RedisConnection &connection, const LuaScript &script, const QList<QByteArray> &keys,
                    const QList<QByteArray> &args) {
    RedisReply result = RedisReply::transportError(QStringLiteral("test: no reply in time"));
    waitForCallback(
        [&](std::function<void()> done) {
            connection.eval(script, keys, args, [&result, done](const RedisReply &reply) {
                result = reply;
                done();
            });
        },
        kWaitMs);
    return result;
}

quint16 closedPort() {
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort(); // closed again when probe goes
}

ConnectionSettings noRetry(ConnectionSettings s) {
    s.autoReconnect = false;
    return s;
}

// A server that accepts connections and then does what the test says with the bytes it gets.
class FakeServer : public QObject {
public:
    std::function<void(QTcpSocket *, const QByteArray &)> onData;
    QTcpServer server;
    QList<QTcpSocket *> sockets;

    FakeServer() {
        server.listen(QHostAddress::LocalHost, 0);
        connect(&server, &QTcpServer::newConnection, this, [this]() {
            while (QTcpSocket *s = server.nextPendingConnection()) {
                sockets << s;
                connect(s, &QTcpSocket::readyRead, this, [this, s]() {
                    const QByteArray data = s->readAll();
                    if (onData)
                        onData(s, data);
                });
            }
        });
    }
    quint16 port() const { return server.serverPort(); }
};

} // namespace

class TestRedisConnection : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void tcpRoundTripsEveryReplyType();
    void tlsWithGeneratedCertificates();
    void tlsWrongCaIsRefusedClearly();
    void tlsInsecureConnectsAndWarns();
    void tlsMissingCaFileIsReported();
    void unixSocket();
    void aclRightPassword();
    void aclWrongPasswordIsAClearError();
    void noPasswordAgainstAclServerGetsNoauth();
    void selectsDbAndSetsClientName();
    void tenThousandPipelinedCommandsInOrder();
    void pipelineCallsBackOnceWithAllReplies();
    void commandsBeforeHandshakeAreQueued();
    void serverKilledWithThousandInFlightThenRestarted();
    void callbackMayDeleteTheConnection();
    void callbackMayIssueCommandsWhileFailing();
    void closeFailsPendingAndStops();
    void commandWhileDisconnectedFails();
    void connectionRefusedNamesEndpoint();
    void connectTimeout();
    void plainConnectionToTlsPortSuggestsRediss();
    void commandTimeoutFailsConnectionAndRecovers();
    void protocolGarbageFailsTheConnection();
    void cutOffReplyThenCloseFailsPending();
    void evalshaFallsBackToEvalOnNoscript();
    void invalidScriptIsRefused();
    void scriptErrorsEndWithTheScriptsOwnWords_data();
    void scriptErrorsEndWithTheScriptsOwnWords();
    void subscribeReceivesAndResubscribesAfterReconnect();
    void bigRepliesFromARealServer();
};

void TestRedisConnection::tcpRoundTripsEveryReplyType() {
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    RedisConnection c(server.settings());
    QSignalSpy connected(&c, &RedisConnection::connected);
    c.open();
    QCOMPARE(c.state(), State::Connecting);
    QCOMPARE(call(c, {"SET", "k", QByteArray("v\0\r\nx", 5)}).type, RedisReply::Type::Status);
    QCOMPARE(c.state(), State::Connected);
    QCOMPARE(connected.count(), 1);
    QCOMPARE(call(c, {"GET", "k"}).str, QByteArray("v\0\r\nx", 5));
    QVERIFY(call(c, {"GET", "missing"}).isNil());
    QCOMPARE(call(c, {"INCRBY", "n", "-4"}).integer, -4);
    const RedisReply list = call(c, {"MGET", "k", "missing", "n"});
    QCOMPARE(list.elements.size(), 3);
    QVERIFY(list.elements.at(1).isNil());
    QCOMPARE(list.elements.at(2).toInteger(), std::optional<qint64>(-4));
    const RedisReply wrong = call(c, {"LPUSH", "k", "x"});
    QVERIFY(wrong.isServerError());
    QVERIFY(wrong.str.startsWith("WRONGTYPE"));
    QCOMPARE(c.pendingCount(), 0);
}

void TestRedisConnection::tlsWithGeneratedCertificates() {
    RedisServer server;
    RedisServer::Options options;
    options.tls = true;
    QVERIFY2(server.start(options), qPrintable(server.errorString()));
    RedisConnection c(server.settings());
    QSignalSpy warnings(&c, &RedisConnection::warning);
    c.open();
    QCOMPARE(call(c, {"PING"}).str, QByteArray("PONG"));
    QCOMPARE(c.endpoint(), QStringLiteral("rediss://127.0.0.1:%1/0").arg(server.port()));
    QCOMPARE(warnings.count(), 0);

    // By host name too: the certificate names "localhost", and SNI carries it.
    ConnectionSettings byName = server.settings();
    byName.host = QStringLiteral("localhost");
    byName.sniHost = QStringLiteral("localhost");
    RedisConnection named(byName);
    named.open();
    QCOMPARE(call(named, {"PING"}).str, QByteArray("PONG"));
}

void TestRedisConnection::tlsWrongCaIsRefusedClearly() {
    RedisServer server;
    RedisServer::Options options;
    options.tls = true;
    QVERIFY2(server.start(options), qPrintable(server.errorString()));
    QTemporaryDir otherDir;
    TlsMaterial other;
    QString error;
    QVERIFY2(other.generate(otherDir.path(), &error), qPrintable(error));

    ConnectionSettings s = noRetry(server.settings());
    s.caFile = other.caFile();
    RedisConnection c(s);
    QSignalSpy lost(&c, &RedisConnection::connectionLost);
    c.open();
    const RedisReply reply = call(c, {"PING"});
    QVERIFY(reply.isTransportError());
    QVERIFY2(reply.errorMessage().startsWith(c.endpoint() + QStringLiteral(": TLS handshake failed: ")),
             qPrintable(reply.errorMessage()));
    QVERIFY2(reply.errorMessage().contains(QStringLiteral("certificate"), Qt::CaseInsensitive),
             qPrintable(reply.errorMessage()));
    QCOMPARE(lost.count(), 1);
    QCOMPARE(lost.at(0).at(0).toString(), reply.errorMessage());
    QCOMPARE(c.state(), State::Disconnected);
}

void TestRedisConnection::tlsInsecureConnectsAndWarns() {
    RedisServer server;
    RedisServer::Options options;
    options.tls = true;
    QVERIFY2(server.start(options), qPrintable(server.errorString()));
    ConnectionSettings s = server.settings();
    s.caFile.clear(); // the system CAs do not know our CA; skip-verify gets us in anyway
    s.tlsInsecure = true;
    RedisConnection c(s);
    QSignalSpy warnings(&c, &RedisConnection::warning);
    c.open();
    QCOMPARE(call(c, {"PING"}).str, QByteArray("PONG"));
    QCOMPARE(warnings.count(), 1);
    QVERIFY(warnings.at(0).at(0).toString().contains(QStringLiteral("verification is disabled")));

    // It warns again on every connect.
    server.kill();
    QVERIFY2(server.restart(), qPrintable(server.errorString()));
    QTRY_COMPARE_WITH_TIMEOUT(c.state(), State::Connected, kWaitMs);
    QVERIFY(warnings.count() >= 2);
}

void TestRedisConnection::tlsMissingCaFileIsReported() {
    ConnectionSettings s;
    s.transport = ConnectionSettings::Transport::Tls;
    s.port = closedPort();
    s.caFile = QStringLiteral("/nonexistent/ca.pem");
    s.autoReconnect = false;
    RedisConnection c(s);
    c.open();
    const RedisReply reply = call(c, {"PING"});
    QVERIFY(reply.isTransportError());
    QVERIFY2(reply.errorMessage().contains(QStringLiteral("cannot read CA file /nonexistent/ca.pem")),
             qPrintable(reply.errorMessage()));
}

void TestRedisConnection::unixSocket() {
    RedisServer server;
    RedisServer::Options options;
    options.unixSocket = true;
    QVERIFY2(server.start(options), qPrintable(server.errorString()));
    RedisConnection c(server.settings());
    c.open();
    QCOMPARE(call(c, {"SET", "a", "1"}).str, QByteArray("OK"));
    QCOMPARE(call(c, {"GET", "a"}).str, QByteArray("1"));
    QCOMPARE(c.endpoint(), QStringLiteral("unix://") + server.unixSocketPath());

    ConnectionSettings missing = noRetry(server.settings());
    missing.socketPath = server.unixSocketPath() + QStringLiteral(".nope");
    RedisConnection bad(missing);
    bad.open();
    const RedisReply reply = call(bad, {"PING"});
    QVERIFY(reply.isTransportError());
    QVERIFY2(reply.errorMessage().startsWith(bad.endpoint() + QStringLiteral(": ")),
             qPrintable(reply.errorMessage()));
}

void TestRedisConnection::aclRightPassword() {
    RedisServer server;
    RedisServer::Options options;
    options.aclUser = QStringLiteral("semscope");
    options.aclPassword = QStringLiteral("correct horse");
    QVERIFY2(server.start(options), qPrintable(server.errorString()));
    RedisConnection c(server.settings());
    c.open();
    QCOMPARE(call(c, {"ACL", "WHOAMI"}).str, QByteArray("semscope"));
}

void TestRedisConnection::aclWrongPasswordIsAClearError() {
    RedisServer server;
    RedisServer::Options options;
    options.aclUser = QStringLiteral("semscope");
    options.aclPassword = QStringLiteral("correct horse");
    QVERIFY2(server.start(options), qPrintable(server.errorString()));
    ConnectionSettings s = server.settings();
    s.password = QStringLiteral("wrong-battery");
    RedisConnection c(s);
    QSignalSpy lost(&c, &RedisConnection::connectionLost);
    QSignalSpy scheduled(&c, &RedisConnection::reconnectScheduled);
    c.open();
    const RedisReply reply = call(c, {"PING"});
    QVERIFY(reply.isTransportError());
    const QString message = reply.errorMessage();
    QVERIFY2(message.startsWith(c.endpoint() + QStringLiteral(": authentication failed: WRONGPASS")),
             qPrintable(message));
    QVERIFY(!message.contains(QStringLiteral("wrong-battery")));
    QVERIFY(!message.contains(QStringLiteral("correct horse")));
    QCOMPARE(lost.count(), 1);
    QVERIFY(!lost.at(0).at(0).toString().contains(QStringLiteral("wrong-battery")));
    // It keeps trying (the password may be fixed on the server), with backoff.
    QCOMPARE(scheduled.count(), 1);
    QCOMPARE(c.state(), State::Reconnecting);
    c.close();
    QCOMPARE(c.state(), State::Disconnected);
}

void TestRedisConnection::noPasswordAgainstAclServerGetsNoauth() {
    RedisServer server;
    RedisServer::Options options;
    options.aclUser = QStringLiteral("semscope");
    options.aclPassword = QStringLiteral("pw");
    QVERIFY2(server.start(options), qPrintable(server.errorString()));
    ConnectionSettings s = server.settings();
    s.user.clear();
    s.password.clear();
    s.clientName.clear(); // CLIENT SETNAME would be refused before AUTH too
    RedisConnection c(s);
    c.open();
    const RedisReply reply = call(c, {"GET", "x"});
    QVERIFY(reply.isServerError());
    QVERIFY2(reply.str.startsWith("NOAUTH"), reply.str.constData());
    QCOMPARE(c.state(), State::Connected);
}

void TestRedisConnection::selectsDbAndSetsClientName() {
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    ConnectionSettings s = server.settings();
    s.db = 3;
    s.clientName = QStringLiteral("semscope test client"); // spaces are not allowed by Redis
    RedisConnection c(s);
    c.open();
    QCOMPARE(call(c, {"SET", "in-db-3", "yes"}).str, QByteArray("OK"));
    const QByteArray info = call(c, {"CLIENT", "INFO"}).str;
    QVERIFY2(info.contains(" db=3 "), info.constData());
    // Named after its process too ("<name>:<pid>@<host>"), so a holder's record finds it.
    QVERIFY2(info.contains(QByteArray(" name=semscope-test-client:" +
                                      QByteArray::number(QCoreApplication::applicationPid()) + '@')),
             info.constData());
    QVERIFY(server.command({"GET", "in-db-3"}).isNil()); // db 0
    QCOMPARE(server.command({"DBSIZE"}).integer, 0);
}

void TestRedisConnection::tenThousandPipelinedCommandsInOrder() {
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    RedisConnection c(server.settings());
    c.open();
    QCOMPARE(call(c, {"PING"}).str, QByteArray("PONG"));

    constexpr int kCount = 10000;
    std::vector<qint64> seen;
    seen.reserve(kCount);
    int wrong = 0;
    for (int i = 0; i < kCount; ++i) {
        // Mixed commands so a reply matched to the wrong command shows: INCR returns i/2+1, GET
        // returns the value just set.
        if (i % 2 == 0) {
            c.command({"INCR", "counter"}, [&seen](const RedisReply &r) { seen.push_back(r.integer); });
        } else {
            const QByteArray value = "v" + QByteArray::number(i);
            c.command({"SET", "key" + QByteArray::number(i), value}, [](const RedisReply &) {});
            c.command({"GET", "key" + QByteArray::number(i)}, [&wrong, value](const RedisReply &r) {
                if (r.str != value)
                    ++wrong;
            });
        }
    }
    QVERIFY(c.pendingCount() > 0);
    QVERIFY(waitFor([&]() { return c.pendingCount() == 0; }, 60000));
    QCOMPARE(wrong, 0);
    QCOMPARE(int(seen.size()), kCount / 2);
    for (int i = 0; i < kCount / 2; ++i)
        QCOMPARE(seen[size_t(i)], qint64(i + 1));
}

void TestRedisConnection::pipelineCallsBackOnceWithAllReplies() {
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    RedisConnection c(server.settings());
    c.open();
    QList<QList<QByteArray>> commands;
    for (int i = 0; i < 1000; ++i)
        commands.append(QList<QByteArray>{"RPUSH", "list", QByteArray::number(i)});
    commands.append(QList<QByteArray>{"LLEN", "list"});
    commands.append(
        QList<QByteArray>{"HGET", "list", "x"}); // WRONGTYPE in the middle of a pipeline is just a reply
    commands.append(QList<QByteArray>{"LINDEX", "list", "999"});
    int calls = 0;
    QList<RedisReply> replies;
    c.pipeline(commands, [&](const QList<RedisReply> &r) {
        ++calls;
        replies = r;
    });
    QTRY_COMPARE_WITH_TIMEOUT(calls, 1, kWaitMs);
    QCOMPARE(replies.size(), commands.size());
    for (int i = 0; i < 1000; ++i)
        QCOMPARE(replies.at(i).integer, i + 1);
    QCOMPARE(replies.at(1000).integer, 1000);
    QVERIFY(replies.at(1001).isServerError());
    QCOMPARE(replies.at(1002).str, QByteArray("999"));

    int emptyCalls = 0;
    c.pipeline({}, [&](const QList<RedisReply> &r) {
        ++emptyCalls;
        QVERIFY(r.isEmpty());
    });
    QCOMPARE(emptyCalls, 0); // never inside the call
    QTRY_COMPARE_WITH_TIMEOUT(emptyCalls, 1, kWaitMs);
}

void TestRedisConnection::commandsBeforeHandshakeAreQueued() {
    RedisServer server;
    RedisServer::Options options;
    options.aclUser = QStringLiteral("u");
    options.aclPassword = QStringLiteral("p");
    QVERIFY2(server.start(options), qPrintable(server.errorString()));
    ConnectionSettings s = server.settings();
    s.db = 1;
    RedisConnection c(s);
    c.open();
    QList<qint64> order;
    for (int i = 0; i < 100; ++i)
        c.command({"RPUSH", "q", QByteArray::number(i)},
                  [&order](const RedisReply &r) { order << r.integer; });
    QCOMPARE(c.pendingCount(), 100);
    QTRY_COMPARE_WITH_TIMEOUT(order.size(), 100, kWaitMs);
    for (int i = 0; i < 100; ++i)
        QCOMPARE(order.at(i), i + 1); // authenticated, in db 1, in order
    QCOMPARE(call(c, {"LINDEX", "q", "99"}).str, QByteArray("99"));
}

void TestRedisConnection::serverKilledWithThousandInFlightThenRestarted() {
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    RedisConnection c(server.settings());
    QSignalSpy lost(&c, &RedisConnection::connectionLost);
    QSignalSpy scheduled(&c, &RedisConnection::reconnectScheduled);
    QSignalSpy connected(&c, &RedisConnection::connected);
    c.open();
    QCOMPARE(call(c, {"PING"}).str, QByteArray("PONG"));

    constexpr int kCount = 1000;
    std::vector<int> calls(kCount, 0);
    int successes = 0;
    int transportErrors = 0;
    QStringList messages;
    server.suspend(); // commands go out at once: a hung server guarantees nobody answers them
    for (int i = 0; i < kCount; ++i) {
        c.command({"INCR", "n"}, [&, i](const RedisReply &r) {
            ++calls[size_t(i)];
            if (r.isTransportError()) {
                ++transportErrors;
                if (messages.size() < 3)
                    messages << r.errorMessage();
            } else {
                ++successes;
            }
        });
    }
    QCOMPARE(c.pendingCount(), kCount);
    server.kill(); // all 1000 are in flight
    QVERIFY(waitFor([&]() { return successes + transportErrors == kCount; }, kWaitMs));
    QCOMPARE(successes, 0);
    QCOMPARE(transportErrors, kCount);
    QVERIFY(messages.constFirst().startsWith(c.endpoint() + QStringLiteral(": ")));
    QCOMPARE(lost.count(), 1);
    QCOMPARE(c.pendingCount(), 0);
    // Let a reconnect attempt fail against the dead port: nothing is called a second time.
    QTRY_VERIFY_WITH_TIMEOUT(scheduled.count() >= 2, kWaitMs);
    for (int i = 0; i < kCount; ++i)
        QCOMPARE(calls[size_t(i)], 1);
    QCOMPARE(c.state(), State::Reconnecting);

    QVERIFY2(server.restart(), qPrintable(server.errorString()));
    QTRY_COMPARE_WITH_TIMEOUT(c.state(), State::Connected, kWaitMs);
    QCOMPARE(connected.count(), 2);
    QCOMPARE(call(c, {"INCR", "n"}).integer, 1); // the server lost everything, the connection recovered
}

void TestRedisConnection::callbackMayDeleteTheConnection() {
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    auto *c = new RedisConnection(server.settings());
    c->open();
    QCOMPARE(call(*c, {"PING"}).str, QByteArray("PONG"));
    constexpr int kCount = 100;
    std::vector<int> calls(kCount, 0);
    server.suspend(); // they fail, not one is answered
    for (int i = 0; i < kCount; ++i) {
        c->command({"PING"}, [&, i](const RedisReply &) {
            ++calls[size_t(i)];
            if (i == 0) {
                delete c;
                c = nullptr;
            }
        });
    }
    server.kill();
    QVERIFY(waitFor([&]() { return calls[kCount - 1] > 0; }, kWaitMs));
    QVERIFY(c == nullptr);
    for (int i = 0; i < kCount; ++i)
        QCOMPARE(calls[size_t(i)], 1);

    // Deleting from a callback of a normal reply, with more replies in the same read.
    QVERIFY2(server.restart(), qPrintable(server.errorString()));
    c = new RedisConnection(server.settings());
    c->open();
    int after = 0;
    c->command({"PING"}, [&](const RedisReply &r) {
        QCOMPARE(r.str, QByteArray("PONG"));
        delete c;
        c = nullptr;
    });
    for (int i = 0; i < 10; ++i)
        c->command({"PING"}, [&](const RedisReply &) { ++after; });
    QVERIFY(waitFor([&]() { return c == nullptr; }, kWaitMs));
    QCOMPARE(after, 0); // dropped with the connection, never called
}

void TestRedisConnection::callbackMayIssueCommandsWhileFailing() {
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    RedisConnection c(server.settings());
    c.open();
    QCOMPARE(call(c, {"PING"}).str, QByteArray("PONG"));
    RedisReply retried = RedisReply::nil();
    bool retriedCalled = false;
    server.suspend(); // the PING is never answered
    c.command({"PING"}, [&](const RedisReply &r) {
        QVERIFY(r.isTransportError());
        // Issued while the connection is failing: waits for the next attempt.
        c.command({"SET", "after", "restart"}, [&](const RedisReply &again) {
            retried = again;
            retriedCalled = true;
        });
    });
    server.kill();
    QTRY_COMPARE_WITH_TIMEOUT(c.state(), State::Reconnecting, kWaitMs);
    QVERIFY2(server.restart(), qPrintable(server.errorString()));
    // Either it went out on a reconnect that already worked, or it failed with a failed attempt;
    // both are once and never a hang.
    QTRY_VERIFY_WITH_TIMEOUT(retriedCalled, kWaitMs);
    QVERIFY2(retried.str == "OK" || retried.isTransportError(), qPrintable(retried.describe()));
    QTRY_COMPARE_WITH_TIMEOUT(c.state(), State::Connected, kWaitMs);
}

void TestRedisConnection::closeFailsPendingAndStops() {
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    RedisConnection c(server.settings());
    QSignalSpy lost(&c, &RedisConnection::connectionLost);
    c.open();
    QCOMPARE(call(c, {"PING"}).str, QByteArray("PONG"));
    QList<RedisReply> replies;
    for (int i = 0; i < 10; ++i)
        c.command({"PING"}, [&](const RedisReply &r) { replies << r; });
    c.close();
    QCOMPARE(replies.size(), 10);
    for (const RedisReply &r : replies)
        QCOMPARE(r.errorMessage(), c.endpoint() + QStringLiteral(": connection closed"));
    QCOMPARE(c.state(), State::Disconnected);
    QCOMPARE(lost.count(), 0);
    // And it can be opened again.
    c.open();
    QCOMPARE(call(c, {"PING"}).str, QByteArray("PONG"));
}

void TestRedisConnection::commandWhileDisconnectedFails() {
    ConnectionSettings s;
    s.port = closedPort();
    RedisConnection c(s);
    bool called = false;
    RedisReply reply;
    c.command({"PING"}, [&](const RedisReply &r) {
        called = true;
        reply = r;
    });
    QVERIFY(!called); // from the event loop, never inside command()
    QTRY_VERIFY_WITH_TIMEOUT(called, kWaitMs);
    QCOMPARE(reply.errorMessage(), c.endpoint() + QStringLiteral(": not connected"));
}

void TestRedisConnection::connectionRefusedNamesEndpoint() {
    ConnectionSettings s;
    s.port = closedPort();
    s.autoReconnect = false;
    RedisConnection c(s);
    c.open();
    const RedisReply reply = call(c, {"PING"});
    QVERIFY(reply.isTransportError());
    QCOMPARE(reply.errorMessage(), QStringLiteral("redis://127.0.0.1:%1/0: connection refused").arg(s.port));
    QCOMPARE(c.state(), State::Disconnected);
}

void TestRedisConnection::connectTimeout() {
    // Accepts the connection but never answers AUTH: the connect timeout covers the handshake, and
    // says that the connection was made, so the operator looks at what listens there.
    FakeServer silent;
    ConnectionSettings s;
    s.port = silent.port();
    s.password = QStringLiteral("pw");
    s.connectTimeoutMs = 300;
    s.autoReconnect = false;
    RedisConnection c(s);
    c.open();
    const RedisReply reply = call(c, {"PING"});
    QCOMPARE(reply.errorMessage(),
             c.endpoint() + QStringLiteral(": connected, but AUTH got no answer within 300 ms (a Redis "
                                           "server busy with a long command, or not a Redis server)"));

    // The name of the step the server is silent on, never its arguments (AUTH's are a password).
    ConnectionSettings named = s;
    named.password.clear();
    named.clientName = QStringLiteral("semscope-test");
    RedisConnection m(named);
    m.open();
    QVERIFY2(
        call(m, {"PING"})
            .errorMessage()
            .endsWith(QStringLiteral(": connected, but CLIENT SETNAME got no answer within 300 ms (a Redis "
                                     "server busy with a long command, or not a Redis server)")),
        qPrintable(call(m, {"PING"}).errorMessage()));

    // A TLS handshake that never gets an answer.
    ConnectionSettings tls = s;
    tls.transport = ConnectionSettings::Transport::Tls;
    tls.password.clear();
    RedisConnection t(tls);
    t.open();
    QCOMPARE(call(t, {"PING"}).errorMessage(),
             t.endpoint() + QStringLiteral(": connected, but the TLS handshake got no answer within 300 ms"));
}

void TestRedisConnection::plainConnectionToTlsPortSuggestsRediss() {
    // A TLS-only Redis closes a connection that speaks plain RESP without a word.
    RedisServer server;
    RedisServer::Options options;
    options.tls = true;
    QVERIFY2(server.start(options), qPrintable(server.errorString()));
    ConnectionSettings s = noRetry(server.settings());
    s.transport = ConnectionSettings::Transport::Tcp;
    s.password = QStringLiteral("pw"); // a handshake step the server never answers
    RedisConnection c(s);
    c.open();
    QCOMPARE(call(c, {"PING"}).errorMessage(),
             c.endpoint() + QStringLiteral(": connection closed by the server before it answered AUTH "
                                           "(a TLS port? then use rediss://)"));
}

void TestRedisConnection::commandTimeoutFailsConnectionAndRecovers() {
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    ConnectionSettings s = server.settings();
    s.commandTimeoutMs = 300;
    RedisConnection c(s);
    QSignalSpy lost(&c, &RedisConnection::connectionLost);
    c.open();
    // Wait for the connection itself, not for a command: a stall on a busy machine could time a
    // command out here, and that is not what this test is about.
    QTRY_COMPARE_WITH_TIMEOUT(c.state(), State::Connected, kWaitMs);
    // BLPOP on a key nobody pushes to never answers; the PING behind it cannot be answered first.
    RedisReply blocked;
    RedisReply behind;
    int calls = 0;
    c.command({"BLPOP", "never", "0"}, [&](const RedisReply &r) {
        blocked = r;
        ++calls;
    });
    c.command({"PING"}, [&](const RedisReply &r) {
        behind = r;
        ++calls;
    });
    QTRY_COMPARE_WITH_TIMEOUT(calls, 2, kWaitMs);
    QCOMPARE(blocked.errorMessage(), c.endpoint() + QStringLiteral(": BLPOP timed out after 300 ms"));
    QCOMPARE(behind.errorMessage(), blocked.errorMessage()); // its reply could never be told apart
    QCOMPARE(lost.count(), 1);
    // It reconnects by itself; a PING then works (retried: 300 ms is short on a loaded machine).
    QTRY_COMPARE_WITH_TIMEOUT(c.state(), State::Connected, kWaitMs);
    bool pong = false;
    for (int attempt = 0; attempt < 20 && !pong; ++attempt) {
        QTRY_COMPARE_WITH_TIMEOUT(c.state(), State::Connected, kWaitMs);
        pong = call(c, {"PING"}).str == "PONG";
    }
    QVERIFY(pong);
}

void TestRedisConnection::protocolGarbageFailsTheConnection() {
    FakeServer liar;
    liar.onData = [](QTcpSocket *s, const QByteArray &) { s->write("this is not RESP\r\n"); };
    ConnectionSettings s;
    s.port = liar.port();
    s.clientName.clear();
    s.autoReconnect = false;
    RedisConnection c(s);
    c.open();
    const RedisReply reply = call(c, {"PING"});
    QVERIFY(reply.isTransportError());
    QVERIFY2(reply.errorMessage().startsWith(c.endpoint() + QStringLiteral(": protocol error:")),
             qPrintable(reply.errorMessage()));
    QCOMPARE(c.state(), State::Disconnected);
}

void TestRedisConnection::cutOffReplyThenCloseFailsPending() {
    FakeServer cutter;
    cutter.onData = [](QTcpSocket *s, const QByteArray &) {
        s->write("$10\r\nabc");
        s->flush();
        s->disconnectFromHost();
    };
    ConnectionSettings s;
    s.port = cutter.port();
    s.clientName.clear();
    s.autoReconnect = false;
    RedisConnection c(s);
    c.open();
    const RedisReply reply = call(c, {"GET", "x"});
    QCOMPARE(reply.errorMessage(), c.endpoint() + QStringLiteral(": connection closed by the server"));
}

void TestRedisConnection::evalshaFallsBackToEvalOnNoscript() {
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    RedisConnection c(server.settings());
    c.open();
    const LuaScript script(QByteArrayLiteral("return {KEYS[1], ARGV[1], redis.call('INCR', KEYS[1])}"));
    QCOMPARE(script.sha1().size(), 40);
    QCOMPARE(server.command({"SCRIPT", "EXISTS", script.sha1()}).elements.at(0).integer, 0);

    const RedisReply first = callEval(c, script, {"k"}, {"a"});
    QCOMPARE(first.elements.size(), 3);
    QCOMPARE(first.elements.at(0).str, QByteArray("k"));
    QCOMPARE(first.elements.at(1).str, QByteArray("a"));
    QCOMPARE(first.elements.at(2).integer, 1);
    QCOMPARE(server.command({"SCRIPT", "EXISTS", script.sha1()}).elements.at(0).integer, 1);

    const RedisReply second = callEval(c, script, {"k"}, {"b"});
    QCOMPARE(second.elements.at(2).integer, 2);
    // One EVAL (the fallback), the rest EVALSHA: the script ran exactly twice.
    const QByteArray stats = server.command({"INFO", "commandstats"}).str;
    QVERIFY2(stats.contains("cmdstat_eval:calls=1,"), stats.constData());

    // After SCRIPT FLUSH it falls back again.
    QCOMPARE(server.command({"SCRIPT", "FLUSH"}).str, QByteArray("OK"));
    QCOMPARE(callEval(c, script, {"k"}, {"c"}).elements.at(2).integer, 3);

    // A script error is the server's error, not retried.
    const LuaScript failing(QByteArrayLiteral("return redis.error_reply('NOPE not today')"));
    const RedisReply refused = callEval(c, failing, {}, {});
    QVERIFY(refused.isServerError());
    QCOMPARE(refused.str, QByteArray("NOPE not today"));
}

void TestRedisConnection::invalidScriptIsRefused() {
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    RedisConnection c(server.settings());
    c.open();
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("Lua script resource missing")));
    const LuaScript missing = LuaScript::fromResource(QStringLiteral("no-such-script"));
    QVERIFY(!missing.isValid());
    const RedisReply reply = callEval(c, missing, {"k"}, {});
    QVERIFY(reply.isServerError());
    QVERIFY(reply.errorMessage().contains(QStringLiteral("empty Lua script")));
}

void TestRedisConnection::scriptErrorsEndWithTheScriptsOwnWords_data() {
    QTest::addColumn<QByteArray>("source");
    QTest::addColumn<QByteArray>("error");
    // Redis 7 appends " script: <sha1>, on @user_script:<line>." to an error a script raises: noise
    // after semscope's own message, which an operator reads and a log line cannot cut well.
    QTest::newRow("error() with a table") << QByteArray("return error({err='WRONGTYPE {k} is a string'})")
                                          << QByteArray("WRONGTYPE {k} is a string");
    QTest::newRow("a command that failed")
        << QByteArray("return redis.call('HGET', KEYS[1], 'a')")
        << QByteArray("WRONGTYPE Operation against a key holding the wrong kind of value");
    QTest::newRow("a Lua runtime error keeps its line")
        << QByteArray("local x = nil\nreturn x + 1")
        << QByteArray("ERR user_script:2: attempt to perform arithmetic on local 'x' (a nil value)");
    QTest::newRow("error_reply is left alone")
        << QByteArray("return redis.error_reply('BADLIMIT x')") << QByteArray("BADLIMIT x");
    QTest::newRow("words that only look like the suffix")
        << QByteArray("return redis.error_reply('ERR see script: abc, on @user_script:1.')")
        << QByteArray("ERR see script: abc, on @user_script:1.");
}

void TestRedisConnection::scriptErrorsEndWithTheScriptsOwnWords() {
    QFETCH(QByteArray, source);
    QFETCH(QByteArray, error);
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    QCOMPARE(server.command({"SET", "k", "a string"}).str, QByteArray("OK"));
    RedisConnection c(server.settings());
    c.open();
    const LuaScript script(source);
    // Twice: the first runs through the NOSCRIPT fallback (EVAL), the second through EVALSHA.
    for (int run = 0; run < 2; ++run) {
        const RedisReply reply = callEval(c, script, {"k"}, {});
        QVERIFY(reply.isServerError());
        QCOMPARE(reply.str, error);
    }
}

void TestRedisConnection::subscribeReceivesAndResubscribesAfterReconnect() {
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    RedisConnection sub(server.settings());
    QList<QByteArray> messages;
    QList<QByteArray> other;
    int confirmations = 0;
    sub.subscribe(
        "events", [&](const QByteArray &m) { messages << m; }, [&]() { ++confirmations; });
    sub.open();
    QTRY_COMPARE_WITH_TIMEOUT(confirmations, 1, kWaitMs);
    QCOMPARE(server.command({"PUBLISH", "events", "first"}).integer, 1);
    QTRY_COMPARE_WITH_TIMEOUT(messages.size(), 1, kWaitMs);
    QCOMPARE(messages.at(0), QByteArray("first"));

    // A second channel on the live connection.
    int otherConfirmations = 0;
    sub.subscribe(
        "other", [&](const QByteArray &m) { other << m; }, [&]() { ++otherConfirmations; });
    QTRY_COMPARE_WITH_TIMEOUT(otherConfirmations, 1, kWaitMs);
    QCOMPARE(server.command({"PUBLISH", "other", "x"}).integer, 1);
    QTRY_COMPARE_WITH_TIMEOUT(other.size(), 1, kWaitMs);

    // The server goes away and comes back: both subscriptions are renewed and confirmed again.
    server.kill();
    QVERIFY2(server.restart(), qPrintable(server.errorString()));
    QTRY_COMPARE_WITH_TIMEOUT(confirmations, 2, kWaitMs);
    QTRY_COMPARE_WITH_TIMEOUT(otherConfirmations, 2, kWaitMs);
    QCOMPARE(server.command({"PUBLISH", "events", "second"}).integer, 1);
    QTRY_COMPARE_WITH_TIMEOUT(messages.size(), 2, kWaitMs);
    QCOMPARE(messages.at(1), QByteArray("second"));

    sub.unsubscribe("events");
    QTRY_COMPARE_WITH_TIMEOUT(server.command({"PUBSUB", "NUMSUB", "events"}).elements.value(1).integer, 0,
                              kWaitMs);
    QCOMPARE(server.command({"PUBLISH", "other", "y"}).integer, 1);
    QTRY_COMPARE_WITH_TIMEOUT(other.size(), 2, kWaitMs);
    QCOMPARE(messages.size(), 2);
}

void TestRedisConnection::bigRepliesFromARealServer() {
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    // Big values take a while on a busy machine (and under sanitizers); this test is about their
    // content, so give them minutes rather than the default 10 s command timeout.
    constexpr int kBigWaitMs = 180000;
    // 64 MiB there and back (see tst_redisreply for the block trick).
    constexpr qsizetype kSize = 64 * 1024 * 1024;
    QByteArray block(4093, Qt::Uninitialized);
    for (qsizetype i = 0; i < block.size(); ++i)
        block[i] = char(i * 131 % 251);
    QByteArray payload = block.repeated(kSize / block.size() + 1).left(kSize);
    ConnectionSettings s = server.settings();
    s.commandTimeoutMs = kBigWaitMs - 30000;
    RedisConnection c(s);
    c.open();
    QCOMPARE(call(c, {"SET", "big", payload}, kBigWaitMs).str, QByteArray("OK"));
    const RedisReply big = call(c, {"GET", "big"}, kBigWaitMs);
    QCOMPARE(big.str.size(), kSize);
    QVERIFY(big.str == payload);
    payload.clear();

    // A million-element array: a list filled by 100 pipelined RPUSHes of 10,000, read back whole.
    constexpr int kCount = 1000000;
    constexpr int kPerPush = 10000;
    QList<QList<QByteArray>> pushes;
    for (int first = 0; first < kCount; first += kPerPush) {
        QList<QByteArray> push = {"RPUSH", "million"};
        push.reserve(kPerPush + 2);
        for (int i = first; i < first + kPerPush; ++i)
            push.append(QByteArray::number(i));
        pushes.append(push);
    }
    QList<RedisReply> pushed;
    c.pipeline(pushes, [&pushed](const QList<RedisReply> &replies) { pushed = replies; });
    QTRY_COMPARE_WITH_TIMEOUT(pushed.size(), pushes.size(), kBigWaitMs);
    QCOMPARE(pushed.constLast().integer, kCount);
    pushes.clear();
    const RedisReply all = call(c, {"LRANGE", "million", "0", "-1"}, kBigWaitMs);
    QCOMPARE(all.elements.size(), kCount);
    for (int i = 0; i < kCount; ++i) {
        const RedisReply &e = all.elements.at(i);
        int value = -1;
        const auto [end, ec] = std::from_chars(e.str.constData(), e.str.constData() + e.str.size(), value);
        if (ec != std::errc() || end != e.str.constData() + e.str.size() || value != i)
            QFAIL(qPrintable(QStringLiteral("element %1 is %2").arg(i).arg(e.describe())));
    }
}

SEMSCOPE_TEST_GUILESS_MAIN(TestRedisConnection)
#include "tst_redisconnection.moc"
