#include "TopologyReport.h"

#include "RedisTopology.h"

#include <QPointer>
#include <algorithm>
#include <memory>

namespace semscope::redis::topology {

namespace {

struct ReplicationInfo {
    QString role;
    qint64 masterOffset = -1;
    qint64 replicaOffset = -1; // on a replica: slave_repl_offset
    QString masterAddress;     // on a replica
    QString masterLink;        // on a replica: master_link_status
    struct Replica {
        QString address;
        QString state;
        qint64 offset = -1;
        qint64 lagSeconds = -1;
    };
    QList<Replica> replicas;
};

// INFO replication: "key:value" lines; slaveN:ip=…,port=…,state=…,offset=…,lag=…
ReplicationInfo parseReplication(const QByteArray &info) {
    ReplicationInfo r;
    QString masterHost;
    QString masterPort;
    for (QByteArray line : info.split('\n')) {
        line = line.trimmed();
        const qsizetype colon = line.indexOf(':');
        if (colon < 0)
            continue;
        const QByteArray key = line.left(colon);
        const QByteArray value = line.mid(colon + 1);
        if (key == "role")
            r.role = value == "slave" ? QStringLiteral("replica") : QString::fromUtf8(value);
        else if (key == "master_repl_offset")
            r.masterOffset = value.toLongLong();
        else if (key == "slave_repl_offset")
            r.replicaOffset = value.toLongLong();
        else if (key == "master_host")
            masterHost = QString::fromUtf8(value);
        else if (key == "master_port")
            masterPort = QString::fromUtf8(value);
        else if (key == "master_link_status")
            r.masterLink = QString::fromUtf8(value);
        else if (key.startsWith("slave") && key.mid(5).toInt() >= 0 && value.contains("ip=")) {
            ReplicationInfo::Replica rep;
            QString ip;
            QString port;
            for (const QByteArray &field : value.split(',')) {
                const qsizetype eq = field.indexOf('=');
                const QByteArray k = field.left(eq);
                const QByteArray v = field.mid(eq + 1);
                if (k == "ip")
                    ip = QString::fromUtf8(v);
                else if (k == "port")
                    port = QString::fromUtf8(v);
                else if (k == "state")
                    rep.state = QString::fromUtf8(v);
                else if (k == "offset")
                    rep.offset = v.toLongLong();
                else if (k == "lag")
                    rep.lagSeconds = v.toLongLong();
            }
            rep.address = ip + QLatin1Char(':') + port;
            r.replicas << rep;
        }
    }
    if (!masterHost.isEmpty())
        r.masterAddress = masterHost + QLatin1Char(':') + masterPort;
    return r;
}

NodeReport replicaReport(const QString &address, const QString &master, const ReplicationInfo &info) {
    NodeReport n;
    n.address = address;
    n.role = QStringLiteral("replica");
    n.master = master;
    n.link = QStringLiteral("not connected");
    for (const auto &rep : info.replicas) {
        if (rep.address != address)
            continue;
        n.link = rep.state;
        n.replicationOffset = rep.offset;
        if (rep.offset >= 0 && info.masterOffset >= 0)
            n.lagBytes = std::max<qint64>(0, info.masterOffset - rep.offset);
        if (rep.lagSeconds >= 0)
            n.lagSeconds = rep.lagSeconds;
    }
    return n;
}

} // namespace

int TopologyReport::masterCount() const {
    return int(std::count_if(nodes.cbegin(), nodes.cend(),
                             [](const NodeReport &n) { return n.role == QLatin1String("master"); }));
}

int TopologyReport::replicaCount() const {
    return int(std::count_if(nodes.cbegin(), nodes.cend(),
                             [](const NodeReport &n) { return n.role == QLatin1String("replica"); }));
}

QString TopologyReport::summary() const {
    const int m = masterCount();
    const int r = replicaCount();
    if (mode == QLatin1String("sentinel")) {
        const QString master = m > 0 ? nodes.constFirst().address : QStringLiteral("unknown");
        return QStringLiteral("Sentinel %1: master %2, %3 replica%4")
            .arg(sentinelMaster, master)
            .arg(r)
            .arg(r == 1 ? QString() : QStringLiteral("s"));
    }
    return QStringLiteral("%1: %2 master%3, %4 replica%5")
        .arg(mode == QLatin1String("cluster")    ? QStringLiteral("Cluster")
             : mode == QLatin1String("sentinel") ? QStringLiteral("Sentinel")
                                                 : QStringLiteral("Standalone"))
        .arg(m)
        .arg(m == 1 ? QString() : QStringLiteral("s"))
        .arg(r)
        .arg(r == 1 ? QString() : QStringLiteral("s"));
}

QList<NodeReport> TopologyReport::replicasOf(const QString &master) const {
    QList<NodeReport> out;
    for (const NodeReport &n : nodes) {
        if (n.role == QLatin1String("replica") && n.master == master)
            out << n;
    }
    return out;
}

QString byteSize(qint64 bytes) {
    if (bytes < 1024)
        return QStringLiteral("%1 B").arg(bytes);
    if (bytes < 1024 * 1024)
        return QStringLiteral("%1 KB").arg(QString::number(bytes / 1024.0, 'f', bytes < 10 * 1024 ? 1 : 0));
    return QStringLiteral("%1 MB").arg(QString::number(bytes / (1024.0 * 1024.0), 'f', 1));
}

QString replicaLagSentence(const NodeReport &replica) {
    if (!replica.lagBytes)
        return QStringLiteral("replica %1 (%2): its lag is not known").arg(replica.address, replica.link);
    const QString ack = replica.lagSeconds
                            ? QStringLiteral(" (last acknowledged %1 s ago)").arg(*replica.lagSeconds)
                            : QString();
    if (*replica.lagBytes == 0)
        return QStringLiteral("replica %1 is in step with its master%2").arg(replica.address, ack);
    return QStringLiteral("replica %1 is %2 behind%3: an acquire made in that window is not on it yet; a "
                          "failover now would lose it")
        .arg(replica.address, byteSize(*replica.lagBytes), ack);
}

void readTopology(RedisTopology &topology, std::function<void(const TopologyReport &)> done) {
    QPointer<RedisTopology> guard(&topology);
    auto finishStandalone = [guard, done] {
        RedisConnection &entry = guard->entry();
        const bool viaSentinel = entry.settings().usesSentinel();
        const QString sentinelMaster = entry.settings().sentinelMaster;
        QPointer<RedisConnection> entryGuard(&entry);
        entry.command({"INFO", "replication"}, [guard, entryGuard, viaSentinel, sentinelMaster,
                                                done](const RedisReply &reply) {
            // Through Sentinel the node is the master the sentinels named when the reply came, not
            // the address in the settings.
            QString address = entryGuard ? entryGuard->lastServingNode() : QString();
            if (!viaSentinel || address.isEmpty())
                address = guard ? guard->nodeOfSlot(0) : address;
            TopologyReport report;
            report.mode = viaSentinel ? QStringLiteral("sentinel") : QStringLiteral("standalone");
            report.sentinelMaster = sentinelMaster;
            if (reply.isError()) {
                report.error = reply.errorMessage();
                done(report);
                return;
            }
            const ReplicationInfo info = parseReplication(reply.str);
            NodeReport self;
            self.address = address;
            self.role = info.role.isEmpty() ? QStringLiteral("master") : info.role;
            if (self.role == QLatin1String("replica")) {
                self.master = info.masterAddress;
                self.link = info.masterLink;
                self.replicationOffset = info.replicaOffset;
            } else {
                self.link = QStringLiteral("online");
                self.replicationOffset = info.masterOffset;
            }
            report.nodes << self;
            for (const auto &rep : info.replicas)
                report.nodes << replicaReport(rep.address, address, info);
            done(report);
        });
    };
    topology.detect([guard, done, finishStandalone](const QString &error) {
        if (!guard)
            return;
        if (guard->mode() != RedisTopology::Mode::Cluster) {
            if (guard->mode() == RedisTopology::Mode::Unknown) {
                TopologyReport report;
                report.error = error;
                done(report);
                return;
            }
            finishStandalone();
            return;
        }
        guard->reloadMap([guard, done](const QString &reloadError) {
            if (!guard)
                return;
            const ClusterMap map = guard->clusterMap();
            if (!reloadError.isEmpty() && map.isEmpty()) {
                TopologyReport report;
                report.mode = QStringLiteral("cluster");
                report.error = reloadError;
                done(report);
                return;
            }
            struct Pending {
                TopologyReport report;
                int left = 0;
                std::function<void(const TopologyReport &)> done;
            };
            auto pending = std::make_shared<Pending>();
            pending->report.mode = QStringLiteral("cluster");
            pending->done = done;
            QList<ClusterShard> shards;
            for (const ClusterShard &s : map.shards()) {
                if (s.slotCount() > 0)
                    shards << s;
            }
            // In slot order, as an operator reads a slot map (CLUSTER SHARDS lists them as it likes).
            std::sort(shards.begin(), shards.end(), [](const ClusterShard &a, const ClusterShard &b) {
                return a.ranges.constFirst().first < b.ranges.constFirst().first;
            });
            pending->left = int(shards.size());
            pending->report.nodes.resize(0);
            if (shards.isEmpty()) {
                done(pending->report);
                return;
            }
            // One slot per shard in the output list: master, then its replicas, in map order.
            auto results = std::make_shared<QList<QList<NodeReport>>>(shards.size());
            for (qsizetype i = 0; i < shards.size(); ++i) {
                const ClusterShard shard = shards.at(i);
                guard->nodeConnection(shard.master.address())
                    .command({"INFO", "replication"}, [pending, results, i, shard](const RedisReply &reply) {
                        NodeReport master;
                        master.address = shard.master.address();
                        master.role = QStringLiteral("master");
                        master.slotRanges = shard.rangesText();
                        master.ranges = shard.ranges;
                        master.link =
                            shard.master.health.isEmpty() ? QStringLiteral("online") : shard.master.health;
                        master.replicationOffset = shard.master.replicationOffset;
                        ReplicationInfo info;
                        if (reply.isError())
                            master.error = reply.errorMessage();
                        else
                            info = parseReplication(reply.str);
                        if (info.masterOffset >= 0)
                            master.replicationOffset = info.masterOffset;
                        QList<NodeReport> nodes{master};
                        for (const ClusterNode &r : shard.replicas) {
                            NodeReport rep = replicaReport(r.address(), master.address, info);
                            if (rep.replicationOffset < 0 && r.replicationOffset >= 0)
                                rep.replicationOffset = r.replicationOffset;
                            // CLUSTER SHARDS says "loading" for a replica whose offset the bus has not
                            // gossiped yet; only its "fail" says more than the master's INFO does.
                            if (r.health == QLatin1String("fail"))
                                rep.link = r.health;
                            nodes << rep;
                        }
                        (*results)[i] = nodes;
                        if (--pending->left > 0)
                            return;
                        for (const auto &group : std::as_const(*results))
                            pending->report.nodes << group;
                        pending->done(pending->report);
                    });
            }
        });
    });
}

} // namespace semscope::redis::topology
