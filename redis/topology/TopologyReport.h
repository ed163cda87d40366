#pragma once

#include <QList>
#include <QString>
#include <functional>
#include <optional>

namespace semscope::redis::topology {

class RedisTopology;

// One node of a deployment as `semscope-cli topology` and the GUI's Topology window show it.
struct NodeReport {
    QString address;               // host:port
    QString role;                  // "master" or "replica"
    QString master;                // a replica's master (host:port); empty for a master
    QString slotRanges;            // a Cluster master's slot ranges ("0-5460"); empty elsewhere
    QList<QPair<int, int>> ranges; // the same ranges, inclusive, to look a hash slot up in
    QString link; // master: cluster health ("online", "fail"); replica: its link as its master sees it
    qint64 replicationOffset = -1;
    // A replica's lag behind its master: the master's offset minus the replica's, in bytes (what an
    // acquire made in that window lacks on the replica), and seconds since its last acknowledgement.
    std::optional<qint64> lagBytes;
    std::optional<qint64> lagSeconds;
    QString error; // why this node could not be asked; the rest is still reported
};

struct TopologyReport {
    QString mode;           // "standalone", "sentinel" or "cluster"
    QString sentinelMaster; // Sentinel: the name the sentinels monitor
    QList<NodeReport> nodes;
    QString error; // nothing could be read

    int masterCount() const;
    int replicaCount() const;
    // "Cluster: 3 masters, 3 replicas", "Standalone: 1 master, 1 replica", "Sentinel mymaster:
    // master 127.0.0.1:6381, 1 replica".
    QString summary() const;
    // The replicas of `master` (host:port).
    QList<NodeReport> replicasOf(const QString &master) const;
};

// Reads the topology: on a Cluster the slot map (reloaded) plus INFO replication of every master,
// all at once; on a standalone server INFO replication of that server (a master lists its
// replicas); through Sentinel the same of the master the sentinels named. `done` runs once, on the topology's
// thread.
void readTopology(RedisTopology &topology, std::function<void(const TopologyReport &)> done);

// "12 KB", "512 B", "3.4 MB".
QString byteSize(qint64 bytes);
// "replica 127.0.0.1:6380 is 12 KB behind (last acknowledged 0 s ago): an acquire made in that
// window is not on it yet; a failover now would lose it" (or "is in step with its master").
QString replicaLagSentence(const NodeReport &replica);

} // namespace semscope::redis::topology
