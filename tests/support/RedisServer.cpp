#include "RedisServer.h"

#include "TestWait.h"
#include "TlsMaterial.h"
#include "localredis/LocalRedisProcess.h"
#include "redis/RedisConnection.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>

namespace semscope::test {

namespace {

constexpr int kStartTimeoutMs = 15000;
constexpr int kCommandTimeoutMs = 10000;

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
    // TLS material lives apart from the server's folder: it is made before the server starts.
    std::unique_ptr<QTemporaryDir> tlsDir;
    std::unique_ptr<TlsMaterial> tls;
    redis::LocalRedisProcess process;
    std::unique_ptr<redis::RedisConnection> control;
    QString error;
};

RedisServer::RedisServer()
    : d(std::make_unique<Private>()) {}

RedisServer::~RedisServer() {
    stop();
}

bool RedisServer::start() {
    return start(Options());
}

bool RedisServer::startReplicaOf(RedisServer &master) {
    const int onlineBefore = int(master.command({"INFO", "replication"}).str.count("state=online"));
    Options o;
    o.extraArgs = QStringList{QStringLiteral("--replicaof"), QStringLiteral("127.0.0.1"),
                              QString::number(master.port())};
    if (!start(o))
        return false;
    // This one is online once the master counts one more online replica than before.
    int online = 0;
    if (!waitFor([&] {
            online = int(master.command({"INFO", "replication"}).str.count("state=online"));
            return online >= onlineBefore + 1;
        }) ||
        !master.waitForReplicaStream(online)) {
        d->error = QStringLiteral("the replica's link to its master did not come online");
        return false;
    }
    return true;
}

bool RedisServer::waitForReplicaStream(int replicas, int timeoutMs) {
    return waitFor(
        [&] {
            command({"PUBLISH", "semscope-test:replication-probe", "1"});
            const redis::RedisReply acked =
                command({"WAIT", QByteArray::number(replicas), QByteArrayLiteral("1000")});
            return acked.isInteger() && acked.integer >= replicas;
        },
        timeoutMs);
}

bool RedisServer::start(const Options &options) {
    stop();
    d->options = options;
    d->error.clear();
    d->tls.reset();
    d->tlsDir.reset();
    if (options.tls) {
        d->tlsDir = std::make_unique<QTemporaryDir>(temporaryBase() + QStringLiteral("/semscope-tls-XXXXXX"));
        d->tls = std::make_unique<TlsMaterial>();
        // Nodes of one TLS cluster share one CA: each adopts the material the first one made.
        if (!options.tlsMaterialDir.isEmpty())
            d->tls->adopt(options.tlsMaterialDir);
        else if (!d->tlsDir->isValid() || !d->tls->generate(d->tlsDir->path(), &d->error))
            return false;
    }
    redis::LocalRedisProcess::Options launch;
    launch.enableDebugCommand = true;
    launch.temporaryBase = temporaryBase();
    launch.extraArgs = arguments();
    launch.startTimeoutMs = kStartTimeoutMs;
    launch.needsBusPort = options.cluster;
    if (!d->process.startAndWait(launch)) {
        d->error = QStringLiteral("redis-server did not start: ") + d->process.errorString();
        return false;
    }
    return answersPing();
}

QStringList RedisServer::arguments() const {
    // The launcher gives port, bind, folder, no persistence and DEBUG; these come on top.
    QStringList args;
    if (d->options.tls) {
        args << QStringList{QStringLiteral("--port"),
                            QStringLiteral("0"),
                            QStringLiteral("--tls-port"),
                            QStringLiteral("{port}"),
                            QStringLiteral("--tls-cert-file"),
                            d->tls->serverCertFile(),
                            QStringLiteral("--tls-key-file"),
                            d->tls->serverKeyFile(),
                            QStringLiteral("--tls-ca-cert-file"),
                            d->tls->caFile()};
    }
    if (d->options.unixSocket) {
        args << QStringList{QStringLiteral("--unixsocket"), QStringLiteral("{dir}/redis.sock"),
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
        args << QStringList{QStringLiteral("--cluster-enabled"),      QStringLiteral("yes"),
                            QStringLiteral("--cluster-config-file"),  QStringLiteral("{dir}/nodes.conf"),
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

bool RedisServer::answersPing() {
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
    d->process.stop();
}

void RedisServer::kill() {
    d->control.reset();
    d->process.kill();
}

void RedisServer::suspend() {
    d->process.suspend();
}

void RedisServer::resume() {
    d->process.resume();
}

bool RedisServer::restart() {
    if (d->process.port() == 0) {
        d->error = QStringLiteral("restart() before start()");
        return false;
    }
    d->control.reset();
    if (!d->process.restart()) {
        d->error = QStringLiteral("redis-server did not start again: ") + d->process.errorString();
        return false;
    }
    return answersPing();
}

bool RedisServer::isRunning() const {
    return d->process.isRunning();
}

qint64 RedisServer::pid() const {
    return d->process.pid();
}

quint16 RedisServer::port() const {
    return d->process.port();
}

QString RedisServer::host() const {
    return QStringLiteral("127.0.0.1");
}

QString RedisServer::unixSocketPath() const {
    const QString dir = d->process.directory();
    return dir.isEmpty() ? QString() : dir + QStringLiteral("/redis.sock");
}

QString RedisServer::url() const {
    if (d->options.unixSocket)
        return QStringLiteral("unix://") + unixSocketPath();
    return (d->options.tls ? QStringLiteral("rediss://") : QStringLiteral("redis://")) + host() +
           QLatin1Char(':') + QString::number(port());
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
        s.port = port();
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
QString RedisServer::tlsMaterialDirectory() const {
    return d->tls ? QFileInfo(d->tls->caFile()).absolutePath() : QString();
}

QString RedisServer::directory() const {
    return d->process.directory();
}
QString RedisServer::errorString() const {
    return d->error;
}

QByteArray RedisServer::log() const {
    return d->process.log();
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
