#pragma once

#include "SemaphoreTypes.h"

#include <QSettings>
#include <memory>
#include <optional>

namespace semscope::core {

// Per-connection semaphore profiles: the limit, timeout and score unit of layouts that do not store
// them (`fair`, `zset`, `slots` before initialisation, node-semaphore). Kept in QSettings, keyed by
// connection endpoint + kind + name, never in the user's Redis. Each value keeps its own provenance
// (SemaphoreProfile::inferred, timeoutInferred, unitInferred): entered values are saved as not
// inferred, a value semscope guessed stays marked so every view can mark it.
class ProfileStore {
public:
    // Uses the user's profiles file (~/.config/semscope/profiles.conf), one file for the GUI and
    // semscope-cli: a limit set with `set-limit` shows in the app and the other way round.
    ProfileStore();
    // Uses `settings` (not owned; must outlive the store). Tests pass an INI file here.
    explicit ProfileStore(QSettings *settings);
    ~ProfileStore();

    std::optional<SemaphoreProfile> load(const QString &endpoint, Kind kind, const QString &name) const;
    void save(const QString &endpoint, Kind kind, const QString &name, const SemaphoreProfile &profile);
    void remove(const QString &endpoint, Kind kind, const QString &name);
    // Every semaphore with a stored profile on `endpoint` (kind, name and profile), for discovery:
    // a profile the operator added names a semaphore even when nothing in the server marks it.
    QList<SemaphoreRef> named(const QString &endpoint) const;

    // The profile to use for `ref` on `endpoint`: the stored one where it has a value, the
    // inferred values in `ref.profile` for the rest, each with the provenance of where it came from.
    SemaphoreProfile resolve(const QString &endpoint, const SemaphoreRef &ref) const;

    static QString scoreUnitName(ScoreUnit unit);
    static std::optional<ScoreUnit> scoreUnitFromName(const QString &name);

private:
    QString groupFor(const QString &endpoint, Kind kind, const QString &name) const;

    std::unique_ptr<QSettings> m_owned;
    QSettings *m_settings = nullptr;
};

} // namespace semscope::core
