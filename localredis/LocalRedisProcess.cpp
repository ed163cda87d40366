#include "LocalRedisProcess.h"

#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTimer>
#include <csignal>
#include <sys/prctl.h>
#include <sys/types.h>
#include <unistd.h>

namespace semscope::redis {

namespace {

constexpr quint16 kLowestPort = 20000;
// Cluster bus ports are port + 10000 and must stay ≤ 65535.
constexpr quint16 kHighestPort = 55535;
constexpr int kPortAttempts = 5;
constexpr qsizetype kMaxLogBytes = 64 * 1024;

bool portIsFree(quint16 port) {
    QTcpServer probe;
    return probe.listen(QHostAddress::LocalHost, port);
}

} // namespace

struct LocalRedisProcess::Private {
    Options options;
    std::unique_ptr<QTemporaryDir> dir;
    std::unique_ptr<QProcess> process;
    QTimer startTimer;
    quint16 port = 0;
    int attemptsLeft = 0;
    QString error;
    QByteArray log;
    bool ready = false;
    bool ending = false; // stop() or kill() is under way: the exit is ours
};

LocalRedisProcess::LocalRedisProcess(QObject *parent)
    : QObject(parent)
    , d(std::make_unique<Private>()) {
    d->startTimer.setSingleShot(true);
    connect(&d->startTimer, &QTimer::timeout, this, [this] {
        fail(tr("%1 did not come up within %2 s: %3")
                 .arg(label())
                 .arg(d->options.startTimeoutMs / 1000)
                 .arg(QString::fromLocal8Bit(d->log.right(300)).trimmed()));
    });
}

LocalRedisProcess::~LocalRedisProcess() {
    stop();
}

quint16 LocalRedisProcess::freeLoopbackPort(bool needsBusPort) {
    // Random ports in a fixed range rather than the kernel's ephemeral ones, which reach 60999 and
    // leave no room for a bus port; a port is taken only when it (and its bus port) bind now.
    auto *rng = QRandomGenerator::global();
    for (int i = 0; i < 200; ++i) {
        const auto port = quint16(kLowestPort + rng->bounded(kHighestPort - kLowestPort + 1));
        if (!portIsFree(port))
            continue;
        if (needsBusPort && !portIsFree(quint16(port + 10000)))
            continue;
        return port;
    }
    return 0;
}

QString LocalRedisProcess::findProgram(Program program, bool *asServerSentinel) {
    if (asServerSentinel)
        *asServerSentinel = false;
    if (program == Program::Sentinel) {
        const QString sentinel = QStandardPaths::findExecutable(QStringLiteral("redis-sentinel"));
        if (!sentinel.isEmpty())
            return sentinel;
        if (asServerSentinel)
            *asServerSentinel = true;
    }
    return QStandardPaths::findExecutable(QStringLiteral("redis-server"));
}

QString LocalRedisProcess::label() const {
    if (!d->options.label.isEmpty())
        return d->options.label;
    return d->options.program == Program::Sentinel ? QStringLiteral("redis-sentinel")
                                                   : QStringLiteral("redis-server");
}

void LocalRedisProcess::start(const Options &options) {
    stop();
    d->options = options;
    d->error.clear();
    d->ready = false;
    const QString base = options.temporaryBase.isEmpty() ? QDir::tempPath() : options.temporaryBase;
    d->dir = std::make_unique<QTemporaryDir>(base + QStringLiteral("/semscope-redis-XXXXXX"));
    if (!d->dir->isValid()) {
        const QString reason = d->dir->errorString();
        d->dir.reset();
        QTimer::singleShot(0, this,
                           [this, reason] { fail(tr("cannot create a temporary folder: %1").arg(reason)); });
        return;
    }
    QString configError;
    if (!writeConfig(&configError)) {
        QTimer::singleShot(0, this, [this, configError] { fail(configError); });
        return;
    }
    d->attemptsLeft = kPortAttempts;
    d->port = 0;
    launch();
}

bool LocalRedisProcess::writeConfig(QString *error) {
    // redis-server reads its configuration from a file only when one is given; a sentinel always
    // needs one it may rewrite.
    if (d->options.configText.isEmpty() && d->options.program == Program::Server)
        return true;
    QFile file(configFile());
    QString text = d->options.configText;
    // The port is not chosen yet; a config that names it gets it on the command line instead.
    text.replace(QLatin1String("{dir}"), d->dir->path());
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(text.toUtf8() + '\n') < 0) {
        *error = tr("cannot write %1: %2").arg(file.fileName(), file.errorString());
        return false;
    }
    return true;
}

QStringList LocalRedisProcess::arguments(bool sentinelViaServer) const {
    QStringList args;
    if (!d->options.configText.isEmpty() || d->options.program == Program::Sentinel)
        args << configFile();
    args << QStringLiteral("--port") << QString::number(d->port) << QStringLiteral("--bind")
         << QStringLiteral("127.0.0.1") << QStringLiteral("--dir") << d->dir->path()
         << QStringLiteral("--daemonize") << QStringLiteral("no") << QStringLiteral("--logfile") << QString();
    if (d->options.program == Program::Server) {
        args << QStringLiteral("--save") << QString() << QStringLiteral("--appendonly")
             << QStringLiteral("no");
        if (d->options.enableDebugCommand)
            args << QStringLiteral("--enable-debug-command") << QStringLiteral("local");
    }
    if (sentinelViaServer)
        args << QStringLiteral("--sentinel");
    for (QString arg : d->options.extraArgs)
        args << arg.replace(QLatin1String("{port}"), QString::number(d->port))
                    .replace(QLatin1String("{dir}"), d->dir->path());
    return args;
}

void LocalRedisProcess::launch() {
    bool sentinelViaServer = false;
    const QString program = findProgram(d->options.program, &sentinelViaServer);
    if (program.isEmpty()) {
        QTimer::singleShot(0, this, [this] {
            fail(d->options.program == Program::Sentinel
                     ? tr("neither redis-sentinel nor redis-server is on PATH (apt install redis-sentinel)")
                     : tr("redis-server is not on PATH (apt install redis-server)"));
        });
        return;
    }
    if (d->port == 0)
        d->port = freeLoopbackPort(d->options.needsBusPort);
    if (d->port == 0) {
        QTimer::singleShot(0, this, [this] { fail(tr("no free loopback port for %1").arg(label())); });
        return;
    }
    d->log.clear();
    d->ending = false;
    d->process = std::make_unique<QProcess>();
    d->process->setProgram(program);
    d->process->setArguments(arguments(sentinelViaServer));
    d->process->setWorkingDirectory(d->dir->path());
    d->process->setProcessChannelMode(QProcess::MergedChannels);
    // The process goes when the thread that started it goes (the kernel's parent-death signal), so
    // a crashed or killed parent leaves no server on its port; the check covers a parent that died
    // before the child got this far.
    const pid_t parent = ::getpid();
    d->process->setChildProcessModifier([parent] {
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent)
            ::raise(SIGKILL);
    });
    QProcess *process = d->process.get();
    connect(process, &QProcess::readyRead, this, &LocalRedisProcess::onOutput);
    connect(process, &QProcess::finished, this, [this](int code) { onFinished(code); });
    connect(process, &QProcess::errorOccurred, this, [this, process](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart)
            fail(tr("cannot start %1: %2").arg(label(), process->errorString()));
    });
    d->startTimer.start(d->options.startTimeoutMs);
    process->start();
}

void LocalRedisProcess::onOutput() {
    if (!d->process)
        return;
    d->log += d->process->readAll();
    if (d->log.size() > kMaxLogBytes)
        d->log = d->log.right(kMaxLogBytes);
    if (d->ready)
        return;
    // A sentinel prints no "Ready to accept connections"; its ID comes after it listens.
    const QByteArray marker = d->options.program == Program::Sentinel
                                  ? QByteArrayLiteral("Sentinel ID is")
                                  : QByteArrayLiteral("Ready to accept connections");
    if (!d->log.contains(marker))
        return;
    d->ready = true;
    d->startTimer.stop();
    Q_EMIT ready();
}

void LocalRedisProcess::onFinished(int exitCode) {
    if (!d->process)
        return;
    d->log += d->process->readAll();
    if (d->ending)
        return;
    const QString tail = QString::fromLocal8Bit(d->log.right(400)).trimmed();
    if (d->ready) {
        d->ready = false;
        Q_EMIT exitedUnexpectedly(
            tr("%1 on port %2 exited (code %3): %4").arg(label()).arg(d->port).arg(exitCode).arg(tail));
        return;
    }
    // Someone took the port between our probe and the bind: another port, a few times.
    if (d->log.contains("Address already in use") && --d->attemptsLeft > 0) {
        d->startTimer.stop();
        d->process.release()->deleteLater();
        d->port = 0;
        QTimer::singleShot(0, this, [this] { launch(); });
        return;
    }
    fail(tr("%1 exited before it was ready (code %2): %3").arg(label()).arg(exitCode).arg(tail));
}

void LocalRedisProcess::fail(const QString &message) {
    if (d->ready)
        return;
    d->startTimer.stop();
    d->error = message;
    if (d->process && d->process->state() != QProcess::NotRunning) {
        d->ending = true;
        const qint64 pid = d->process->processId();
        if (pid > 0)
            ::kill(pid_t(pid), SIGKILL);
        d->process->waitForFinished(5000);
    }
    Q_EMIT failed(message);
}

bool LocalRedisProcess::startAndWait(const Options &options) {
    QEventLoop loop;
    bool ok = false;
    bool done = false;
    const auto onReady = connect(this, &LocalRedisProcess::ready, &loop, [&] {
        ok = true;
        done = true;
        loop.quit();
    });
    const auto onFailed = connect(this, &LocalRedisProcess::failed, &loop, [&] {
        done = true;
        loop.quit();
    });
    start(options);
    if (!done)
        loop.exec();
    disconnect(onReady);
    disconnect(onFailed);
    return ok;
}

bool LocalRedisProcess::restart() {
    if (!d->dir || d->port == 0) {
        d->error = tr("restart() before start()");
        return false;
    }
    stop();
    QEventLoop loop;
    bool ok = false;
    bool done = false;
    const auto onReady = connect(this, &LocalRedisProcess::ready, &loop, [&] {
        ok = true;
        done = true;
        loop.quit();
    });
    const auto onFailed = connect(this, &LocalRedisProcess::failed, &loop, [&] {
        done = true;
        loop.quit();
    });
    d->error.clear();
    d->ready = false;
    d->attemptsLeft = 1; // the same port or nothing: clients know this one
    launch();
    if (!done)
        loop.exec();
    disconnect(onReady);
    disconnect(onFailed);
    return ok;
}

void LocalRedisProcess::stop() {
    d->startTimer.stop();
    d->ready = false;
    if (!d->process)
        return;
    d->ending = true;
    if (d->process->state() != QProcess::NotRunning) {
        const qint64 pid = d->process->processId();
        if (pid > 0) {
            ::kill(pid_t(pid), SIGCONT);
            ::kill(pid_t(pid), SIGTERM);
        }
        if (!d->process->waitForFinished(5000)) {
            if (pid > 0)
                ::kill(pid_t(pid), SIGKILL);
            d->process->waitForFinished(5000);
        }
    }
    d->process->disconnect(this);
    d->process.reset();
}

void LocalRedisProcess::kill() {
    d->startTimer.stop();
    d->ready = false;
    if (!d->process)
        return;
    d->ending = true;
    if (d->process->state() != QProcess::NotRunning) {
        const qint64 pid = d->process->processId();
        if (pid > 0)
            ::kill(pid_t(pid), SIGKILL);
        d->process->waitForFinished(5000);
    }
    d->process->disconnect(this);
    d->process.reset();
}

void LocalRedisProcess::suspend() {
    if (d->process && d->process->processId() > 0)
        ::kill(pid_t(d->process->processId()), SIGSTOP);
}

void LocalRedisProcess::resume() {
    if (d->process && d->process->processId() > 0)
        ::kill(pid_t(d->process->processId()), SIGCONT);
}

bool LocalRedisProcess::isReady() const {
    return d->ready;
}

bool LocalRedisProcess::isRunning() const {
    return d->process && d->process->state() == QProcess::Running;
}

qint64 LocalRedisProcess::pid() const {
    return d->process ? d->process->processId() : 0;
}

quint16 LocalRedisProcess::port() const {
    return d->port;
}

QString LocalRedisProcess::directory() const {
    return d->dir ? d->dir->path() : QString();
}

QString LocalRedisProcess::configFile() const {
    return d->dir ? d->dir->path() + QStringLiteral("/redis.conf") : QString();
}

QString LocalRedisProcess::errorString() const {
    return d->error;
}

QByteArray LocalRedisProcess::log() const {
    return d->log;
}

ConnectionSettings LocalRedisProcess::settings() const {
    ConnectionSettings s;
    s.transport = ConnectionSettings::Transport::Tcp;
    s.host = host();
    s.port = d->port;
    return s;
}

} // namespace semscope::redis
