#include "TopologyEventSource.h"

#include "RedisTopology.h"

namespace semscope::redis::topology {

using core::TopologyEvent;

namespace {

bool isFailedHealth(const QString &health) {
    return health.startsWith(QLatin1String("fail"));
}

} // namespace

TopologyEventSource::TopologyEventSource(RedisTopology &topology, QObject *parent)
    : QObject(parent)
    , m_topology(topology) {
    RedisConnection &entry = topology.entry();
    connect(&entry, &RedisConnection::servingNodeChanged, this, &TopologyEventSource::onServingNodeChanged);
    connect(&entry, &RedisConnection::failoverStarted, this, &TopologyEventSource::onFailoverStarted);
    connect(&entry, &RedisConnection::failoverAborted, this, &TopologyEventSource::onFailoverAborted);
    connect(&topology, &RedisTopology::topologyChanged, this, &TopologyEventSource::onTopologyChanged);
}

void TopologyEventSource::onServingNodeChanged(const QString &previous, const QString &current) {
    const ConnectionSettings &settings = m_topology.settings();
    if (!settings.usesSentinel())
        return; // a standalone server or a Cluster entry node: the address never moves
    const QString via = m_topology.entry().servingSentinel();
    if (previous.isEmpty()) {
        Q_EMIT event(TopologyEvent::make(TopologyEvent::Kind::MasterFound,
                                         QStringLiteral("master %1 via sentinel %2").arg(current, via), {},
                                         current, via));
        return;
    }
    Q_EMIT event(
        TopologyEvent::make(TopologyEvent::Kind::MasterSwitched,
                            QStringLiteral("failover: master moved from %1 to %2").arg(previous, current),
                            previous, current, via));
}

void TopologyEventSource::onFailoverStarted() {
    const QString master = m_topology.entry().lastServingNode();
    Q_EMIT event(TopologyEvent::make(
        TopologyEvent::Kind::FailoverStarted,
        QStringLiteral("failover started: the sentinels are promoting a replica of '%1' (master was %2); "
                       "commands wait for the new master")
            .arg(m_topology.settings().sentinelMaster, master),
        master));
}

void TopologyEventSource::onFailoverAborted(const QString &reason) {
    const QString master = m_topology.entry().lastServingNode();
    Q_EMIT event(TopologyEvent::make(
        TopologyEvent::Kind::FailoverAborted,
        QStringLiteral(
            "failover aborted (%1): the sentinels gave up; '%2' stays on %3, commands resume there")
            .arg(reason, m_topology.settings().sentinelMaster, master),
        master));
}

void TopologyEventSource::onTopologyChanged() {
    if (m_topology.mode() != RedisTopology::Mode::Cluster)
        return;
    const ClusterMap &map = m_topology.clusterMap();
    if (map.isEmpty())
        return;
    QHash<QString, QString> masterOfRanges;
    QHash<QString, QString> masterOfReplica;
    QSet<QString> failed;
    for (const ClusterShard &shard : map.shards()) {
        const QString master = shard.master.address();
        if (shard.slotCount() > 0)
            masterOfRanges.insert(shard.rangesText(), master);
        if (isFailedHealth(shard.master.health))
            failed.insert(master);
        for (const ClusterNode &r : shard.replicas) {
            masterOfReplica.insert(r.address(), master);
            if (isFailedHealth(r.health))
                failed.insert(r.address());
        }
    }
    // A MOVED patches single slots into the map before the reload brings the whole picture: only
    // maps whose ranges cover the same slots as before are compared range by range.
    if (m_haveMap) {
        bool sameRanges = masterOfRanges.size() == m_masterOfRanges.size();
        for (auto it = masterOfRanges.cbegin(); sameRanges && it != masterOfRanges.cend(); ++it)
            sameRanges = m_masterOfRanges.contains(it.key());
        if (sameRanges) {
            for (auto it = masterOfRanges.cbegin(); it != masterOfRanges.cend(); ++it) {
                const QString before = m_masterOfRanges.value(it.key());
                if (before == it.value())
                    continue;
                // The new master was a replica of the old one: a failover (manual or automatic).
                const bool promoted = m_masterOfReplica.value(it.value()) == before;
                if (promoted) {
                    Q_EMIT event(
                        TopologyEvent::make(TopologyEvent::Kind::MasterSwitched,
                                            QStringLiteral("failover: master of slots %1 moved from %2 to %3")
                                                .arg(it.key(), before, it.value()),
                                            before, it.value()));
                } else {
                    Q_EMIT event(TopologyEvent::make(TopologyEvent::Kind::MapChanged,
                                                     QStringLiteral("slots %1 now served by %2 (was %3)")
                                                         .arg(it.key(), it.value(), before),
                                                     before, it.value()));
                }
            }
        } else {
            QStringList parts;
            for (auto it = masterOfRanges.cbegin(); it != masterOfRanges.cend(); ++it)
                parts << QStringLiteral("%1 serves %2").arg(it.value(), it.key());
            parts.sort();
            Q_EMIT event(
                TopologyEvent::make(TopologyEvent::Kind::MapChanged,
                                    QStringLiteral("slot map changed: ") + parts.join(QStringLiteral("; "))));
        }
        for (const QString &node : std::as_const(failed)) {
            if (!m_failed.contains(node))
                Q_EMIT event(TopologyEvent::make(
                    TopologyEvent::Kind::NodeDown,
                    QStringLiteral("node %1 is down: the cluster marks it failed").arg(node), {}, node));
        }
    }
    m_haveMap = true;
    m_masterOfRanges = masterOfRanges;
    m_masterOfReplica = masterOfReplica;
    m_failed = failed;
}

} // namespace semscope::redis::topology
