#pragma once

#include <QLockFile>
#include <QString>

namespace semscope::core {

// Holds an exclusive lock beside a settings file for one read-modify-write, across processes: the
// app and any number of semscope-cli runs may change the same profiles or connections file at
// once, and each change must start from what the others saved. (QSettings locks only its own
// write, and tells a changed file by size and time, which several writers in one millisecond fool.)
class SettingsFileLock {
public:
    explicit SettingsFileLock(const QString &settingsFile);
    // False when the lock could not be had within 30 s (a writer hung): the caller goes
    // on without it, as before, rather than losing the operator's change.
    bool isLocked() const { return m_locked; }

private:
    QLockFile m_lock;
    bool m_locked = false;
};

} // namespace semscope::core
