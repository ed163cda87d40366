#pragma once

#include "core/TopologyEvent.h"

#include <QHash>
#include <QObject>
#include <QSet>

namespace semscope::redis::topology {

class RedisTopology;

// Turns what the Redis connection layer notices about the deployment into core::TopologyEvent
// values (DESIGN.md §7): a Sentinel connection's master found and moved (RedisConnection's
// servingNodeChanged), a failover started (failoverStarted), and, on a Cluster, slot ranges that
// changed master (a replica promoted is a failover; anything else a map change) and nodes the
// cluster marks failed, found by comparing each loaded slot map with the previous one. The first
// map loaded is the baseline and says nothing. Lives on the topology's thread.
class TopologyEventSource : public QObject {
    Q_OBJECT
public:
    explicit TopologyEventSource(RedisTopology &topology, QObject *parent = nullptr);

Q_SIGNALS:
    void event(const semscope::core::TopologyEvent &event);

private:
    void onServingNodeChanged(const QString &previous, const QString &current);
    void onFailoverStarted();
    void onFailoverAborted(const QString &reason);
    void onTopologyChanged();

    RedisTopology &m_topology;
    bool m_haveMap = false;
    QHash<QString, QString> m_masterOfRanges;  // "0-5460" -> master host:port
    QHash<QString, QString> m_masterOfReplica; // replica host:port -> its master
    QSet<QString> m_failed;                    // nodes the map marks failed
};

} // namespace semscope::redis::topology
