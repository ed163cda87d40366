#pragma once

#include <QSettings>
#include <QString>
#include <memory>

namespace semscope::core {

// Holds an exclusive lock beside a settings file for one read-modify-write, across processes: the
// app and any number of semscope-cli runs may change the same profiles or connections file at
// once, and each change must start from what the others saved. (QSettings locks only its own
// write, and tells a changed file by size and time, which several writers in one millisecond fool.)
//
// The lock is flock(2) on "<file>.rmw-lock": the kernel drops it when its holder exits or crashes,
// so there is no stale lock to guess at. (QLockFile guesses: a waiter that read a lock file its
// holder had only half written took a cut-off PID for a dead process, removed the lock and wrote
// alongside the holder, losing a profile now and then.)
class SettingsFileLock {
public:
    explicit SettingsFileLock(const QString &settingsFile);
    ~SettingsFileLock();
    SettingsFileLock(const SettingsFileLock &) = delete;
    SettingsFileLock &operator=(const SettingsFileLock &) = delete;

    // False when the lock could not be had within 30 s (a writer hung) or the lock file cannot be
    // opened: the caller goes on without it, as before, rather than losing the operator's change.
    bool isLocked() const { return m_locked; }

private:
    int m_fd = -1;
    bool m_locked = false;
};

// A QSettings on `file` that reads the file as it is on disk now. Within one process QSettings
// shares one parsed copy of each file and trusts it while the file's size and time look unchanged;
// a writer under SettingsFileLock must start from what other processes wrote, or it writes back a
// view that misses their change (seen: one of 30 parallel set-limit runs lost). The path goes
// through /proc/self/root so it is new to Qt's per-process cache but names the same file.
std::unique_ptr<QSettings> freshSettings(const QString &file, QSettings::Format format);

} // namespace semscope::core
