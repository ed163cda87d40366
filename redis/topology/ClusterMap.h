#pragma once

#include "redis/RedisReply.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <optional>
#include <vector>

namespace semscope::redis::topology {

// One node as CLUSTER SHARDS (or CLUSTER SLOTS) describes it.
struct ClusterNode {
    QByteArray id;
    QString host;
    quint16 port = 0;
    bool master = false;
    QString health;                // "online", "failed", "loading"; empty when the reply has none
    qint64 replicationOffset = -1; // -1 when the reply has none

    QString address() const { return host + QLatin1Char(':') + QString::number(port); }
};

// A master, the slot ranges it serves and its replicas.
struct ClusterShard {
    QList<QPair<int, int>> ranges; // inclusive
    ClusterNode master;
    QList<ClusterNode> replicas;

    int slotCount() const;
    QString rangesText() const; // "0-5460,6000"
};

// The slot map of a cluster: which master serves each of the 16384 slots.
class ClusterMap {
public:
    // From CLUSTER SHARDS (Redis 7.0+). `useTlsPort`: the nodes' TLS port is the one to dial (the
    // entry connection uses TLS). Empty optional and `error` when the reply is not a shard list.
    // `askedHost`: the host the reply came from. A node that never met another one (a Cluster of one
    // master) does not know its own address and names itself with an empty ip: it is reached where
    // it was asked, as Redis' documentation tells clients to.
    static std::optional<ClusterMap> fromShards(const RedisReply &reply, bool useTlsPort, QString *error,
                                                const QString &askedHost = QString());
    // From CLUSTER SLOTS (older servers); it names no health and no offsets.
    static std::optional<ClusterMap> fromSlots(const RedisReply &reply, QString *error,
                                               const QString &askedHost = QString());

    const QList<ClusterShard> &shards() const { return m_shards; }
    // Index into shards() of the master serving `slot`, -1 when no master serves it.
    int shardOfSlot(int slot) const;
    // The master serving `slot`, or an empty address.
    QString masterOfSlot(int slot) const;
    // Points `slot` at `address` (after a MOVED), adding a shard for an address not known yet.
    void moveSlot(int slot, const QString &address);
    int replicaCount() const;
    bool isEmpty() const { return m_shards.isEmpty(); }

private:
    void index();

    QList<ClusterShard> m_shards;
    std::vector<qint16> m_owner; // slot -> shard index, -1 when unassigned
};

} // namespace semscope::redis::topology
