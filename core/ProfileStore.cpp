#include "ProfileStore.h"

#include "SettingsFileLock.h"

#include <QUrl>

namespace semscope::core {

namespace {
const QString kLimit = QStringLiteral("limit");
const QString kTimeout = QStringLiteral("timeoutMs");
const QString kUnit = QStringLiteral("scoreUnit");
// Per value: "inferred" is the limit's (the one flag older files have; read as the limit's, the
// cautious reading), the others the timeout's and the unit's.
const QString kInferred = QStringLiteral("inferred");
const QString kTimeoutInferred = QStringLiteral("timeoutInferred");
const QString kUnitInferred = QStringLiteral("unitInferred");
const QString kOuterLock = QStringLiteral("outerLockKey");

// Endpoints and names contain '/', which QSettings reads as a group separator.
QString encode(const QString &part) {
    return QString::fromLatin1(QUrl::toPercentEncoding(part));
}
} // namespace

ProfileStore::ProfileStore()
    : m_owned(std::make_unique<QSettings>(QSettings::UserScope, QStringLiteral("semscope"),
                                          QStringLiteral("profiles")))
    , m_settings(m_owned.get()) {}

ProfileStore::ProfileStore(QSettings *settings)
    : m_settings(settings) {}

ProfileStore::~ProfileStore() = default;

QString ProfileStore::groupFor(const QString &endpoint, Kind kind, const QString &name) const {
    return QStringLiteral("profiles/") + encode(endpoint) + QLatin1Char('/') + kindName(kind) +
           QLatin1Char('/') + encode(name);
}

std::optional<SemaphoreProfile> ProfileStore::load(const QString &endpoint, Kind kind,
                                                   const QString &name) const {
    m_settings->beginGroup(groupFor(endpoint, kind, name));
    const QStringList stored = m_settings->childKeys();
    std::optional<SemaphoreProfile> result;
    if (!stored.isEmpty()) {
        SemaphoreProfile profile;
        bool ok = false;
        const qint64 limit = m_settings->value(kLimit).toLongLong(&ok);
        if (ok && limit > 0)
            profile.limit = limit;
        const qint64 timeout = m_settings->value(kTimeout).toLongLong(&ok);
        if (ok && timeout > 0)
            profile.timeoutMs = timeout;
        profile.scoreUnit = scoreUnitFromName(m_settings->value(kUnit).toString()).value_or(ScoreUnit::Auto);
        profile.inferred = m_settings->value(kInferred, false).toBool();
        profile.timeoutInferred = m_settings->value(kTimeoutInferred, false).toBool();
        profile.unitInferred = m_settings->value(kUnitInferred, false).toBool();
        profile.outerLockKey = m_settings->value(kOuterLock).toString();
        result = profile;
    }
    m_settings->endGroup();
    return result;
}

void ProfileStore::save(const QString &endpoint, Kind kind, const QString &name,
                        const SemaphoreProfile &profile) {
    const SettingsFileLock lock(m_settings->fileName());
    // Written through a fresh view of the file (what other processes saved since this store read
    // it), then this store's own view catches up.
    const std::unique_ptr<QSettings> file = freshSettings(m_settings->fileName(), m_settings->format());
    file->remove(groupFor(endpoint, kind, name));
    file->beginGroup(groupFor(endpoint, kind, name));
    if (profile.limit)
        file->setValue(kLimit, *profile.limit);
    if (profile.timeoutMs)
        file->setValue(kTimeout, *profile.timeoutMs);
    file->setValue(kUnit, scoreUnitName(profile.scoreUnit));
    file->setValue(kInferred, profile.inferred);
    file->setValue(kTimeoutInferred, profile.timeoutInferred);
    file->setValue(kUnitInferred, profile.unitInferred);
    if (!profile.outerLockKey.isEmpty())
        file->setValue(kOuterLock, profile.outerLockKey);
    file->endGroup();
    file->sync();
    m_settings->sync();
}

void ProfileStore::remove(const QString &endpoint, Kind kind, const QString &name) {
    const SettingsFileLock lock(m_settings->fileName());
    const std::unique_ptr<QSettings> file = freshSettings(m_settings->fileName(), m_settings->format());
    file->remove(groupFor(endpoint, kind, name));
    file->sync();
    m_settings->sync();
}

QList<SemaphoreRef> ProfileStore::named(const QString &endpoint) const {
    QList<SemaphoreRef> refs;
    m_settings->beginGroup(QStringLiteral("profiles/") + encode(endpoint));
    const QStringList kinds = m_settings->childGroups();
    m_settings->endGroup();
    for (const QString &kindText : kinds) {
        const std::optional<Kind> kind = kindFromName(kindText);
        if (!kind)
            continue;
        m_settings->beginGroup(QStringLiteral("profiles/") + encode(endpoint) + QLatin1Char('/') + kindText);
        const QStringList names = m_settings->childGroups();
        m_settings->endGroup();
        for (const QString &encoded : names) {
            SemaphoreRef ref;
            ref.kind = *kind;
            ref.name = QUrl::fromPercentEncoding(encoded.toLatin1());
            if (const auto profile = load(endpoint, ref.kind, ref.name)) {
                ref.profile = *profile;
                refs << ref;
            }
        }
    }
    return refs;
}

SemaphoreProfile ProfileStore::resolve(const QString &endpoint, const SemaphoreRef &ref) const {
    const std::optional<SemaphoreProfile> stored = load(endpoint, ref.kind, ref.name);
    if (!stored)
        return ref.profile;
    // Each value keeps the provenance of where it came from: the stored one, else the guess.
    SemaphoreProfile result = *stored;
    if (!result.limit && ref.profile.limit) {
        result.limit = ref.profile.limit;
        result.inferred = ref.profile.inferred;
    }
    if (!result.timeoutMs && ref.profile.timeoutMs) {
        result.timeoutMs = ref.profile.timeoutMs;
        result.timeoutInferred = ref.profile.timeoutInferred;
    }
    if (result.scoreUnit == ScoreUnit::Auto && ref.profile.scoreUnit != ScoreUnit::Auto) {
        result.scoreUnit = ref.profile.scoreUnit;
        result.unitInferred = ref.profile.unitInferred;
    }
    if (result.outerLockKey.isEmpty())
        result.outerLockKey = ref.profile.outerLockKey;
    return result;
}

QString ProfileStore::scoreUnitName(ScoreUnit unit) {
    switch (unit) {
    case ScoreUnit::Seconds:
        return QStringLiteral("s");
    case ScoreUnit::Milliseconds:
        return QStringLiteral("ms");
    case ScoreUnit::Auto:
        break;
    }
    return QStringLiteral("auto");
}

std::optional<ScoreUnit> ProfileStore::scoreUnitFromName(const QString &name) {
    const QString n = name.trimmed().toLower();
    if (n == QLatin1String("s") || n == QLatin1String("seconds"))
        return ScoreUnit::Seconds;
    if (n == QLatin1String("ms") || n == QLatin1String("milliseconds"))
        return ScoreUnit::Milliseconds;
    if (n == QLatin1String("auto"))
        return ScoreUnit::Auto;
    return std::nullopt;
}

} // namespace semscope::core
