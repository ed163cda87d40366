#include "RedisCluster.h"

#include "TestWait.h"
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
    // Slots split evenly between the masters, in order.
    for (int m = 0; m < options.masters; ++m) {
        const int from = redis::topology::kHashSlots * m / options.masters;
        const int to = redis::topology::kHashSlots * (m + 1) / options.masters - 1;
        const RedisReply r =
            node(m).command({"CLUSTER", "ADDSLOTSRANGE", QByteArray::number(from), QByteArray::number(to)});
        if (r.isError())
            return fail(QStringLiteral("ADDSLOTSRANGE on node %1: %2").arg(m).arg(r.errorMessage()));
    }
    for (int i = 1; i < total; ++i) {
        const RedisReply r =
            node(0).command({"CLUSTER", "MEET", "127.0.0.1", QByteArray::number(node(i).port())});
        if (r.isError())
            return fail(QStringLiteral("MEET node %1: %2").arg(i).arg(r.errorMessage()));
    }
    // Replicas can follow a master only once they know it.
    for (int i = options.masters; i < total; ++i) {
        const int master = (i - options.masters) / std::max(1, options.replicasPerMaster);
        const QByteArray masterId = nodeId(master);
        bool ok = waitFor(
            [&] {
                const RedisReply r = node(i).command({"CLUSTER", "REPLICATE", masterId});
                return !r.isError();
            },
            20000);
        if (!ok)
            return fail(QStringLiteral("node %1 could not replicate node %2").arg(i).arg(master));
    }
    for (int i = options.masters; i < total; ++i) {
        if (!waitFor(
                [&] {
                    return node(i).command({"INFO", "replication"}).str.contains("master_link_status:up");
                },
                20000))
            return fail(QStringLiteral("replica %1 never synchronised").arg(i));
    }
    if (!waitUntilHealthy())
        return false;
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
    const bool ok = waitFor(
        [&] {
            QSet<QByteArray> views;
            int live = 0;
            for (auto &n : m_nodes) {
                if (!n->isRunning())
                    continue;
                ++live;
                if (!n->command({"CLUSTER", "INFO"}).str.contains("cluster_state:ok"))
                    return false;
                const RedisReply slotTable = n->command({"CLUSTER", "SLOTS"});
                if (slotTable.isError())
                    return false;
                // Who serves each range, as this node sees it.
                QByteArray view;
                QList<QByteArray> ranges;
                for (const RedisReply &r : slotTable.elements)
                    ranges << r.elements.value(0).describe().toUtf8() + "-" +
                                  r.elements.value(1).describe().toUtf8() + "@" +
                                  r.elements.value(2).elements.value(1).describe().toUtf8();
                std::sort(ranges.begin(), ranges.end());
                views.insert(ranges.join(','));
                const QByteArray nodes = n->command({"CLUSTER", "NODES"}).str;
                if (nodes.count('\n') < live || nodes.contains("handshake") || nodes.contains("fail"))
                    return false;
            }
            return views.size() == 1;
        },
        timeoutMs);
    return ok ? true : fail(QStringLiteral("the cluster did not become healthy"));
}

RedisServer *RedisCluster::masterOfSlot(int slot) {
    for (auto &n : m_nodes) {
        if (!n->isRunning())
            continue;
        QString error;
        const auto map =
            redis::topology::ClusterMap::fromShards(n->command({"CLUSTER", "SHARDS"}), m_options.tls, &error);
        if (!map)
            continue;
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
