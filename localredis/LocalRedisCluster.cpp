#include "LocalRedisCluster.h"

#include "ClusterFormation.h"
#include "LocalRedisProcess.h"

namespace semscope::redis {

LocalRedisCluster::LocalRedisCluster(QObject *parent)
    : QObject(parent) {}

LocalRedisCluster::~LocalRedisCluster() {
    stop();
}

void LocalRedisCluster::start(const Options &options) {
    m_options = options;
    const int total = options.masters * (1 + options.replicasPerMaster);
    Q_EMIT progress(tr("Starting %1 redis-server cluster nodes…").arg(total));
    for (int i = 0; i < total; ++i) {
        auto node = std::make_unique<LocalRedisProcess>();
        connect(node.get(), &LocalRedisProcess::failed, this, &LocalRedisCluster::fail);
        connect(node.get(), &LocalRedisProcess::ready, this, &LocalRedisCluster::onNodeReady);
        LocalRedisProcess::Options o;
        o.needsBusPort = true;
        o.temporaryBase = options.temporaryBase;
        o.label = tr("cluster node %1").arg(i + 1);
        o.extraArgs =
            QStringList{QStringLiteral("--cluster-enabled"),      QStringLiteral("yes"),
                        QStringLiteral("--cluster-config-file"),  QStringLiteral("{dir}/nodes.conf"),
                        QStringLiteral("--cluster-node-timeout"), QStringLiteral("2000")};
        m_nodes.push_back(std::move(node));
        m_nodes.back()->start(o);
    }
}

void LocalRedisCluster::onNodeReady() {
    if (++m_readyNodes < nodeCount() || m_failed)
        return;
    QList<ConnectionSettings> nodes;
    for (const auto &n : m_nodes)
        nodes << n->settings();
    Q_EMIT progress(tr("Forming the cluster (%1 masters, %2 replicas)…")
                        .arg(m_options.masters)
                        .arg(m_options.masters * m_options.replicasPerMaster));
    m_formation = std::make_unique<ClusterFormation>(nodes, m_options.masters);
    m_formation->form(m_options.timeoutMs, [this](const QString &error) {
        if (!error.isEmpty())
            return fail(error);
        m_ready = true;
        Q_EMIT ready();
    });
}

void LocalRedisCluster::fail(const QString &message) {
    if (m_failed || m_ready)
        return;
    m_failed = true;
    Q_EMIT failed(message);
}

void LocalRedisCluster::stop() {
    m_formation.reset();
    for (auto &n : m_nodes)
        n->stop();
}

QList<qint64> LocalRedisCluster::pids() const {
    QList<qint64> out;
    for (const auto &n : m_nodes)
        out << n->pid();
    return out;
}

ConnectionSettings LocalRedisCluster::settings() const {
    return m_nodes.empty() ? ConnectionSettings() : m_nodes.front()->settings();
}

} // namespace semscope::redis
