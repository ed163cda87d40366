#pragma once

#include <QProcess>
#include <QStringList>
#include <QTimer>
#include <functional>

namespace semscope::cli {

// The COMMAND of `semscope-cli run`. It gets this process's stdin, stdout and stderr and runs in a
// process group of its own, so that stopping it stops what it started as well (a shell script's
// children would otherwise go on holding nothing). Stopping is SIGTERM to the group, then SIGKILL
// once the grace period is over, as `consul lock` does.
class ChildProcess {
public:
    // `exitCode` follows the shells: the child's own code, or 128 + the signal that ended it.
    using Finished = std::function<void(int exitCode)>;
    using FailedToStart = std::function<void(const QString &why)>;

    ChildProcess(Finished finished, FailedToStart failedToStart);
    ~ChildProcess();
    ChildProcess(const ChildProcess &) = delete;
    ChildProcess &operator=(const ChildProcess &) = delete;

    void start(const QStringList &command, const QProcessEnvironment &environment);
    bool isRunning() const { return m_process.state() != QProcess::NotRunning; }
    // SIGTERM to its group now and SIGKILL after `graceMs`; a second call changes nothing.
    void stop(qint64 graceMs);
    bool stopping() const { return m_stopping; }

private:
    void signalGroup(int signal);

    QProcess m_process;
    QTimer m_killTimer;
    qint64 m_pid = 0;
    bool m_stopping = false;
    bool m_reported = false;
    Finished m_finished;
    FailedToStart m_failedToStart;
};

} // namespace semscope::cli
