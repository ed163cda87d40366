#pragma once

#include "ClusterMap.h"
#include "redis/RedisCommands.h"
#include "redis/RedisConnection.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <functional>
#include <memory>

namespace semscope::redis::topology {

// The Redis deployment behind one semscope connection, and the answer to "which connection serves
// this key / slot?" for the kinds, discovery and the load tester (DESIGN.md §7).
//
// Standalone: every command goes to the entry node, unchanged. Cluster: a slot map read with
// CLUSTER SHARDS (CLUSTER SLOTS on servers without it) and one RedisConnection per master, each with
// the entry node's settings (TLS, ACL user, timeouts) and the master's address. Redirects are
// handled here and never reach a caller:
// - MOVED: the slot lives elsewhere now: the map is pointed there at once, reloaded in the
//   background, and the command resent to the new owner.
// - ASK: one-off during a slot migration: ASKING then the command on the named node; the map stays.
// - TRYAGAIN, CLUSTERDOWN: resent after a bounded backoff (50 ms doubling, 6 tries, ~3 s in all);
//   CLUSTERDOWN also reloads the map. Then the error is reported in words.
// - CROSSSLOT: never resent; reported as keys in different hash slots.
// Each of these means the server did not run the command, so resending never runs a write twice.
// A transport error is not resent (the write may have run); it names the node and reloads the map
// in the background, so a dead master fails only the slots it served until a replica takes over.
//
// The mode is asked for on open() (one INFO cluster behind the handshake), again on detect() while it
// is unknown, and a redirect settles it too; until it is known commands go to the entry node with
// redirects followed.
class RedisTopology : public QObject, public RedisCommands {
    Q_OBJECT
public:
    enum class Mode { Unknown, Standalone, Cluster };
    Q_ENUM(Mode)

    explicit RedisTopology(ConnectionSettings settings, QObject *parent = nullptr);
    ~RedisTopology() override;

    void open();
    RedisConnection &entry() { return *m_entry; }
    const ConnectionSettings &settings() const { return m_entry->settings(); }

    Mode mode() const { return m_mode; }
    // Finds the mode (INFO cluster on the entry node, then the seeds given after it), and in
    // Cluster mode loads the slot map. `done` runs once, never inside this call, with an empty
    // string or why the mode is still unknown. Cheap when the mode is already known.
    void detect(std::function<void(const QString &error)> done);
    // Reloads the slot map now (Cluster mode only); `done` as for detect().
    void reloadMap(std::function<void(const QString &error)> done);

    const ClusterMap &clusterMap() const { return m_map; }
    // "host:port" of the master serving `slot` (Cluster), else of the entry node.
    QString nodeOfSlot(int slot) const;
    QString nodeOfKey(const QByteArray &key) const;
    // The connection to `address` ("host:port"), opened on first need with the entry's settings.
    RedisConnection &nodeConnection(const QString &address);
    // One connection per master in map order (Cluster), or the entry node alone.
    QList<RedisConnection *> masterConnections();
    // The entry's settings (TLS, ACL user, timeouts) pointed at another node ("host:port"), for a
    // connection of one's own to it (a subscriber: pub/sub cannot share the command connection).
    ConnectionSettings nodeSettings(const QString &address) const;

    // Reads from replicas (Cluster, settings().discoverFromReplicas): spares the masters of a busy
    // service. Each master gets one replica to read from, the first (healthy ones first) whose
    // connection (READONLY in its handshake) answers PING; a master none of whose replicas answers
    // is read itself, and `why` says so. What a replica answers can lag its master by its
    // replication offset. Writes never take this path.
    struct ReadNode {
        QString master; // "host:port" of the master
        QString node;   // "host:port" read instead (the master itself when no replica answered)
        bool replica = false;
        QString why;           // set when the master is read: why none of its replicas is
        QString label() const; // "host:port (replica)" / "host:port (master)"
    };
    // Picks (again) the node to read for every master serving slots; `done` runs once, never inside
    // this call, with one entry per master. Outside Cluster mode the list is empty.
    void chooseReadNodes(std::function<void(const QList<ReadNode> &)> done);
    // Whether chooseReadNodes() has picked for the current masters.
    bool readNodesChosen() const { return m_readNodesChosen; }
    // Commands routed like this object's own, but to the chosen read node of their slot's master.
    // A read that meets a dead replica is sent once more to the master (reads are safe to repeat),
    // and that master is read itself until the next choice. Reads only.
    RedisCommands &replicaReads();
    // The read node serving `slot` through replicaReads(), as ReadNode::label() says it.
    QString readNodeOfSlot(int slot) const;
    // The connection replicaReads() uses for the master `master` ("host:port").
    RedisConnection &readConnection(const QString &master);
    // The chosen replica of `master` stopped answering (`error`, `when` it happened if not during a
    // plain read): the master is read itself until read nodes are chosen again. Returns why, as
    // ReadNode::why says it; empty when the master was not being read on a replica.
    QString readMasterItself(const QString &master, const QString &when, const QString &error);

    // RedisCommands: routed by slot (see RedisCommands.h for which argument is the key).
    void command(const QList<QByteArray> &args, ReplyCallback callback) override;
    void pipeline(const QList<QList<QByteArray>> &commands,
                  std::function<void(const QList<RedisReply> &)> callback) override;
    void eval(const LuaScript &script, const QList<QByteArray> &keys, const QList<QByteArray> &args,
              ReplyCallback callback) override;

Q_SIGNALS:
    // The slot map was (re)loaded or the mode became known.
    void topologyChanged();
    void warning(const QString &message);

private:
    struct Request;
    class ReplicaReads;
    void routeCommand(const QList<QByteArray> &args, ReplyCallback callback, bool toReplica);
    void routeEval(const LuaScript &script, const QList<QByteArray> &keys, const QList<QByteArray> &args,
                   ReplyCallback callback, bool toReplica);
    void routePipeline(const QList<QList<QByteArray>> &commands,
                       std::function<void(const QList<RedisReply> &)> callback, bool toReplica);
    RedisConnection &replicaConnection(const QString &address);
    void dropReplicaConnection(const QString &address);
    void probeReplica(const QString &master, QStringList candidates, QStringList failures,
                      std::function<void(const ReadNode &)> done);
    // The entry's settings (TLS, ACL user, timeouts) aimed at another node ("host:port").
    void send(std::shared_ptr<Request> request);
    void onReply(std::shared_ptr<Request> request, RedisConnection *conn, const RedisReply &reply);
    void becomeCluster();
    void scheduleReload();
    void probe(int seedIndex, std::function<void(const QString &)> done);
    void applyMap(const ClusterMap &map);
    void finishDetect(const QString &error);
    RedisConnection &connectionForSlot(int slot);

    std::unique_ptr<RedisConnection> m_entry;
    QHash<QString, RedisConnection *> m_nodes;        // children; the entry node is not among them
    QHash<QString, RedisConnection *> m_replicaNodes; // children with READONLY, by address
    QHash<QString, ReadNode> m_readNodes;             // by master address
    bool m_readNodesChosen = false;
    bool m_choosing = false;
    QList<std::function<void(const QList<ReadNode> &)>> m_chooseWaiters;
    std::unique_ptr<ReplicaReads> m_replicaReads;
    QString m_entryAddress;
    Mode m_mode = Mode::Unknown;
    ClusterMap m_map;
    bool m_mapLoaded = false; // read whole at least once (MOVED alone only patches single slots)
    bool m_reloading = false;
    bool m_reloadAgain = false;
    QList<std::function<void(const QString &)>> m_detectWaiters;
    bool m_detecting = false;
};

} // namespace semscope::redis::topology
