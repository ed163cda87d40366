#include "SettingsFileLock.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QThread>
#include <cerrno>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace semscope::core {

namespace {
// Not QSettings' own "<file>.lock": that one is taken inside sync(), which runs under this lock.
QString lockPathFor(const QString &settingsFile) {
    QDir().mkpath(QFileInfo(settingsFile).absolutePath());
    return settingsFile + QStringLiteral(".rmw-lock");
}

// A writer holds the lock for one small file read and write. Waiters retry in short, jittered
// steps, so that tens of writers at once on a loaded machine all get their turn.
constexpr int kWaitMs = 30000;
constexpr int kMinRetryMs = 2;
constexpr int kMaxRetryMs = 20;
} // namespace

SettingsFileLock::SettingsFileLock(const QString &settingsFile) {
    const QByteArray path = QFile::encodeName(lockPathFor(settingsFile));
    m_fd = ::open(path.constData(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (m_fd < 0)
        return;
    const QDeadlineTimer deadline(kWaitMs);
    while (!(m_locked = ::flock(m_fd, LOCK_EX | LOCK_NB) == 0) && !deadline.hasExpired()) {
        if (errno != EWOULDBLOCK && errno != EINTR)
            break; // not a held lock: waiting will not help
        QThread::msleep(QRandomGenerator::global()->bounded(kMinRetryMs, kMaxRetryMs + 1));
    }
}

std::unique_ptr<QSettings> freshSettings(const QString &file, QSettings::Format format) {
    return std::make_unique<QSettings>(QStringLiteral("/proc/self/root") + QFileInfo(file).absoluteFilePath(),
                                       format);
}

SettingsFileLock::~SettingsFileLock() {
    // The lock file stays: removing it would let a waiter lock a file nobody else opens any more.
    if (m_fd >= 0)
        ::close(m_fd); // releases the lock
}

} // namespace semscope::core
