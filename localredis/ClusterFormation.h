#pragma once

#include "redis/ConnectionSettings.h"

#include <QList>
#include <QObject>
#include <QString>
#include <QTimer>
#include <functional>
#include <memory>
#include <vector>

namespace semscope::redis {

class RedisConnection;

// Makes a Redis Cluster of freshly started `--cluster-enabled yes` nodes, the way an operator would
// by hand (no redis-cli needed): slots split evenly between the masters in order (CLUSTER
// ADDSLOTSRANGE), every node introduced to the first one (CLUSTER MEET), each replica set to follow
// its master once it knows it (CLUSTER REPLICATE, retried), and then waited for until it is healthy.
// Used by the demo's cluster (LocalRedisCluster) and the tests' fixture alike. Never blocks: every
// step is asynchronous and polling goes through a timer; `done` runs once, with an empty string or
// what failed.
//
// Nodes: the masters first, then the replicas; replica i (counting from the first replica) follows
// master i / replicasPerMaster.
class ClusterFormation : public QObject {
    Q_OBJECT
public:
    explicit ClusterFormation(QList<ConnectionSettings> nodes, int masters, QObject *parent = nullptr);
    ~ClusterFormation() override;

    void form(int timeoutMs, std::function<void(const QString &error)> done);
    // Waits until every node says cluster_state:ok, knows every other node (none in handshake or
    // failed) and all agree on who serves each slot. Also for a formed cluster after a failover.
    void waitUntilHealthy(int timeoutMs, std::function<void(const QString &error)> done);

private:
    void addSlots();
    void meet();
    void replicate(int i);
    void waitForLinks(int i);
    void checkHealth();
    void finish(const QString &error);
    void poll(std::function<void(std::function<void(bool ok)>)> check, const QString &what,
              std::function<void()> next);
    RedisConnection &node(int i);

    QList<ConnectionSettings> m_settings;
    int m_masters = 0;
    std::vector<std::unique_ptr<RedisConnection>> m_nodes;
    QList<QByteArray> m_ids;
    QTimer m_deadline;
    QString m_waitingFor; // named when the deadline passes
    std::function<void(const QString &)> m_done;
    quint64 m_generation = 0; // a finished run's late replies are ignored
};

} // namespace semscope::redis
