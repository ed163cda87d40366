#include "KeyspaceNotifications.h"

#include "RedisConnection.h"

#include <QPointer>

namespace semscope::redis {

KeyspaceNotifications::KeyspaceNotifications(ConnectionSettings settings, QObject *parent)
    : QObject(parent)
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
    if (!m_commands) {
        m_commands = std::make_unique<RedisConnection>(m_settings);
        m_commands->open();
    }
    QPointer<KeyspaceNotifications> self(this);
    m_commands->command({"CONFIG", "GET", "notify-keyspace-events"}, [self, done](const RedisReply &r) {
        if (!self)
            return;
        const bool refused = r.isError();
        const QString setting = refused ? r.errorMessage()
                                : r.isArray() && r.elements.size() == 2
                                    ? QString::fromUtf8(r.elements.at(1).str)
                                    : QString();
        const bool enabled = !refused && coversSemaphores(setting);
        // Answered from the event loop, not from inside the connection's reply handling: only one
        // question is asked on it, so it goes now, and `done` may delete this object.
        QMetaObject::invokeMethod(
            self,
            [self, done, enabled, setting] {
                if (!self)
                    return;
                self->m_commands.reset();
                done(enabled, setting);
            },
            Qt::QueuedConnection);
    });
}

QByteArray KeyspaceNotifications::channelOf(const QString &key) const {
    return QByteArray("__keyspace@") + QByteArray::number(m_settings.db) + "__:" + key.toUtf8();
}

void KeyspaceNotifications::follow(const QStringList &keys) {
    if (!m_subscriber) {
        m_subscriber = std::make_unique<RedisConnection>(m_settings);
        m_subscriber->open();
    }
    const QSet<QString> wanted(keys.begin(), keys.end());
    for (const QString &key : std::as_const(m_keys))
        if (!wanted.contains(key))
            m_subscriber->unsubscribe(channelOf(key));
    for (const QString &key : wanted) {
        if (m_keys.contains(key))
            continue;
        QPointer<KeyspaceNotifications> self(this);
        m_subscriber->subscribe(channelOf(key), [self, key](const QByteArray &) {
            if (self)
                Q_EMIT self->keyChanged(key);
        });
    }
    m_keys = wanted;
}

} // namespace semscope::redis
