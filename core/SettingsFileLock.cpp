#include "SettingsFileLock.h"

#include <QDir>
#include <QFileInfo>

namespace semscope::core {

namespace {
// Not QSettings' own "<file>.lock": that one is taken inside sync(), which runs under this lock.
QString lockPathFor(const QString &settingsFile) {
    QDir().mkpath(QFileInfo(settingsFile).absolutePath());
    return settingsFile + QStringLiteral(".rmw-lock");
}
} // namespace

SettingsFileLock::SettingsFileLock(const QString &settingsFile)
    : m_lock(lockPathFor(settingsFile)) {
    m_lock.setStaleLockTime(30000);
    m_locked = m_lock.tryLock(10000);
}

} // namespace semscope::core
