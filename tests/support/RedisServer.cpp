#include "RedisServer.h"

#include "TestWait.h"
#include "TlsMaterial.h"
#include "redis/RedisConnection.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QProcess>
#include <QRandomGenerator>
#include <QTcpServer>
#include <QTemporaryDir>
#include <csignal>
#include <sys/prctl.h>
#include <sys/types.h>

namespace semscope::test {

namespace {

constexpr int kStartTimeoutMs = 15000;
constexpr int kCommandTimeoutMs = 10000;

quint16 pickFreePort() {
    QTcpServer probe;
    if (!probe.listen(QHostAddress::LocalHost, 0))
        return 0;
    return probe.serverPort();
}

// A cluster node needs its port and port + 10000 (the cluster bus), so at most 55535; the kernel's
// ephemeral range goes higher, so the port is drawn here and both are probed.
quint16 pickFreeClusterPort() {
    for (int attempt = 0; attempt < 200; ++attempt) {
        const auto port = quint16(QRandomGenerator::global()->bounded(20000, 55536));
        QTcpServer data;
        QTcpServer bus;
        if (data.listen(QHostAddress::LocalHost, port) && bus.listen(QHostAddress::LocalHost, port + 10000))
            return port;
    }
    return 0;
}

// Test runs keep their files under SEMSCOPE_TEST_TMP when set (the build tree), else in /tmp. Unix
// socket paths are limited to 107 bytes, so very deep build trees fall back to /tmp.
QString temporaryBase() {
    const QString base = qEnvironmentVariable("SEMSCOPE_TEST_TMP");
    if (!base.isEmpty() && base.size() < 60 && QDir().mkpath(base))
        return base;
    return QDir::tempPath();
}

} // namespace

struct RedisServer::Private {
    Options options;
    std::unique_ptr<QTemporaryDir> dir;
    std::unique_ptr<TlsMaterial> tls;
    std::unique_ptr<QProcess> process;
    std::unique_ptr<redis::RedisConnection> control;
    quint16 port = 0;
    QString error;
    QByteArray log;
};

RedisServer::RedisServer()
    : d(std::make_unique<Private>()) {}

RedisServer::~RedisServer() {
    stop();
}

bool RedisServer::start() {
    return start(Options());
}

bool RedisServer::start(const Options &options) {
    stop();
    d->options = options;
    d->error.clear();
    d->dir = std::make_unique<QTemporaryDir>(temporaryBase() + QStringLiteral("/semscope-redis-XXXXXX"));
    if (!d->dir->isValid()) {
        d->error = QStringLiteral("cannot create a temporary directory: ") + d->dir->errorString();
        return false;
    }
    d->tls.reset();
    if (options.tls) {
        d->tls = std::make_unique<TlsMaterial>();
        if (!options.tlsMaterialDir.isEmpty())
            d->tls->adopt(options.tlsMaterialDir);
        else if (!d->tls->generate(d->dir->path(), &d->error))
            return false;
    }
    // Another process may take the port between our probe and redis-server's bind; try a few.
    for (int attempt = 0; attempt < 5; ++attempt) {
        d->port = options.cluster ? pickFreeClusterPort() : pickFreePort();
        if (d->port == 0) {
            d->error = QStringLiteral("no free loopback port");
            return false;
        }
        if (launch())
            return true;
        if (!d->log.contains("Address already in use"))
            return false;
    }
    return false;
}

QStringList RedisServer::arguments() const {
    const QString port = QString::number(d->port);
    QStringList args = {QStringLiteral("--bind"),
                        QStringLiteral("127.0.0.1"),
                        QStringLiteral("--save"),
                        QString(),
                        QStringLiteral("--appendonly"),
                        QStringLiteral("no"),
                        QStringLiteral("--dir"),
                        d->dir->path(),
                        QStringLiteral("--daemonize"),
                        QStringLiteral("no"),
                        QStringLiteral("--logfile"),
                        QString(),
                        QStringLiteral("--enable-debug-command"),
                        QStringLiteral("local")};
    if (d->options.tls) {
        args << QStringList{QStringLiteral("--port"),
                            QStringLiteral("0"),
                            QStringLiteral("--tls-port"),
                            port,
                            QStringLiteral("--tls-cert-file"),
                            d->tls->serverCertFile(),
                            QStringLiteral("--tls-key-file"),
                            d->tls->serverKeyFile(),
                            QStringLiteral("--tls-ca-cert-file"),
                            d->tls->caFile()};
    } else {
        args << QStringList{QStringLiteral("--port"), port};
    }
    if (d->options.unixSocket) {
        args << QStringList{QStringLiteral("--unixsocket"), unixSocketPath(),
                            QStringLiteral("--unixsocketperm"), QStringLiteral("700")};
    }
    if (!d->options.aclUser.isEmpty()) {
        args << QStringList{QStringLiteral("--user"), d->options.aclUser,
                            QStringLiteral("on"),     QStringLiteral(">") + d->options.aclPassword,
                            QStringLiteral("~*"),     QStringLiteral("&*"),
                            QStringLiteral("+@all")};
        args << QStringList{QStringLiteral("--user"), QStringLiteral("default"), QStringLiteral("off")};
    }
    if (d->options.cluster) {
        args << QStringList{
            QStringLiteral("--cluster-enabled"),      QStringLiteral("yes"),
            QStringLiteral("--cluster-config-file"),  d->dir->path() + QStringLiteral("/nodes.conf"),
            QStringLiteral("--cluster-node-timeout"), QStringLiteral("2000")};
        if (d->options.tls)
            args << QStringList{QStringLiteral("--tls-cluster"),          QStringLiteral("yes"),
                                QStringLiteral("--tls-replication"),      QStringLiteral("yes"),
                                QStringLiteral("--tls-client-cert-file"), d->tls->clientCertFile(),
                                QStringLiteral("--tls-client-key-file"),  d->tls->clientKeyFile()};
    }
    args << d->options.extraArgs;
    return args;
}

bool RedisServer::launch() {
    d->control.reset();
    d->log.clear();
    d->process = std::make_unique<QProcess>();
    d->process->setProcessChannelMode(QProcess::MergedChannels);
    d->process->setWorkingDirectory(d->dir->path());
    // A test that crashes never reaches stop(): the kernel stops its server when the test dies,
    // instead of leaving it running on its port for ever.
    d->process->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
    d->process->start(QStringLiteral("redis-server"), arguments());
    if (!d->process->waitForStarted(kStartTimeoutMs)) {
        d->error = QStringLiteral("cannot start redis-server: ") + d->process->errorString();
        d->process.reset();
        return false;
    }
    // Wait for the log line that says it listens, then for an answer to PING.
    QDeadlineTimer deadline(kStartTimeoutMs);
    while (!d->log.contains("Ready to accept connections")) {
        if (d->process->state() != QProcess::Running || deadline.hasExpired()) {
            d->log += d->process->readAll();
            d->error = QStringLiteral("redis-server did not start: ") +
                       QString::fromLocal8Bit(d->log.right(600)).trimmed();
            stop();
            return false;
        }
        d->process->waitForReadyRead(int(qMax<qint64>(1, qMin<qint64>(deadline.remainingTime(), 1000))));
        d->log += d->process->readAll();
    }
    const redis::RedisReply pong = command({QByteArrayLiteral("PING")});
    if (pong.str != "PONG") {
        d->error = QStringLiteral("redis-server does not answer PING: ") + pong.describe();
        stop();
        return false;
    }
    return true;
}

void RedisServer::stop() {
    d->control.reset();
    if (!d->process)
        return;
    if (d->process->state() != QProcess::NotRunning) {
        const qint64 pid = d->process->processId();
        if (pid > 0) {
            ::kill(pid_t(pid), SIGCONT); // a suspended server handles SIGTERM only once it runs
            ::kill(pid_t(pid), SIGTERM);
        }
        if (!d->process->waitForFinished(10000)) {
            if (pid > 0)
                ::kill(pid_t(pid), SIGKILL);
            d->process->waitForFinished(10000);
        }
    }
    d->process.reset();
}

void RedisServer::kill() {
    if (!d->process)
        return;
    if (d->process->state() != QProcess::NotRunning) {
        const qint64 pid = d->process->processId();
        if (pid > 0)
            ::kill(pid_t(pid), SIGKILL);
        d->process->waitForFinished(10000);
    }
    d->process.reset();
    d->control.reset();
}

void RedisServer::suspend() {
    if (d->process && d->process->processId() > 0)
        ::kill(pid_t(d->process->processId()), SIGSTOP);
}

void RedisServer::resume() {
    if (d->process && d->process->processId() > 0)
        ::kill(pid_t(d->process->processId()), SIGCONT);
}

bool RedisServer::restart() {
    if (!d->dir || d->port == 0) {
        d->error = QStringLiteral("restart() before start()");
        return false;
    }
    stop();
    return launch();
}

bool RedisServer::isRunning() const {
    return d->process && d->process->state() == QProcess::Running;
}

qint64 RedisServer::pid() const {
    return d->process ? d->process->processId() : 0;
}

quint16 RedisServer::port() const {
    return d->port;
}

QString RedisServer::host() const {
    return QStringLiteral("127.0.0.1");
}

QString RedisServer::unixSocketPath() const {
    return d->dir ? d->dir->path() + QStringLiteral("/redis.sock") : QString();
}

QString RedisServer::url() const {
    if (d->options.unixSocket)
        return QStringLiteral("unix://") + unixSocketPath();
    return (d->options.tls ? QStringLiteral("rediss://") : QStringLiteral("redis://")) + host() +
           QLatin1Char(':') + QString::number(d->port);
}

redis::ConnectionSettings RedisServer::settings() const {
    redis::ConnectionSettings s;
    if (d->options.unixSocket) {
        s.transport = redis::ConnectionSettings::Transport::Unix;
        s.socketPath = unixSocketPath();
    } else {
        s.transport = d->options.tls ? redis::ConnectionSettings::Transport::Tls
                                     : redis::ConnectionSettings::Transport::Tcp;
        s.host = host();
        s.port = d->port;
    }
    if (d->options.tls && !d->options.unixSocket) {
        s.caFile = caFile();
        s.certFile = certFile();
        s.keyFile = keyFile();
    }
    s.user = d->options.aclUser;
    s.password = d->options.aclPassword;
    return s;
}

QString RedisServer::caFile() const {
    return d->tls ? d->tls->caFile() : QString();
}
QString RedisServer::certFile() const {
    return d->tls ? d->tls->clientCertFile() : QString();
}
QString RedisServer::keyFile() const {
    return d->tls ? d->tls->clientKeyFile() : QString();
}
QString RedisServer::directory() const {
    return d->dir ? d->dir->path() : QString();
}
QString RedisServer::errorString() const {
    return d->error;
}

redis::RedisReply RedisServer::command(const QList<QByteArray> &args) {
    if (!d->control || d->control->state() == redis::RedisConnection::State::Disconnected) {
        redis::ConnectionSettings s = settings();
        s.autoReconnect = false;
        s.clientName = QStringLiteral("semscope-test-control");
        s.commandTimeoutMs = kCommandTimeoutMs;
        d->control = std::make_unique<redis::RedisConnection>(s);
        d->control->open();
    }
    auto result = std::make_shared<redis::RedisReply>(
        redis::RedisReply::transportError(QStringLiteral("no reply within 10 s")));
    redis::RedisConnection *connection = d->control.get();
    const bool done = waitForCallback(
        [&](std::function<void()> finished) {
            connection->command(args, [result, finished](const redis::RedisReply &reply) {
                *result = reply;
                finished();
            });
        },
        kCommandTimeoutMs + 2000);
    if (!done)
        d->control.reset();
    return *result;
}

} // namespace semscope::test
