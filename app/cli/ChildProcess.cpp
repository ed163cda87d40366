#include "ChildProcess.h"

#include <algorithm>
#include <csignal>
#include <limits>
#include <unistd.h>

namespace semscope::cli {

ChildProcess::ChildProcess(Finished finished, FailedToStart failedToStart)
    : m_finished(std::move(finished))
    , m_failedToStart(std::move(failedToStart)) {
    m_process.setProcessChannelMode(QProcess::ForwardedChannels);
    m_process.setInputChannelMode(QProcess::ForwardedInputChannel);
    // In the child, before exec: a group of its own, whose id is its pid.
    m_process.setChildProcessModifier([] { ::setpgid(0, 0); });
    m_killTimer.setSingleShot(true);
    QObject::connect(&m_killTimer, &QTimer::timeout, &m_process, [this] { signalGroup(SIGKILL); });
    QObject::connect(&m_process, &QProcess::finished, &m_process,
                     [this](int code, QProcess::ExitStatus status) {
                         m_killTimer.stop();
                         if (m_reported)
                             return;
                         m_reported = true;
                         // QProcess gives the signal number as the code of a crash: the shells' 128 + signal.
                         m_finished(status == QProcess::CrashExit ? 128 + code : code);
                     });
    QObject::connect(&m_process, &QProcess::errorOccurred, &m_process, [this](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart || m_reported)
            return;
        m_reported = true;
        m_failedToStart(m_process.errorString());
    });
}

ChildProcess::~ChildProcess() {
    if (isRunning()) {
        // Never left behind: it would go on without the slot it was started under.
        m_reported = true;
        signalGroup(SIGKILL);
        m_process.waitForFinished(1000);
    }
}

void ChildProcess::start(const QStringList &command, const QProcessEnvironment &environment) {
    m_process.setProcessEnvironment(environment);
    m_process.start(command.constFirst(), command.mid(1));
    if (m_process.waitForStarted(-1))
        m_pid = m_process.processId();
}

void ChildProcess::stop(qint64 graceMs) {
    if (m_stopping || !isRunning())
        return;
    m_stopping = true;
    signalGroup(SIGTERM);
    m_killTimer.start(int(std::clamp<qint64>(graceMs, 0, std::numeric_limits<int>::max())));
}

void ChildProcess::signalGroup(int signal) {
    if (m_pid <= 0)
        return;
    // The group first; the child alone if it left the group (setsid) or the group is gone already.
    if (::kill(-pid_t(m_pid), signal) != 0)
        ::kill(pid_t(m_pid), signal);
}

} // namespace semscope::cli
