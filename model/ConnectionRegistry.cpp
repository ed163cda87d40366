#include "ConnectionRegistry.h"

#include "core/SettingsFileLock.h"

#include <QSettings>
#include <memory>

namespace semscope::model {

namespace {
std::unique_ptr<QSettings> openSettings(const QString &file) {
    if (file.isEmpty())
        return std::make_unique<QSettings>();
    return std::make_unique<QSettings>(file, QSettings::IniFormat);
}

// The file as other windows and processes left it (see core::freshSettings): the list is read and
// written whole, so a stale view would drop their connections.
std::unique_ptr<QSettings> openFreshSettings(const QString &file) {
    const std::unique_ptr<QSettings> plain = openSettings(file);
    return core::freshSettings(plain->fileName(), plain->format());
}
} // namespace

ConnectionRegistry::ConnectionRegistry(QString settingsFile, QObject *parent)
    : QObject(parent)
    , m_settingsFile(std::move(settingsFile)) {
    reload();
}

std::optional<ConnectionConfig> ConnectionRegistry::find(const QString &id) const {
    for (const auto &c : m_connections) {
        if (c.id == id)
            return c;
    }
    return std::nullopt;
}

QString ConnectionRegistry::fileName() const {
    return openSettings(m_settingsFile)->fileName();
}

void ConnectionRegistry::upsert(const ConnectionConfig &config) {
    const core::SettingsFileLock lock(fileName());
    reload(); // start from what other windows and processes saved, not from what this one read
    ConnectionConfig stored = config;
    stored.secret.clear(); // the registry never holds a secret, not even in memory
    stored.sentinelSecret.clear();
    bool replaced = false;
    for (auto &c : m_connections) {
        if (c.id == stored.id) {
            c = stored;
            replaced = true;
        }
    }
    if (!replaced)
        m_connections.append(stored);
    save();
    Q_EMIT changed();
}

void ConnectionRegistry::remove(const QString &id) {
    const core::SettingsFileLock lock(fileName());
    reload();
    m_connections.removeIf([&](const ConnectionConfig &c) { return c.id == id; });
    save();
    Q_EMIT changed();
}

void ConnectionRegistry::reload() {
    m_connections.clear();
    auto settings = openFreshSettings(m_settingsFile);
    const int n = settings->beginReadArray(QStringLiteral("connections"));
    for (int i = 0; i < n; ++i) {
        settings->setArrayIndex(i);
        auto c = ConnectionConfig::load(*settings);
        if (!c.id.isEmpty())
            m_connections.append(c);
    }
    settings->endArray();
}

void ConnectionRegistry::save() {
    auto settings = openFreshSettings(m_settingsFile);
    settings->remove(QStringLiteral("connections"));
    settings->beginWriteArray(QStringLiteral("connections"), int(m_connections.size()));
    for (int i = 0; i < m_connections.size(); ++i) {
        settings->setArrayIndex(i);
        m_connections.at(i).save(*settings);
    }
    settings->endArray();
    settings->sync();
}

} // namespace semscope::model
