#pragma once

#include "ConnectionConfig.h"

#include <QList>
#include <QObject>

namespace semscope::model {

// The saved connections, kept in QSettings under "connections/<id>". Secrets are never written here.
class ConnectionRegistry : public QObject {
    Q_OBJECT
public:
    // `settingsFile` empty: the application's default QSettings.
    explicit ConnectionRegistry(QString settingsFile = {}, QObject *parent = nullptr);

    const QList<ConnectionConfig> &connections() const { return m_connections; }
    std::optional<ConnectionConfig> find(const QString &id) const;

    // Adds or replaces (by id) and saves at once. Both are a read-modify-write of the file under a
    // lock, so changes made meanwhile by another window or process are kept.
    void upsert(const ConnectionConfig &config);
    void remove(const QString &id);
    void reload();

Q_SIGNALS:
    void changed();

private:
    QString fileName() const;
    void save();
    QString m_settingsFile;
    QList<ConnectionConfig> m_connections;
};

} // namespace semscope::model
