#include "RedisCluster.h"

#include "TestWait.h"
#include "localredis/ClusterFormation.h"
#include "redis/topology/ClusterMap.h"
#include "redis/topology/HashSlot.h"
#include "redis/topology/RedisTopology.h"

#include <QSet>
#include <algorithm>

namespace semscope::test {

using redis::RedisReply;

RedisCluster::RedisCluster() = default;

RedisCluster::~RedisCluster() {
    m_client.reset();
    for (auto &n : m_nodes)
        n->stop();
}

bool RedisCluster::fail(const QString &error) {
    m_error = error;
    return false;
}

bool RedisCluster::start(const Options &options) {
    m_options = options;
    const int total = options.masters * (1 + options.replicasPerMaster);
    QString tlsDir;
    for (int i = 0; i < total; ++i) {
        auto server = std::make_unique<RedisServer>();
        RedisServer::Options o;
        o.cluster = true;
        o.tls = options.tls;
        o.tlsMaterialDir = tlsDir;
        if (!server->start(o))
            return fail(QStringLiteral("node %1: %2").arg(i).arg(server->errorString()));
        if (options.tls && tlsDir.isEmpty())
            tlsDir = server->tlsMaterialDirectory();
        m_nodes.push_back(std::move(server));
    }
    // Formed the way the demo's cluster is (localredis/ClusterFormation), waited for here.
    QList<redis::ConnectionSettings> nodes;
    for (auto &n : m_nodes)
        nodes << n->settings();
    redis::ClusterFormation formation(nodes, options.masters);
    QString error = QStringLiteral("no answer");
    if (!waitForCallback(
            [&](std::function<void()> done) {
                formation.form(60000, [&error, done](const QString &e) {
                    error = e;
                    done();
                });
            },
            65000) ||
        !error.isEmpty())
        return fail(error);
    m_client = std::make_unique<redis::topology::RedisTopology>(settings());
    m_client->open();
    return true;
}

QByteArray RedisCluster::nodeId(int i) {
    return node(i).command({"CLUSTER", "MYID"}).str;
}

RedisServer *RedisCluster::nodeByPort(quint16 port) {
    for (auto &n : m_nodes) {
        if (n->port() == port)
            return n.get();
    }
    return nullptr;
}

bool RedisCluster::waitUntilHealthy(int timeoutMs) {
    QList<redis::ConnectionSettings> live;
    for (auto &n : m_nodes) {
        if (n->isRunning())
            live << n->settings();
    }
    redis::ClusterFormation check(live, 0);
    QString error = QStringLiteral("no answer");
    waitForCallback(
        [&](std::function<void()> done) {
            check.waitUntilHealthy(timeoutMs, [&error, done](const QString &e) {
                error = e;
                done();
            });
        },
        timeoutMs + 5000);
    return error.isEmpty() ? true : fail(QStringLiteral("the cluster did not become healthy: ") + error);
}

std::optional<redis::topology::ClusterMap> RedisCluster::slotMap(QString *error) {
    QString why = QStringLiteral("no node is running");
    for (auto &n : m_nodes) {
        if (!n->isRunning())
            continue;
        if (auto map = redis::topology::ClusterMap::fromShards(n->command({"CLUSTER", "SHARDS"}),
                                                               m_options.tls, &why))
            return map;
    }
    if (error)
        *error = why;
    return std::nullopt;
}

RedisServer *RedisCluster::masterOfSlot(int slot) {
    if (const auto map = slotMap()) {
        const int s = map->shardOfSlot(slot);
        if (s < 0)
            return nullptr;
        return nodeByPort(map->shards().at(s).master.port);
    }
    return nullptr;
}

QString RedisCluster::url() const {
    return m_nodes.front()->url();
}

RedisReply RedisCluster::command(const QList<QByteArray> &args) {
    RedisReply out = RedisReply::transportError(QStringLiteral("no reply within 10 s"));
    waitForCallback([&](std::function<void()> done) {
        m_client->command(args, [&out, done](const RedisReply &r) {
            out = r;
            done();
        });
    });
    return out;
}

bool RedisCluster::setSlotMigrating(int slot, int toNode) {
    RedisServer *from = masterOfSlot(slot);
    if (!from)
        return fail(QStringLiteral("no master serves slot %1").arg(slot));
    const QByteArray fromId = from->command({"CLUSTER", "MYID"}).str;
    const QByteArray s = QByteArray::number(slot);
    const RedisReply importing = node(toNode).command({"CLUSTER", "SETSLOT", s, "IMPORTING", fromId});
    const RedisReply migrating = from->command({"CLUSTER", "SETSLOT", s, "MIGRATING", nodeId(toNode)});
    if (importing.isError() || migrating.isError())
        return fail(QStringLiteral("SETSLOT: %1 %2").arg(importing.errorMessage(), migrating.errorMessage()));
    return true;
}

bool RedisCluster::migrateKeys(int slot, int toNode) {
    RedisServer *from = masterOfSlot(slot);
    if (!from)
        return fail(QStringLiteral("no master serves slot %1").arg(slot));
    // Clients may create keys in the slot on the source while it migrates (a script whose keys all
    // exist there still runs there): move pages until none is left, as redis-cli's reshard does.
    for (int pass = 0; pass < 100; ++pass) {
        const RedisReply keys = from->command({"CLUSTER", "GETKEYSINSLOT", QByteArray::number(slot), "1000"});
        if (keys.isError())
            return fail(keys.errorMessage());
        if (keys.elements.isEmpty())
            return true;
        QList<QByteArray> migrate{"MIGRATE", "127.0.0.1", QByteArray::number(node(toNode).port()), "", "0",
                                  "5000",    "KEYS"};
        for (const RedisReply &k : keys.elements)
            migrate << k.str;
        const RedisReply r = from->command(migrate);
        if (r.isError() && !r.str.startsWith("NOKEY"))
            return fail(QStringLiteral("MIGRATE: ") + r.errorMessage());
    }
    return fail(QStringLiteral("slot %1 kept getting new keys on its source").arg(slot));
}

bool RedisCluster::finishSlotMigration(int slot, int toNode) {
    const QByteArray s = QByteArray::number(slot);
    const QByteArray target = nodeId(toNode);
    for (auto &n : m_nodes) {
        if (!n->isRunning())
            continue;
        const RedisReply r = n->command({"CLUSTER", "SETSLOT", s, "NODE", target});
        // Replicas refuse SETSLOT; they learn it from their master.
        if (r.isError() && !r.str.contains("replica") && !r.str.contains("slave") &&
            !r.str.contains("only with masters"))
            return fail(QStringLiteral("SETSLOT NODE: ") + r.errorMessage());
    }
    return true;
}

} // namespace semscope::test
