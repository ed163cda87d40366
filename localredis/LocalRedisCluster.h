#pragma once

#include "redis/ConnectionSettings.h"

#include <QList>
#include <QObject>
#include <QString>
#include <memory>
#include <vector>

namespace semscope::redis {

class ClusterFormation;
class LocalRedisProcess;

// A private Redis Cluster for `semscope --demo --cluster`: `masters` redis-server nodes with
// `--cluster-enabled yes`, each with `replicasPerMaster` replicas, every one a LocalRedisProcess on
// a free loopback port of at most 55535 whose bus port (port + 10000) is free too, formed by
// ClusterFormation (as the tests' fixture is). start() never blocks: ready() or failed() follows.
// Every node is stopped by its PID (and dies with the program that started it).
class LocalRedisCluster : public QObject {
    Q_OBJECT
public:
    struct Options {
        int masters = 3;
        int replicasPerMaster = 1;
        QString temporaryBase; // where the nodes' folders go; empty: the system's temporary folder
        int timeoutMs = 60000; // for starting and forming
    };

    explicit LocalRedisCluster(QObject *parent = nullptr);
    ~LocalRedisCluster() override; // stop()

    void start(const Options &options);
    // SIGTERM to every node's PID (SIGKILL after 5 s), waiting for each to go.
    void stop();
    bool isReady() const { return m_ready; }

    // Nodes in start order: masters first, then replicas.
    int nodeCount() const { return int(m_nodes.size()); }
    LocalRedisProcess &node(int i) { return *m_nodes.at(size_t(i)); }
    QList<qint64> pids() const;
    // Plain TCP settings of the first node (any node leads a client to the whole cluster).
    ConnectionSettings settings() const;

Q_SIGNALS:
    void ready();
    void failed(const QString &message);
    void progress(const QString &message);

private:
    void onNodeReady();
    void fail(const QString &message);

    Options m_options;
    std::vector<std::unique_ptr<LocalRedisProcess>> m_nodes;
    std::unique_ptr<ClusterFormation> m_formation;
    int m_readyNodes = 0;
    bool m_ready = false;
    bool m_failed = false;
};

} // namespace semscope::redis
