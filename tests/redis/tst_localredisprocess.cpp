// The launcher behind the demo, the training scenarios and the test fixtures: a private
// redis-server or redis-sentinel that comes up without blocking, on a port that leaves room for a
// cluster bus, and goes by its PID.
#include "TestMain.h"
#include "localredis/LocalRedisProcess.h"

#include <QDir>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTest>
#include <csignal>

using semscope::redis::LocalRedisProcess;

class TestLocalRedisProcess : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void serverStartsWithoutBlocking();
    void sentinelStartsAndMonitors();
    void freePortLeavesRoomForBusPort();
    void badArgumentsFail();
    void crashIsReportedAndRestartKeepsPort();
    void stopRemovesProcessNotFolderUntilDestroyed();
};

namespace {
QByteArray ask(quint16 port, const QByteArray &inlineCommand) {
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, port);
    if (!socket.waitForConnected(3000))
        return {};
    socket.write(inlineCommand + "\r\n");
    QByteArray reply;
    while (!reply.endsWith("\r\n") && socket.waitForReadyRead(3000))
        reply += socket.readAll();
    return reply;
}
} // namespace

void TestLocalRedisProcess::serverStartsWithoutBlocking() {
    LocalRedisProcess process;
    QSignalSpy ready(&process, &LocalRedisProcess::ready);
    QSignalSpy failed(&process, &LocalRedisProcess::failed);
    LocalRedisProcess::Options options;
    options.configText = QStringLiteral("maxmemory 10mb");
    process.start(options);
    // start() only launched it: readiness comes from the event loop.
    QCOMPARE(ready.count(), 0);
    QVERIFY(ready.wait(15000));
    QCOMPARE(failed.count(), 0);
    QVERIFY(process.isReady());
    QVERIFY(process.port() >= 20000 && process.port() <= 55535);
    QVERIFY(QDir(process.directory()).exists());
    QCOMPARE(ask(process.port(), "PING"), QByteArray("+PONG\r\n"));
    QVERIFY(ask(process.port(), "CONFIG GET maxmemory").contains("10485760"));
}

void TestLocalRedisProcess::sentinelStartsAndMonitors() {
    LocalRedisProcess master;
    QVERIFY2(master.startAndWait({}), qPrintable(master.errorString()));
    LocalRedisProcess sentinel;
    LocalRedisProcess::Options options;
    options.program = LocalRedisProcess::Program::Sentinel;
    options.configText = QStringLiteral("sentinel monitor mymaster 127.0.0.1 %1 1").arg(master.port());
    QVERIFY2(sentinel.startAndWait(options), qPrintable(sentinel.errorString()));
    const QByteArray addr = ask(sentinel.port(), "SENTINEL GET-MASTER-ADDR-BY-NAME mymaster");
    QVERIFY2(addr.contains(QByteArray::number(master.port())), addr.constData());
}

void TestLocalRedisProcess::freePortLeavesRoomForBusPort() {
    for (int i = 0; i < 20; ++i) {
        const quint16 port = LocalRedisProcess::freeLoopbackPort(true);
        QVERIFY(port >= 20000 && port <= 55535);
    }
}

void TestLocalRedisProcess::badArgumentsFail() {
    LocalRedisProcess process;
    QSignalSpy failed(&process, &LocalRedisProcess::failed);
    LocalRedisProcess::Options options;
    options.extraArgs = {QStringLiteral("--no-such-option"), QStringLiteral("1")};
    QVERIFY(!process.startAndWait(options));
    QCOMPARE(failed.count(), 1);
    QVERIFY2(process.errorString().contains(QStringLiteral("exited before it was ready")),
             qPrintable(process.errorString()));
    QVERIFY(!process.isRunning());
}

void TestLocalRedisProcess::crashIsReportedAndRestartKeepsPort() {
    LocalRedisProcess process;
    QVERIFY2(process.startAndWait({}), qPrintable(process.errorString()));
    QSignalSpy exited(&process, &LocalRedisProcess::exitedUnexpectedly);
    const quint16 port = process.port();
    // Someone else kills it (by PID): that is reported, with the port.
    QVERIFY(::kill(pid_t(process.pid()), SIGKILL) == 0);
    QVERIFY(exited.wait(5000));
    QVERIFY(exited.constFirst().constFirst().toString().contains(QString::number(port)));
    QVERIFY(process.restart());
    QCOMPARE(process.port(), port);
    QCOMPARE(ask(port, "PING"), QByteArray("+PONG\r\n"));
    // Our own kill() is not "unexpected" (it waits for the exit and takes its signals along).
    exited.clear();
    process.kill();
    QCoreApplication::processEvents();
    QCOMPARE(exited.count(), 0);
}

void TestLocalRedisProcess::stopRemovesProcessNotFolderUntilDestroyed() {
    QString dir;
    qint64 pid = 0;
    {
        LocalRedisProcess process;
        QVERIFY2(process.startAndWait({}), qPrintable(process.errorString()));
        dir = process.directory();
        pid = process.pid();
        process.stop();
        QVERIFY(!process.isRunning());
        QVERIFY(::kill(pid_t(pid), 0) != 0); // the PID is gone
        QVERIFY(QDir(dir).exists());
    }
    QVERIFY(!QDir(dir).exists());
}

SEMSCOPE_TEST_GUILESS_MAIN(TestLocalRedisProcess)
#include "tst_localredisprocess.moc"
