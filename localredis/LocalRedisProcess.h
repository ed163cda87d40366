#pragma once

#include "redis/ConnectionSettings.h"

#include <QByteArray>
#include <QObject>
#include <QString>
#include <QStringList>
#include <memory>

namespace semscope::redis {

// A private redis-server or redis-sentinel on a free loopback port, in its own temporary folder,
// for the demo, the training scenarios, the Sentinel and Cluster helpers and the tests.
//
// - The port is at most 55535, so a cluster node's bus port (port + 10000) fits; with
//   Options::needsBusPort that bus port is checked to be free as well.
// - Persistence is off unless the caller's arguments say otherwise; the folder is removed when the
//   object goes (it survives kill() and stop(), so restart() comes back with the same files).
// - The process is stopped by its PID, never by name, and dies with the program that started it
//   (PR_SET_PDEATHSIG), so a crashed parent leaves no server behind.
// - start() never blocks: ready() or failed() follows from the event loop. startAndWait() is the
//   blocking form for the CLI and test set-up (it runs a local event loop).
//
// Ready means: the process said it accepts connections (redis-server) or that it monitors its
// masters (redis-sentinel), so a client connecting now is answered.
class LocalRedisProcess : public QObject {
    Q_OBJECT
public:
    enum class Program { Server, Sentinel };

    struct Options {
        Program program = Program::Server;
        // Written to <folder>/redis.conf and given as the config file (a sentinel needs one and
        // rewrites it). `port`/`bind`/`dir` are given on the command line by the launcher.
        QString configText;
        // Appended to the command line after the launcher's own arguments (so they win: e.g.
        // "--port 0 --tls-port {port}" for a TLS-only server).
        // "{port}" and "{dir}" stand for the chosen port and the process's folder ("{dir}" also in
        // configText).
        QStringList extraArgs;
        // The cluster bus port (port + 10000) must be free too.
        bool needsBusPort = false;
        // DEBUG for local clients (tests make servers slow with DEBUG SLEEP).
        bool enableDebugCommand = false;
        // Where the temporary folder goes; empty: the system's temporary folder.
        QString temporaryBase;
        // Name shown in messages ("redis-server", "sentinel 2", ...); empty: the program's name.
        QString label;
        int startTimeoutMs = 15000;
    };

    explicit LocalRedisProcess(QObject *parent = nullptr);
    ~LocalRedisProcess() override; // stop()

    // Finds the program on PATH, picks a port, makes the folder and starts it; ready() or failed()
    // follows. A port taken between the probe and the bind is retried with another one.
    void start(const Options &options);
    // The same, waiting until ready or failed. False and errorString() on failure.
    bool startAndWait(const Options &options);
    // Starts again on the same port, in the same folder, with the same options (blocking).
    bool restart();

    // SIGCONT (a stopped process handles SIGTERM only once it runs) and SIGTERM to our PID; SIGKILL if
    // it has not gone within 5 s. Blocks until it has gone.
    void stop();
    // SIGKILL to our PID: a crash. Port and folder stay for restart().
    void kill();
    // SIGSTOP / SIGCONT to our PID: a hung process that reads and answers nothing.
    void suspend();
    void resume();

    bool isReady() const;
    bool isRunning() const;
    qint64 pid() const;
    quint16 port() const;
    QString host() const { return QStringLiteral("127.0.0.1"); }
    QString directory() const;
    QString configFile() const;
    QString label() const;
    QString errorString() const;
    // The last 64 KiB the process printed (its log goes to stdout).
    QByteArray log() const;
    // Plain TCP settings for this process (no credentials).
    ConnectionSettings settings() const;

    // A free loopback TCP port ≤ 55535 (and port + 10000 free too with needsBusPort); 0 if none.
    static quint16 freeLoopbackPort(bool needsBusPort = false);
    // The executable for `program`: redis-sentinel, or redis-server run with --sentinel when only
    // that is installed. Empty when neither is on PATH.
    static QString findProgram(Program program, bool *asServerSentinel = nullptr);

Q_SIGNALS:
    void ready();
    void failed(const QString &message);
    // The process ended without stop() or kill() (after it was ready).
    void exitedUnexpectedly(const QString &message);

private:
    void launch();
    void onOutput();
    void onFinished(int exitCode);
    void fail(const QString &message);
    QStringList arguments(bool sentinelViaServer) const;
    bool writeConfig(QString *error);

    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace semscope::redis
