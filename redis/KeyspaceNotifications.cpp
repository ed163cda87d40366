#include "KeyspaceNotifications.h"

#include "RedisConnection.h"
#include "topology/RedisTopology.h"

#include "core/CountText.h"
#include "redis/KindRecognition.h"

#include <QPointer>

namespace semscope::redis {

KeyspaceNotifications::KeyspaceNotifications(ConnectionSettings settings, QObject *parent)
    : core::SemaphoreChangeHints(parent)
    , m_settings(std::move(settings)) {}

KeyspaceNotifications::~KeyspaceNotifications() = default;

bool KeyspaceNotifications::coversSemaphores(const QString &setting) {
    // K: keyspace channel; A is every class; otherwise one of the classes semaphore writes touch
    // (generic, string, list, hash, zset, expired, evicted).
    if (!setting.contains(QLatin1Char('K')))
        return false;
    for (const QChar c : QStringLiteral("Ag$lhzxe"))
        if (setting.contains(c))
            return true;
    return false;
}

void KeyspaceNotifications::probe(std::function<void(bool, const QString &)> done) {
    m_probeDone = std::move(done);
    m_topology = std::make_unique<topology::RedisTopology>(m_settings);
    m_topology->open();
    QPointer<KeyspaceNotifications> self(this);
    m_topology->detect([self](const QString &error) {
        if (!self)
            return;
        if (!error.isEmpty()) {
            self->finishProbe({Answer{QString(), false, error}});
            return;
        }
        self->askMasters();
    });
}

// Each master publishes the events of its own keys only: on a Cluster all of them must publish.
void KeyspaceNotifications::askMasters() {
    const QList<RedisConnection *> masters = m_topology->masterConnections();
    if (masters.isEmpty()) {
        finishProbe({Answer{QString(), false, QStringLiteral("the cluster has no master serving slots")}});
        return;
    }
    auto answers = std::make_shared<QList<Answer>>();
    auto left = std::make_shared<qsizetype>(masters.size());
    QPointer<KeyspaceNotifications> self(this);
    for (RedisConnection *master : masters) {
        const QString node = isCluster() ? master->settings().nodeAddress() : QString();
        master->command({"CONFIG", "GET", "notify-keyspace-events"},
                        [self, node, answers, left](const RedisReply &r) {
                            if (!self)
                                return;
                            Answer a;
                            a.node = node;
                            if (r.isError())
                                a.setting = r.errorMessage();
                            else if (r.isArray() && r.elements.size() == 2)
                                a.setting = QString::fromUtf8(r.elements.at(1).str);
                            a.enabled = !r.isError() && coversSemaphores(a.setting);
                            answers->append(a);
                            if (--*left == 0)
                                self->finishProbe(*answers);
                        });
    }
}

void KeyspaceNotifications::finishProbe(const QList<Answer> &answers) {
    bool enabled = true;
    QStringList off;
    QStringList settings;
    for (const Answer &a : answers) {
        enabled = enabled && a.enabled;
        const QString setting = a.node.isEmpty() || !a.setting.isEmpty() ? a.setting : QStringLiteral("none");
        settings << setting;
        if (!a.enabled && !a.node.isEmpty())
            off << QStringLiteral("%1 (%2)").arg(a.node, setting);
    }
    settings.removeDuplicates();
    QString setting = settings.join(QStringLiteral(", "));
    if (!off.isEmpty())
        setting = QStringLiteral("not on %1").arg(off.join(QStringLiteral(", ")));
    else if (isCluster())
        setting = QStringLiteral("%1 on %2")
                      .arg(setting, core::countText(answers.size(), QStringLiteral("master"),
                                                    QStringLiteral("masters")));
    // Answered from the event loop, not from inside a connection's reply handling: `done` may delete
    // this object.
    QPointer<KeyspaceNotifications> self(this);
    QMetaObject::invokeMethod(
        this,
        [self, enabled, setting] {
            if (!self)
                return;
            self->m_enabled = enabled;
            self->m_probed = true;
            self->m_cluster = self->isCluster();
            // Outside a Cluster the one subscriber needs no map; on a Cluster it says where keys
            // live. Not publishing: nothing to keep a connection open for.
            if (!self->isCluster() || !enabled)
                self->m_topology.reset();
            const auto done = std::exchange(self->m_probeDone, {});
            if (done)
                done(enabled, setting);
        },
        Qt::QueuedConnection);
}

bool KeyspaceNotifications::isCluster() const {
    return m_topology && m_topology->mode() == topology::RedisTopology::Mode::Cluster;
}

QString KeyspaceNotifications::nodeOf(const QString &key) const {
    return isCluster() ? m_topology->nodeOfKey(key.toUtf8()) : QString();
}

QByteArray KeyspaceNotifications::channelOf(const QString &key) const {
    return QByteArray("__keyspace@") + QByteArray::number(m_settings.db) + "__:" + key.toUtf8();
}

RedisConnection &KeyspaceNotifications::subscriberOn(const QString &node) {
    std::unique_ptr<RedisConnection> &c = m_subscribers[node];
    if (!c) {
        c = std::make_unique<RedisConnection>(node.isEmpty() ? m_settings : m_topology->nodeSettings(node));
        c->open();
    }
    return *c;
}

void KeyspaceNotifications::follow(const QStringList &keys) {
    if (!isCluster()) {
        subscribe(keys);
        return;
    }
    // A failover or a resharding moves keys to another master: the map is read again first (the
    // latest keys asked for meanwhile win; a map that cannot be read leaves the old one).
    m_pendingKeys = keys;
    if (m_reloading)
        return;
    m_reloading = true;
    QPointer<KeyspaceNotifications> self(this);
    m_topology->reloadMap([self](const QString &) {
        if (!self)
            return;
        self->m_reloading = false;
        self->subscribe(std::exchange(self->m_pendingKeys, {}));
    });
}

void KeyspaceNotifications::subscribe(const QStringList &keys) {
    QHash<QString, QString> wanted;
    for (const QString &key : keys)
        wanted.insert(key, nodeOf(key));
    for (auto it = m_nodeOfKey.cbegin(); it != m_nodeOfKey.cend(); ++it) {
        const auto now = wanted.constFind(it.key());
        if (now == wanted.cend() || *now != it.value())
            subscriberOn(it.value()).unsubscribe(channelOf(it.key()));
    }
    QPointer<KeyspaceNotifications> self(this);
    for (auto it = wanted.cbegin(); it != wanted.cend(); ++it) {
        const auto before = m_nodeOfKey.constFind(it.key());
        if (before != m_nodeOfKey.cend() && *before == it.value())
            continue;
        const QString key = it.key();
        subscriberOn(it.value()).subscribe(channelOf(key), [self, key](const QByteArray &) {
            if (!self)
                return;
            self->noteEvent();
            const auto it = self->m_refOfKey.constFind(key);
            if (it != self->m_refOfKey.constEnd())
                Q_EMIT self->changed(*it);
        });
    }
    m_nodeOfKey = wanted;
}

void KeyspaceNotifications::noteEvent() {
    if (m_enabled)
        return;
    m_enabled = true;
    Q_EMIT publishingStarted();
}

void KeyspaceNotifications::followSemaphores(const QList<core::Snapshot> &snapshots) {
    // A Cluster's keys live on several masters, whose map is kept only while they publish.
    if (!m_enabled && (!m_probed || m_cluster))
        return;
    m_refOfKey.clear();
    for (const core::Snapshot &s : snapshots)
        for (const QString &key : s.keys)
            m_refOfKey.insert(key, s.ref);
    follow(m_refOfKey.keys());
}

// The commands that create the keys of semaphore layouts (a SET NX lock, a hash, a zset, a list),
// by their keyevent names; the type each implies.
QStringList KeyspaceNotifications::newKeyEvents() {
    return {QStringLiteral("set"),   QStringLiteral("hset"),  QStringLiteral("hincrby"),
            QStringLiteral("zadd"),  QStringLiteral("lpush"), QStringLiteral("rpush"),
            QStringLiteral("incrby")};
}

void KeyspaceNotifications::setNewKeysWanted(bool wanted) {
    // Outside a Cluster only: there a key's events come from its own master (see the class comment).
    if (wanted == m_newKeysWanted || (wanted && m_cluster))
        return;
    m_newKeysWanted = wanted;
    QPointer<KeyspaceNotifications> self(this);
    const QByteArray prefix = QByteArray("__keyevent@") + QByteArray::number(m_settings.db) + "__:";
    for (const QString &event : newKeyEvents()) {
        const QByteArray channel = prefix + event.toUtf8();
        if (!wanted) {
            subscriberOn(QString()).unsubscribe(channel);
            continue;
        }
        subscriberOn(QString()).subscribe(channel, [self, event = event.toUtf8()](const QByteArray &key) {
            if (self)
                self->onKeyEvent(event, key);
        });
    }
}

void KeyspaceNotifications::onKeyEvent(const QByteArray &event, const QByteArray &key) {
    noteEvent();
    if (m_refOfKey.contains(QString::fromUtf8(key)))
        return; // a followed semaphore: its keyspace channel reads it
    QByteArray type = "string";
    if (event.startsWith('h'))
        type = "hash";
    else if (event.startsWith('z'))
        type = "zset";
    else if (event.endsWith("push"))
        type = "list";
    if (keyRole(key, type).candidate)
        Q_EMIT mayHaveAppeared(QString::fromUtf8(key));
}

} // namespace semscope::redis
