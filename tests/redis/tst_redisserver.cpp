// The real-server fixture itself: every other Redis test trusts it to start, answer, die and come
// back as asked.
#include "RedisServer.h"
#include "TestMain.h"

#include <QFileInfo>
#include <QProcess>
#include <QTest>
#include <csignal>
#include <cstdio>
#include <cstdlib>

using semscope::redis::ConnectionSettings;
using semscope::test::RedisServer;

class TestRedisServer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void plainStartsAndAnswers();
    void killAndRestartKeepPort();
    void tlsServerUsesGeneratedCertificates();
    void unixSocket();
    void aclUserAndDefaultUserOff();
    void stopEndsTheProcess();
    void crashedTestTakesItsServerAlong();
    void startServerAndDie(); // only as the child of crashedTestTakesItsServerAlong
};

void TestRedisServer::plainStartsAndAnswers() {
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    QVERIFY(server.isRunning());
    QVERIFY(server.port() > 0);
    QCOMPARE(server.url(), QStringLiteral("redis://127.0.0.1:%1").arg(server.port()));
    QCOMPARE(server.command({"SET", "k", "v"}).str, QByteArray("OK"));
    QCOMPARE(server.command({"GET", "k"}).str, QByteArray("v"));
}

void TestRedisServer::killAndRestartKeepPort() {
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    const quint16 port = server.port();
    const qint64 pid = server.pid();
    server.kill();
    QVERIFY(!server.isRunning());
    QCOMPARE(::kill(pid_t(pid), 0), -1); // gone
    QVERIFY(server.command({"PING"}).isTransportError());
    QVERIFY2(server.restart(), qPrintable(server.errorString()));
    QCOMPARE(server.port(), port);
    QVERIFY(server.pid() != pid);
    QCOMPARE(server.command({"PING"}).str, QByteArray("PONG"));
}

void TestRedisServer::tlsServerUsesGeneratedCertificates() {
    RedisServer server;
    RedisServer::Options options;
    options.tls = true;
    QVERIFY2(server.start(options), qPrintable(server.errorString()));
    QVERIFY(QFileInfo::exists(server.caFile()));
    QVERIFY(QFileInfo::exists(server.certFile()));
    QVERIFY(QFileInfo::exists(server.keyFile()));
    QVERIFY(server.url().startsWith(QStringLiteral("rediss://127.0.0.1:")));
    QCOMPARE(server.settings().transport, ConnectionSettings::Transport::Tls);
    QCOMPARE(server.command({"PING"}).str, QByteArray("PONG"));
    const auto port = server.command({"CONFIG", "GET", "port"});
    QCOMPARE(port.elements.size(), 2);
    QCOMPARE(port.elements.at(1).str, QByteArray("0")); // only the TLS port listens
}

void TestRedisServer::unixSocket() {
    RedisServer server;
    RedisServer::Options options;
    options.unixSocket = true;
    QVERIFY2(server.start(options), qPrintable(server.errorString()));
    QVERIFY(QFileInfo::exists(server.unixSocketPath()));
    QCOMPARE(server.url(), QStringLiteral("unix://") + server.unixSocketPath());
    QCOMPARE(server.settings().transport, ConnectionSettings::Transport::Unix);
    QCOMPARE(server.command({"PING"}).str, QByteArray("PONG"));
}

void TestRedisServer::aclUserAndDefaultUserOff() {
    RedisServer server;
    RedisServer::Options options;
    options.aclUser = QStringLiteral("operator");
    options.aclPassword = QStringLiteral("s3cret pass");
    QVERIFY2(server.start(options), qPrintable(server.errorString()));
    QCOMPARE(server.command({"ACL", "WHOAMI"}).str, QByteArray("operator"));
    QVERIFY(!server.url().contains(QStringLiteral("s3cret")));
}

void TestRedisServer::stopEndsTheProcess() {
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    const qint64 pid = server.pid();
    server.stop();
    QVERIFY(!server.isRunning());
    QCOMPARE(::kill(pid_t(pid), 0), -1);
}

// A test that crashes cannot call stop(): its server must not outlive it, holding a port and
// memory for ever. This test runs itself as a child that starts a server and dies on the spot.
void TestRedisServer::crashedTestTakesItsServerAlong() {
    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SEMSCOPE_DIE_WITH_SERVER"), QStringLiteral("1"));
    child.setProcessEnvironment(env);
    child.start(
        QCoreApplication::applicationFilePath(),
        {QString::fromLatin1(semscope::test::currentTestName()), QStringLiteral("startServerAndDie")});
    QVERIFY(child.waitForFinished(60000));
    const QByteArray out = child.readAllStandardOutput();
    const qsizetype at = out.indexOf("server pid ");
    QVERIFY2(at >= 0, out.constData());
    const pid_t pid = pid_t(out.mid(at + 11).split('\n').first().trimmed().toLongLong());
    QVERIFY(pid > 0);
    QCOMPARE(child.exitCode(), 3);
    // The kernel sends the server SIGKILL when the child dies; init reaps it.
    QTRY_VERIFY_WITH_TIMEOUT(::kill(pid, 0) == -1, 10000);
}

void TestRedisServer::startServerAndDie() {
    if (qEnvironmentVariableIsEmpty("SEMSCOPE_DIE_WITH_SERVER"))
        QSKIP("runs only as the child of crashedTestTakesItsServerAlong");
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    std::printf("server pid %lld\n", static_cast<long long>(server.pid()));
    std::fflush(stdout);
    std::_Exit(3); // no destructors, no stop(): as a crash would leave it
}

SEMSCOPE_TEST_GUILESS_MAIN(TestRedisServer)
#include "tst_redisserver.moc"
