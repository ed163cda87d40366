#include "SettingsFileLock.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QThread>

namespace semscope::core {

namespace {
// Not QSettings' own "<file>.lock": that one is taken inside sync(), which runs under this lock.
QString lockPathFor(const QString &settingsFile) {
    QDir().mkpath(QFileInfo(settingsFile).absolutePath());
    return settingsFile + QStringLiteral(".rmw-lock");
}

// A writer holds the lock for one small file read and write. QLockFile::tryLock(timeout) backs off
// exponentially (100 ms, 200 ms, ... 3.2 s), so with tens of writers at once on a loaded machine a
// waiter slept through every free moment and gave up after 10 s: short, jittered retries instead.
constexpr int kWaitMs = 30000;
constexpr int kMinRetryMs = 2;
constexpr int kMaxRetryMs = 20;
} // namespace

SettingsFileLock::SettingsFileLock(const QString &settingsFile)
    : m_lock(lockPathFor(settingsFile)) {
    m_lock.setStaleLockTime(kWaitMs);
    const QDeadlineTimer deadline(kWaitMs);
    while (!(m_locked = m_lock.tryLock(0)) && !deadline.hasExpired()) {
        if (m_lock.error() != QLockFile::LockFailedError)
            break; // no permission or no such folder: waiting will not help
        QThread::msleep(QRandomGenerator::global()->bounded(kMinRetryMs, kMaxRetryMs + 1));
    }
}

} // namespace semscope::core
