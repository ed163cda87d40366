#pragma once

#include "RedisServer.h"
#include "redis/topology/ClusterMap.h"

#include <QList>
#include <memory>
#include <optional>
#include <vector>

namespace semscope::redis::topology {
class RedisTopology;
}

namespace semscope::test {

// A real Redis Cluster for tests: `masters` redis-server nodes with `--cluster-enabled yes` on free
// loopback ports (at most 55535, bus port = port + 10000), each with `replicasPerMaster` replicas,
// formed by redis::ClusterFormation (CLUSTER ADDSLOTSRANGE, MEET, REPLICATE, as the demo's cluster is)
// and ready when every node reports cluster_state:ok, knows every node and every replica's link is
// up (polled, no fixed sleeps).
// Slots are split evenly between the masters in order. Every node is stopped by PID.
class RedisCluster {
public:
    struct Options {
        int masters = 3;
        int replicasPerMaster = 1;
        bool tls = false;
    };

    RedisCluster();
    ~RedisCluster();

    bool start(const Options &options);
    bool start() { return start(Options()); }
    QString errorString() const { return m_error; }

    // Nodes in start order: masters first, then replicas (replica i of master m at
    // masters + m * replicasPerMaster + i). Roles change after a failover; node() stays.
    int nodeCount() const { return int(m_nodes.size()); }
    RedisServer &node(int i) { return *m_nodes.at(size_t(i)); }
    // The node whose port is `port`, or nullptr.
    RedisServer *nodeByPort(quint16 port);
    // The node that serves `slot` as master right now (asks CLUSTER SHARDS of a live node).
    RedisServer *masterOfSlot(int slot);
    // The slot map as the first running node tells it (CLUSTER SHARDS); nullopt and `error` if none can.
    std::optional<redis::topology::ClusterMap> slotMap(QString *error = nullptr);
    QByteArray nodeId(int i);

    // "redis://127.0.0.1:<first node>" (rediss:// with tls).
    QString url() const;
    redis::ConnectionSettings settings() const { return m_nodes.front()->settings(); }

    // Synchronous helper for set-up and inspection: the command goes to the master of args[1]'s
    // slot (any node when there is no key), following redirects.
    redis::RedisReply command(const QList<QByteArray> &args);

    // Waits until every live node says cluster_state:ok and agrees on who serves each slot.
    bool waitUntilHealthy(int timeoutMs = 30000);

    // Moves `slot` from its master to the master `toNode` in the three steps of a resharding. Each
    // step can be taken alone (tests of ASK run between them).
    bool setSlotMigrating(int slot, int toNode);
    bool migrateKeys(int slot, int toNode);
    bool finishSlotMigration(int slot, int toNode);

private:
    bool fail(const QString &error);

    Options m_options;
    std::vector<std::unique_ptr<RedisServer>> m_nodes;
    std::unique_ptr<redis::topology::RedisTopology> m_client;
    QString m_error;
};

} // namespace semscope::test
