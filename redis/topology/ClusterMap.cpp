#include "ClusterMap.h"

#include "HashSlot.h"

#include <QStringList>

namespace semscope::redis::topology {

namespace {

bool fail(QString *error, const QString &what) {
    if (error)
        *error = what;
    return false;
}

// RESP2 renders CLUSTER SHARDS' maps as flat [key, value, key, value, ...] arrays.
const RedisReply *field(const RedisReply &map, const char *name) {
    for (qsizetype i = 0; i + 1 < map.elements.size(); i += 2) {
        if (map.elements.at(i).str == name)
            return &map.elements.at(i + 1);
    }
    return nullptr;
}

QString text(const RedisReply *r) {
    return r ? QString::fromUtf8(r->str) : QString();
}

} // namespace

int ClusterShard::slotCount() const {
    int n = 0;
    for (const auto &r : ranges)
        n += r.second - r.first + 1;
    return n;
}

QString ClusterShard::rangesText() const {
    QStringList parts;
    for (const auto &r : ranges)
        parts << (r.first == r.second ? QString::number(r.first)
                                      : QStringLiteral("%1-%2").arg(r.first).arg(r.second));
    return parts.join(QLatin1Char(','));
}

std::optional<ClusterMap> ClusterMap::fromShards(const RedisReply &reply, bool useTlsPort, QString *error,
                                                 const QString &askedHost) {
    if (!reply.isArray()) {
        fail(error, QStringLiteral("CLUSTER SHARDS: expected a list of shards, got ") + reply.describe());
        return std::nullopt;
    }
    ClusterMap map;
    for (const RedisReply &shardReply : reply.elements) {
        const RedisReply *slotRanges = field(shardReply, "slots");
        const RedisReply *nodes = field(shardReply, "nodes");
        if (!slotRanges || !nodes || !slotRanges->isArray() || !nodes->isArray()) {
            fail(error, QStringLiteral("CLUSTER SHARDS: a shard without slots or nodes"));
            return std::nullopt;
        }
        ClusterShard shard;
        for (qsizetype i = 0; i + 1 < slotRanges->elements.size(); i += 2) {
            const auto from = slotRanges->elements.at(i).toInteger();
            const auto to = slotRanges->elements.at(i + 1).toInteger();
            if (!from || !to || *from < 0 || *to >= kHashSlots || *from > *to) {
                fail(error, QStringLiteral("CLUSTER SHARDS: a slot range out of 0-16383"));
                return std::nullopt;
            }
            shard.ranges.append({int(*from), int(*to)});
        }
        bool hasMaster = false;
        for (const RedisReply &n : nodes->elements) {
            ClusterNode node;
            node.id = n.isArray() && field(n, "id") ? field(n, "id")->str : QByteArray();
            node.host = text(field(n, "endpoint"));
            if (node.host.isEmpty() || node.host == QLatin1String("?"))
                node.host = text(field(n, "ip"));
            if (node.host.isEmpty())
                node.host = askedHost;
            const RedisReply *port = field(n, useTlsPort ? "tls-port" : "port");
            if (!port)
                port = field(n, useTlsPort ? "port" : "tls-port");
            node.port = quint16(port ? port->toInteger().value_or(0) : 0);
            node.master = text(field(n, "role")) == QLatin1String("master");
            node.health = text(field(n, "health"));
            if (const RedisReply *offset = field(n, "replication-offset"))
                node.replicationOffset = offset->toInteger().value_or(-1);
            if (node.host.isEmpty() || node.port == 0)
                continue;
            // A failed master still listed beside its promoted replica is not the one to use.
            if (node.master && (!hasMaster || shard.master.health == QLatin1String("fail"))) {
                if (hasMaster)
                    shard.replicas << shard.master;
                shard.master = node;
                hasMaster = true;
            } else {
                shard.replicas << node;
            }
        }
        if (!hasMaster && shard.ranges.isEmpty())
            continue;
        if (!hasMaster) {
            fail(error, QStringLiteral("CLUSTER SHARDS: slots %1 have no master").arg(shard.rangesText()));
            return std::nullopt;
        }
        map.m_shards << shard;
    }
    map.index();
    return map;
}

std::optional<ClusterMap> ClusterMap::fromSlots(const RedisReply &reply, QString *error,
                                                const QString &askedHost) {
    if (!reply.isArray()) {
        fail(error, QStringLiteral("CLUSTER SLOTS: expected a list of ranges, got ") + reply.describe());
        return std::nullopt;
    }
    ClusterMap map;
    auto nodeOf = [&askedHost](const RedisReply &n) {
        ClusterNode node;
        if (n.elements.size() >= 2) {
            node.host = QString::fromUtf8(n.elements.at(0).str);
            if (node.host.isEmpty() || node.host == QLatin1String("?"))
                node.host = askedHost;
            node.port = quint16(n.elements.at(1).toInteger().value_or(0));
        }
        if (n.elements.size() >= 3)
            node.id = n.elements.at(2).str;
        return node;
    };
    for (const RedisReply &range : reply.elements) {
        if (range.elements.size() < 3) {
            fail(error, QStringLiteral("CLUSTER SLOTS: a range without a master"));
            return std::nullopt;
        }
        const auto from = range.elements.at(0).toInteger();
        const auto to = range.elements.at(1).toInteger();
        if (!from || !to || *from < 0 || *to >= kHashSlots || *from > *to) {
            fail(error, QStringLiteral("CLUSTER SLOTS: a slot range out of 0-16383"));
            return std::nullopt;
        }
        ClusterNode master = nodeOf(range.elements.at(2));
        master.master = true;
        ClusterShard *shard = nullptr;
        for (ClusterShard &s : map.m_shards) {
            if (s.master.address() == master.address())
                shard = &s;
        }
        if (!shard) {
            map.m_shards.append(ClusterShard());
            shard = &map.m_shards.last();
            shard->master = master;
            for (qsizetype i = 3; i < range.elements.size(); ++i)
                shard->replicas << nodeOf(range.elements.at(i));
        }
        shard->ranges.append({int(*from), int(*to)});
    }
    map.index();
    return map;
}

void ClusterMap::index() {
    m_owner.assign(kHashSlots, -1);
    for (qsizetype s = 0; s < m_shards.size(); ++s) {
        for (const auto &r : m_shards.at(s).ranges) {
            for (int slot = r.first; slot <= r.second; ++slot)
                m_owner[size_t(slot)] = qint16(s);
        }
    }
}

int ClusterMap::shardOfSlot(int slot) const {
    if (slot < 0 || slot >= kHashSlots || m_owner.empty())
        return -1;
    return m_owner[size_t(slot)];
}

QString ClusterMap::masterOfSlot(int slot) const {
    const int s = shardOfSlot(slot);
    return s < 0 ? QString() : m_shards.at(s).master.address();
}

void ClusterMap::moveSlot(int slot, const QString &address) {
    if (slot < 0 || slot >= kHashSlots)
        return;
    if (m_owner.empty())
        m_owner.assign(kHashSlots, -1);
    int target = -1;
    for (qsizetype s = 0; s < m_shards.size(); ++s) {
        if (m_shards.at(s).master.address() == address)
            target = int(s);
    }
    if (target < 0) {
        const qsizetype colon = address.lastIndexOf(QLatin1Char(':'));
        ClusterShard shard;
        shard.master.host = address.left(colon);
        shard.master.port = quint16(address.mid(colon + 1).toUInt());
        shard.master.master = true;
        m_shards << shard;
        target = int(m_shards.size() - 1);
    }
    // Ranges stay as CLUSTER SHARDS said until the next reload; routing reads m_owner.
    m_owner[size_t(slot)] = qint16(target);
}

int ClusterMap::replicaCount() const {
    int n = 0;
    for (const ClusterShard &s : m_shards)
        n += int(s.replicas.size());
    return n;
}

} // namespace semscope::redis::topology
