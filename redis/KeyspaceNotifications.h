#pragma once

#include "ConnectionSettings.h"
#include "core/SemaphoreChangeHints.h"

#include <QHash>
#include <QObject>
#include <QStringList>
#include <functional>
#include <map>
#include <memory>

namespace semscope::redis {

class RedisConnection;
namespace topology {
class RedisTopology;
}

// Redis keyspace notifications as a hint to re-read a semaphore early (monitor/SemaphoreWatcher
// still re-reads on its interval: notifications are fire-and-forget and may be lost). Used only
// where the server already publishes them (`notify-keyspace-events` with K and a class that covers
// the commands semaphores use): semscope never changes server configuration.
// Subscribes to `__keyspace@<db>__:<key>` for exactly the keys of the semaphores followed, on a dedicated
// connection. A Redis Cluster publishes a key's events only on the master serving its slot: there
// every master is asked in probe(), and each key is followed on its own master (the slot map is
// read again before each followSemaphores(), so a failover or a moved slot moves the subscription too).
//
// As core::SemaphoreChangeHints (what the watchers take) it follows semaphores rather than keys.
// Outside a Cluster it subscribes whatever probe() found: a channel costs nothing while the server
// publishes nothing, and a server whose notifications are turned on later (CONFIG SET) is noticed
// at its first event (publishingStarted()), without a reconnect. On a Cluster, only once probe()
// found every master publishing.
// New keys (setNewKeysWanted): keyevent channels (`__keyevent@<db>__:set`, `:hset`, `:zadd`, …,
// published where notify-keyspace-events has E) name every key those commands write; one that is
// not followed and whose name and type could be a semaphore's (keyRole) is mayHaveAppeared().
class KeyspaceNotifications : public core::SemaphoreChangeHints {
    Q_OBJECT
public:
    explicit KeyspaceNotifications(ConnectionSettings settings, QObject *parent = nullptr);
    ~KeyspaceNotifications() override;

    // CONFIG GET notify-keyspace-events: `done(enabled, setting)`; not enabled when the server (on
    // a Cluster: any master) does not publish keyspace events for these commands, or refuses CONFIG
    // (ACL, renamed command: `setting` then says why; on a Cluster it names the master).
    void probe(std::function<void(bool enabled, const QString &setting)> done);
    // Whether a notify-keyspace-events value covers what semaphore writes do (DEL, EXPIRE, HSET,
    // ZADD, RPUSH, SET..., expiries and evictions).
    static bool coversSemaphores(const QString &setting);

    // Whether the last probe() found the server publishing what semaphores need.
    bool isEnabled() const { return m_enabled; }

    // Follows exactly the keys of these semaphores from now on (subscribes the new ones,
    // unsubscribes the rest), when enabled; a change to one of them is changed(its semaphore).
    void followSemaphores(const QList<core::Snapshot> &snapshots) override;
    void setNewKeysWanted(bool wanted) override;

Q_SIGNALS:
    // The first event arrived while probe() had found the server not publishing: notifications were
    // turned on since (isEnabled() is now true).
    void publishingStarted();

private:
    struct Answer {
        QString node;
        bool enabled = false;
        QString setting;
    };
    void askMasters();
    void finishProbe(const QList<Answer> &answers);
    void follow(const QStringList &keys);
    void subscribe(const QStringList &keys);
    bool isCluster() const;
    QString nodeOf(const QString &key) const; // empty outside a Cluster
    RedisConnection &subscriberOn(const QString &node);
    QByteArray channelOf(const QString &key) const;
    void noteEvent();
    void onKeyEvent(const QByteArray &event, const QByteArray &key);
    static QStringList newKeyEvents();

    ConnectionSettings m_settings;
    std::unique_ptr<topology::RedisTopology> m_topology; // during probe(); kept on a Cluster
    std::function<void(bool, const QString &)> m_probeDone;
    std::map<QString, std::unique_ptr<RedisConnection>> m_subscribers; // by node; "" outside a Cluster
    QHash<QString, QString> m_nodeOfKey;                               // followed key -> its node
    QStringList m_pendingKeys; // asked for while the slot map was being read
    bool m_reloading = false;
    bool m_enabled = false;
    bool m_probed = false;
    bool m_cluster = false;                        // what the last probe() found
    bool m_newKeysWanted = false;                  // subscribed to the keyevent channels (outside a Cluster)
    QHash<QString, core::SemaphoreRef> m_refOfKey; // followSemaphores(): key -> its semaphore
};

} // namespace semscope::redis
