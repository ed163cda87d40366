#pragma once

#include "ConnectionSettings.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QStringList>
#include <functional>
#include <memory>

namespace semscope::redis {

class RedisConnection;

// Redis keyspace notifications as a hint to re-read a semaphore early (monitor/SemaphoreWatcher
// still re-reads on its interval: notifications are fire-and-forget and may be lost). Used only
// where the server already publishes them (`notify-keyspace-events` with K and a class that covers
// the commands semaphores use): semscope never changes server configuration.
// Subscribes to `__keyspace@<db>__:<key>` for exactly the keys given to follow() on a dedicated
// connection.
class KeyspaceNotifications : public QObject {
    Q_OBJECT
public:
    explicit KeyspaceNotifications(ConnectionSettings settings, QObject *parent = nullptr);
    ~KeyspaceNotifications() override;

    // CONFIG GET notify-keyspace-events: `done(enabled, setting)`; not enabled when the server does
    // not publish keyspace events for these commands, or refuses CONFIG (ACL, renamed command:
    // `setting` then says why).
    void probe(std::function<void(bool enabled, const QString &setting)> done);
    // Whether a notify-keyspace-events value covers what semaphore writes do (DEL, EXPIRE, HSET,
    // ZADD, RPUSH, SET..., expiries and evictions).
    static bool coversSemaphores(const QString &setting);

    // Follows exactly these keys from now on (subscribes the new ones, unsubscribes the rest).
    void follow(const QStringList &keys);
    int followedCount() const { return int(m_keys.size()); }

Q_SIGNALS:
    void keyChanged(const QString &key);

private:
    QByteArray channelOf(const QString &key) const;

    ConnectionSettings m_settings;
    std::unique_ptr<RedisConnection> m_commands;
    std::unique_ptr<RedisConnection> m_subscriber;
    QSet<QString> m_keys;
};

} // namespace semscope::redis
