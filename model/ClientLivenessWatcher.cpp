#include "ClientLivenessWatcher.h"

#include "ConnectionController.h"
#include "consul/ConsulSemaphoreStore.h"
#include "consul/NodeHealth.h"
#include "core/audit/AuditedSemaphoreStore.h"
#include "redis/ClientLiveness.h"
#include "redis/RedisSemaphoreStore.h"

#include <QDateTime>
#include <memory>

namespace semscope::model {

using core::ClientLiveness;

namespace {
// The store behind the audit wrapper the app puts around every store.
template <typename T>
T *storeOf(core::SemaphoreStore &store) {
    if (auto *audited = qobject_cast<core::AuditedSemaphoreStore *>(&store))
        return storeOf<T>(audited->inner());
    return qobject_cast<T *>(&store);
}

struct RedisItem {
    QString holderId;
    redis::ClientIdentity identity;
};

struct ConsulItem {
    QString holderId;
    QString node;
    QStringList sessionChecks;
};
} // namespace

ClientLivenessWatcher::ClientLivenessWatcher(QObject *parent)
    : QObject(parent) {
    m_timer.setInterval(1000);
    connect(&m_timer, &QTimer::timeout, this, &ClientLivenessWatcher::pollNow);
}

void ClientLivenessWatcher::setController(ConnectionController *controller) {
    if (controller == m_controller)
        return;
    ++m_generation;
    m_controller = controller;
    m_inFlight = false;
    m_reads = 0;
    m_holders.clear();
    m_goneSince.clear();
    m_seenConnected.clear();
    m_goneAtFirstLook.clear();
    publish({});
    if (!controller)
        m_timer.stop();
}

void ClientLivenessWatcher::setHolders(const QList<core::Holder> &holders) {
    m_holders = holders;
    // A holder not asked about yet is asked about now rather than at the next tick; one that left
    // the table loses its answer.
    bool unanswered = false;
    QHash<QString, ClientLiveness> kept;
    for (const core::Holder &h : holders) {
        if (const auto it = m_byHolder.constFind(h.id); it != m_byHolder.cend())
            kept.insert(h.id, *it);
        else
            unanswered = true;
    }
    if (kept.size() != m_byHolder.size())
        publish(kept);
    if (unanswered && m_timer.isActive())
        pollNow();
}

void ClientLivenessWatcher::setIntervalMs(int ms) {
    m_timer.setInterval(std::max(200, ms));
}

void ClientLivenessWatcher::start() {
    m_timer.start();
    pollNow();
}

void ClientLivenessWatcher::stop() {
    m_timer.stop();
}

std::optional<ClientLiveness> ClientLivenessWatcher::livenessOf(const QString &holderId) const {
    const auto it = m_byHolder.constFind(holderId);
    if (it == m_byHolder.cend())
        return std::nullopt;
    return *it;
}

void ClientLivenessWatcher::pollNow() {
    if (!m_controller || m_inFlight || m_holders.isEmpty())
        return;
    if (m_controller->config().backend == core::Backend::Consul)
        pollConsul();
    else
        pollRedis();
}

void ClientLivenessWatcher::pollRedis() {
    QList<RedisItem> items;
    for (const core::Holder &h : std::as_const(m_holders)) {
        if (auto id = redis::clientIdentityOf(h))
            items.append({h.id, *id});
    }
    if (items.isEmpty()) {
        publish({});
        return;
    }
    m_inFlight = true;
    const quint64 generation = m_generation;
    redis::ClientListRead notConnected;
    notConnected.error = tr("not connected");
    m_controller->call<redis::ClientListRead>(
        [](core::SemaphoreStore &store, core::Callback<redis::ClientListRead> deliver) {
            auto *redisStore = storeOf<redis::RedisSemaphoreStore>(store);
            if (!redisStore) {
                redis::ClientListRead r;
                r.error = tr("not a Redis connection");
                deliver(r);
                return;
            }
            redis::readClientList(redisStore->topology(), deliver);
        },
        notConnected, this,
        [this, generation, items](redis::ClientListRead read) {
            if (generation != m_generation)
                return;
            m_inFlight = false;
            ++m_reads;
            const qint64 now = QDateTime::currentMSecsSinceEpoch();
            QHash<QString, ClientLiveness> out;
            for (const RedisItem &item : items) {
                const QString key = item.identity.key();
                out.insert(
                    item.holderId,
                    remember(key, redis::livenessFromRead(item.identity, read, m_seenConnected.contains(key)),
                             now));
            }
            publish(out);
        });
}

void ClientLivenessWatcher::pollConsul() {
    QList<ConsulItem> items;
    QStringList nodes;
    for (const core::Holder &h : std::as_const(m_holders)) {
        const QString node = h.details.value(QStringLiteral("node")).toString();
        if (node.isEmpty())
            continue;
        items.append({h.id, node, h.details.value(QStringLiteral("checks")).toStringList()});
        if (!nodes.contains(node))
            nodes << node;
    }
    if (items.isEmpty()) {
        publish({});
        return;
    }
    m_inFlight = true;
    const quint64 generation = m_generation;
    struct Gather {
        QHash<QString, consul::NodeHealth> byNode;
        qsizetype pending = 0;
    };
    auto gather = std::make_shared<Gather>();
    gather->pending = nodes.size();
    for (const QString &node : std::as_const(nodes)) {
        consul::NodeHealth notConnected;
        notConnected.node = node;
        notConnected.error = tr("not connected");
        m_controller->call<consul::NodeHealth>(
            [node](core::SemaphoreStore &store, core::Callback<consul::NodeHealth> deliver) {
                auto *consulStore = storeOf<consul::ConsulSemaphoreStore>(store);
                if (!consulStore) {
                    consul::NodeHealth h;
                    h.node = node;
                    h.error = tr("not a Consul connection");
                    deliver(h);
                    return;
                }
                consul::readNodeHealth(consulStore->client(), node, deliver);
            },
            notConnected, this,
            [this, generation, gather, items](consul::NodeHealth health) {
                if (generation != m_generation)
                    return;
                gather->byNode.insert(health.node, health);
                if (--gather->pending > 0)
                    return;
                m_inFlight = false;
                ++m_reads;
                const qint64 now = QDateTime::currentMSecsSinceEpoch();
                QHash<QString, ClientLiveness> out;
                for (const ConsulItem &item : items) {
                    out.insert(item.holderId,
                               remember(QStringLiteral("node:") + item.node,
                                        consul::livenessFromNodeHealth(gather->byNode.value(item.node),
                                                                       item.sessionChecks),
                                        now));
                }
                publish(out);
            });
    }
}

ClientLiveness ClientLivenessWatcher::remember(const QString &key, ClientLiveness l, qint64 nowMs) {
    switch (l.state) {
    case ClientLiveness::State::Connected:
        m_seenConnected.insert(key);
        m_goneSince.remove(key);
        m_goneAtFirstLook.remove(key);
        break;
    case ClientLiveness::State::Gone:
        if (!m_goneSince.contains(key)) {
            m_goneSince.insert(key, nowMs);
            // Gone before it was ever seen here: the time is only when semscope first looked.
            if (!m_seenConnected.contains(key))
                m_goneAtFirstLook.insert(key);
        }
        l.goneSinceMs = m_goneSince.value(key);
        l.sinceFirstLook = m_goneAtFirstLook.contains(key);
        break;
    case ClientLiveness::State::Unknown:
        // A read that failed says nothing new: what was remembered stays for the next good read.
        break;
    }
    return l;
}

void ClientLivenessWatcher::publish(QHash<QString, ClientLiveness> byHolder) {
    if (byHolder == m_byHolder)
        return;
    m_byHolder = std::move(byHolder);
    Q_EMIT livenessChanged();
}

} // namespace semscope::model
