#include "RedisTopology.h"

#include "core/AsyncChain.h"

#include "HashSlot.h"
#include "redis/transport/Logging.h"

#include <QTimer>
#include <algorithm>

namespace semscope::redis::topology {

namespace {

constexpr int kMaxRedirects = 8;
constexpr int kMaxBusyRetries = 6;
constexpr int kFirstBusyDelayMs = 50;
constexpr int kReloadDelayMs = 50; // lets a burst of MOVED replies share one reload

bool startsWith(const RedisReply &reply, const char *prefix) {
    return reply.isServerError() && reply.str.startsWith(prefix);
}

// "MOVED 3999 127.0.0.1:6381" -> slot and address.
bool parseRedirect(const QByteArray &error, int *slot, QString *address) {
    const QList<QByteArray> parts = error.split(' ');
    if (parts.size() < 3)
        return false;
    bool ok = false;
    *slot = parts.at(1).toInt(&ok);
    *address = QString::fromUtf8(parts.at(2));
    return ok && address->contains(QLatin1Char(':'));
}

} // namespace

struct RedisTopology::Request {
    bool isEval = false;
    QList<QByteArray> args; // command, or the script's args
    QList<QByteArray> keys; // eval only
    LuaScript script;
    ReplyCallback callback;
    int slot = -1;
    QString askTarget; // set for the one resend after an ASK
    int redirects = 0;
    int busyRetries = 0;
    bool toReplica = false;     // a read for replicaReads(): goes to its master's read node
    bool sentToReplica = false; // the last send went to a replica connection
    bool readFallback = false;  // that replica failed: this read goes to the master
};

// replicaReads(): the topology's own routing, aimed at read nodes.
class RedisTopology::ReplicaReads : public RedisCommands {
public:
    explicit ReplicaReads(RedisTopology &topology)
        : m_topology(topology) {}
    void command(const QList<QByteArray> &args, ReplyCallback callback) override {
        m_topology.routeCommand(args, std::move(callback), true);
    }
    void pipeline(const QList<QList<QByteArray>> &commands,
                  std::function<void(const QList<RedisReply> &)> callback) override {
        m_topology.routePipeline(commands, std::move(callback), true);
    }
    void eval(const LuaScript &script, const QList<QByteArray> &keys, const QList<QByteArray> &args,
              ReplyCallback callback) override {
        m_topology.routeEval(script, keys, args, std::move(callback), true);
    }

private:
    RedisTopology &m_topology;
};

RedisCommands &RedisTopology::replicaReads() {
    return *m_replicaReads;
}

QString RedisTopology::ReadNode::label() const {
    return node + (replica ? QStringLiteral(" (replica)") : QStringLiteral(" (master)"));
}

RedisTopology::RedisTopology(ConnectionSettings settings, QObject *parent)
    : QObject(parent)
    , m_entry(std::make_unique<RedisConnection>(std::move(settings)))
    , m_replicaReads(std::make_unique<ReplicaReads>(*this)) {
    const ConnectionSettings &s = m_entry->settings();
    m_entryAddress = s.host + QLatin1Char(':') + QString::number(s.port);
    connect(m_entry.get(), &RedisConnection::warning, this, &RedisTopology::warning);
}

RedisTopology::~RedisTopology() {
    // Connections are children; pending callbacks may refer to this object, so drop them first.
    for (RedisConnection *c : std::as_const(m_nodes))
        delete c;
    m_nodes.clear();
    for (RedisConnection *c : std::as_const(m_replicaNodes))
        delete c;
    m_replicaNodes.clear();
    m_entry.reset();
}

void RedisTopology::open() {
    m_entry->open();
    // The mode is asked for right away (INFO cluster goes out right behind the handshake), so a
    // standalone server's commands take the direct path from the first reply on. Until then, and
    // if the question fails, commands are routed and redirects followed, which is right either way.
    detect({});
}

QString RedisTopology::nodeOfSlot(int slot) const {
    if (m_mode == Mode::Cluster) {
        const QString owner = m_map.masterOfSlot(slot);
        if (!owner.isEmpty())
            return owner;
    }
    return m_entryAddress;
}

QString RedisTopology::nodeOfKey(const QByteArray &key) const {
    return nodeOfSlot(hashSlot(key));
}

ConnectionSettings RedisTopology::nodeSettings(const QString &address) const {
    ConnectionSettings s = m_entry->settings();
    const qsizetype colon = address.lastIndexOf(QLatin1Char(':'));
    s.host = address.left(colon);
    s.port = quint16(address.mid(colon + 1).toUInt());
    // The certificate names the host the operator typed; nodes are announced by IP.
    if (s.transport == ConnectionSettings::Transport::Tls && s.sniHost.isEmpty())
        s.sniHost = m_entry->settings().host;
    return s;
}

RedisConnection &RedisTopology::nodeConnection(const QString &address) {
    if (address == m_entryAddress)
        return *m_entry;
    if (RedisConnection *c = m_nodes.value(address))
        return *c;
    auto *c = new RedisConnection(nodeSettings(address), this);
    connect(c, &RedisConnection::warning, this, &RedisTopology::warning);
    m_nodes.insert(address, c);
    c->open();
    return *c;
}

RedisConnection &RedisTopology::replicaConnection(const QString &address) {
    if (RedisConnection *c = m_replicaNodes.value(address)) {
        if (c->state() != RedisConnection::State::Disconnected)
            return *c;
        dropReplicaConnection(address); // closed for good (no auto-reconnect): a fresh one tries again
    }
    ConnectionSettings s = nodeSettings(address);
    s.clusterReadOnly = true;
    auto *c = new RedisConnection(s, this);
    connect(c, &RedisConnection::warning, this, &RedisTopology::warning);
    m_replicaNodes.insert(address, c);
    c->open();
    return *c;
}

void RedisTopology::dropReplicaConnection(const QString &address) {
    if (RedisConnection *c = m_replicaNodes.take(address)) {
        c->close(); // its pending reads fail (and go to the master) instead of being dropped
        c->deleteLater();
    }
}

QString RedisTopology::readMasterItself(const QString &master, const QString &when, const QString &error) {
    auto it = m_readNodes.find(master);
    if (it == m_readNodes.end() || !it->replica)
        return {};
    it->why = QStringLiteral("its replica %1 stopped answering%2 (%3)")
                  .arg(it->node, when.isEmpty() ? QString() : QLatin1Char(' ') + when, error);
    const QString why = it->why;
    it->node = master;
    it->replica = false;
    Q_EMIT warning(QStringLiteral("reading master %1 itself: %2").arg(master, why));
    return why;
}

RedisConnection &RedisTopology::readConnection(const QString &master) {
    const auto it = m_readNodes.constFind(master);
    if (it != m_readNodes.cend() && it->replica)
        return replicaConnection(it->node);
    return nodeConnection(master);
}

QString RedisTopology::readNodeOfSlot(int slot) const {
    const QString master = nodeOfSlot(slot);
    const auto it = m_readNodes.constFind(master);
    if (m_mode != Mode::Cluster || it == m_readNodes.cend())
        return master + QStringLiteral(" (master)");
    return it->label();
}

void RedisTopology::chooseReadNodes(std::function<void(const QList<ReadNode> &)> done) {
    // Callers that ask while a choice is being made share it (a list reads hundreds at once).
    m_chooseWaiters << std::move(done);
    if (m_choosing)
        return;
    m_choosing = true;
    struct Choice {
        QList<ReadNode> nodes;
        int left = 0;
    };
    auto choice = std::make_shared<Choice>();
    auto finish = [this](const QList<ReadNode> &nodes) {
        m_choosing = false;
        const auto waiters = std::exchange(m_chooseWaiters, {});
        for (const auto &w : waiters) {
            if (w)
                w(nodes);
        }
    };
    QList<QPair<QString, QStringList>> plan; // master, replicas to try in order
    if (m_mode == Mode::Cluster) {
        for (const ClusterShard &shard : m_map.shards()) {
            if (shard.slotCount() == 0)
                continue;
            QStringList online;
            QStringList others;
            for (const ClusterNode &r : shard.replicas) {
                if (r.health == QLatin1String("failed"))
                    continue; // the cluster itself says it is gone
                (r.health == QLatin1String("online") ? online : others) << r.address();
            }
            plan.append({shard.master.address(), online + others});
        }
    }
    if (plan.isEmpty()) {
        QTimer::singleShot(0, this, [finish] { finish({}); });
        return;
    }
    choice->nodes.resize(plan.size());
    choice->left = int(plan.size());
    for (qsizetype i = 0; i < plan.size(); ++i) {
        probeReplica(plan.at(i).first, plan.at(i).second, {},
                     [this, choice, i, finish](const ReadNode &node) {
                         choice->nodes[i] = node;
                         m_readNodes.insert(node.master, node);
                         if (--choice->left > 0)
                             return;
                         m_readNodesChosen = true;
                         finish(choice->nodes);
                     });
    }
}

// Tries the replicas of `master` in turn (PING on a READONLY connection); the first that answers is
// its read node. None answering (or none at all): the master, with the reasons.
void RedisTopology::probeReplica(const QString &master, QStringList candidates, QStringList failures,
                                 std::function<void(const ReadNode &)> done) {
    if (candidates.isEmpty()) {
        ReadNode node;
        node.master = master;
        node.node = master;
        node.why = failures.isEmpty() ? QStringLiteral("it has no replica")
                                      : QStringLiteral("none of its replicas answered (%1)")
                                            .arg(failures.join(QStringLiteral("; ")));
        QTimer::singleShot(0, this, [done, node] { done(node); });
        return;
    }
    const QString address = candidates.takeFirst();
    RedisConnection &conn = replicaConnection(address);
    conn.command({"PING"}, [this, master, address, candidates, failures, done](const RedisReply &reply) {
        if (!reply.isError()) {
            ReadNode node;
            node.master = master;
            node.node = address;
            node.replica = true;
            done(node);
            return;
        }
        QStringList more = failures;
        QString why = reply.errorMessage();
        if (!why.contains(address))
            why = address + QStringLiteral(": ") + why;
        more << why;
        probeReplica(master, candidates, more, done);
    });
}

RedisConnection &RedisTopology::connectionForSlot(int slot) {
    if (m_mode != Mode::Cluster)
        return *m_entry;
    QString owner = m_map.masterOfSlot(slot < 0 ? 0 : slot);
    if (owner.isEmpty() && !m_map.isEmpty())
        owner = m_map.shards().first().master.address();
    return owner.isEmpty() ? *m_entry : nodeConnection(owner);
}

QList<RedisConnection *> RedisTopology::masterConnections() {
    QList<RedisConnection *> out;
    if (m_mode != Mode::Cluster) {
        out << m_entry.get();
        return out;
    }
    for (const ClusterShard &s : m_map.shards()) {
        if (s.slotCount() > 0)
            out << &nodeConnection(s.master.address());
    }
    return out;
}

void RedisTopology::command(const QList<QByteArray> &args, ReplyCallback callback) {
    routeCommand(args, std::move(callback), false);
}

void RedisTopology::eval(const LuaScript &script, const QList<QByteArray> &keys,
                         const QList<QByteArray> &args, ReplyCallback callback) {
    routeEval(script, keys, args, std::move(callback), false);
}

void RedisTopology::pipeline(const QList<QList<QByteArray>> &commands,
                             std::function<void(const QList<RedisReply> &)> callback) {
    routePipeline(commands, std::move(callback), false);
}

void RedisTopology::routeCommand(const QList<QByteArray> &args, ReplyCallback callback, bool toReplica) {
    if (m_mode != Mode::Cluster && m_mode != Mode::Unknown) {
        m_entry->command(args, std::move(callback));
        return;
    }
    auto r = std::make_shared<Request>();
    r->toReplica = toReplica;
    r->args = args;
    r->callback = std::move(callback);
    r->slot = args.size() > 1 ? hashSlot(args.at(1)) : -1;
    send(std::move(r));
}

void RedisTopology::routeEval(const LuaScript &script, const QList<QByteArray> &keys,
                              const QList<QByteArray> &args, ReplyCallback callback, bool toReplica) {
    if (m_mode == Mode::Standalone) {
        m_entry->eval(script, keys, args, std::move(callback));
        return;
    }
    auto r = std::make_shared<Request>();
    r->toReplica = toReplica;
    r->isEval = true;
    r->script = script;
    r->keys = keys;
    r->args = args;
    r->callback = std::move(callback);
    r->slot = keys.isEmpty() ? -1 : hashSlot(keys.first());
    send(std::move(r));
}

void RedisTopology::routePipeline(const QList<QList<QByteArray>> &commands,
                                  std::function<void(const QList<RedisReply> &)> callback, bool toReplica) {
    if (m_mode == Mode::Standalone || commands.isEmpty()) {
        m_entry->pipeline(commands, std::move(callback));
        return;
    }
    // Each command on its own route; they are still written back to back on each node.
    struct Collector {
        QList<RedisReply> replies;
        qsizetype left = 0;
        std::function<void(const QList<RedisReply> &)> callback;
    };
    auto collector = std::make_shared<Collector>();
    collector->replies.resize(commands.size());
    collector->left = commands.size();
    collector->callback = std::move(callback);
    for (qsizetype i = 0; i < commands.size(); ++i) {
        routeCommand(
            commands.at(i),
            [collector, i](const RedisReply &reply) {
                collector->replies[i] = reply;
                if (--collector->left == 0 && collector->callback)
                    collector->callback(collector->replies);
            },
            toReplica);
    }
}

void RedisTopology::send(std::shared_ptr<Request> request) {
    RedisConnection *conn = nullptr;
    if (!request->askTarget.isEmpty())
        conn = &nodeConnection(request->askTarget);
    else if (request->toReplica && !request->readFallback && m_mode == Mode::Cluster)
        conn = &readConnection(m_map.masterOfSlot(request->slot < 0 ? 0 : request->slot));
    else
        conn = &connectionForSlot(request->slot);
    request->sentToReplica = conn->settings().clusterReadOnly;
    QPointer<RedisConnection> guard(conn);
    auto handle = [this, request, guard](const RedisReply &reply) { onReply(request, guard.data(), reply); };
    if (!request->askTarget.isEmpty()) {
        // ASKING holds for the next command only, so the script goes as EVAL, not EVALSHA (a
        // NOSCRIPT fallback would come too late for the ASKING flag).
        request->askTarget.clear();
        QList<QByteArray> args;
        if (request->isEval) {
            args << QByteArrayLiteral("EVAL") << request->script.source()
                 << QByteArray::number(request->keys.size()) << request->keys << request->args;
        } else {
            args = request->args;
        }
        conn->pipeline({{"ASKING"}, args},
                       [handle, script = request->script](const QList<RedisReply> &replies) {
                           handle(script.withoutErrorPlace(replies.value(1, replies.value(0))));
                       });
        return;
    }
    if (request->isEval)
        conn->eval(request->script, request->keys, request->args, handle);
    else
        conn->command(request->args, handle);
}

void RedisTopology::onReply(std::shared_ptr<Request> request, RedisConnection *conn,
                            const RedisReply &reply) {
    auto finish = [&](const RedisReply &r) {
        if (request->callback)
            request->callback(r);
    };
    if (reply.isTransportError() && request->sentToReplica && !request->readFallback) {
        // A replica that stopped answering: reads are safe to repeat, so this one goes to the
        // master, and so does every read of that master until read nodes are chosen again.
        readMasterItself(m_map.masterOfSlot(request->slot < 0 ? 0 : request->slot), QString(),
                         reply.errorMessage());
        request->readFallback = true;
        send(request);
        return;
    }
    if (reply.isTransportError()) {
        if (m_mode == Mode::Cluster)
            scheduleReload(); // a dead master: its replica may be taking over
        finish(reply);
        return;
    }
    if (!reply.isServerError()) {
        finish(reply);
        return;
    }
    const bool moved = startsWith(reply, "MOVED ");
    const bool ask = startsWith(reply, "ASK ");
    if (moved || ask) {
        int slot = -1;
        QString address;
        if (!parseRedirect(reply.str, &slot, &address) || ++request->redirects > kMaxRedirects) {
            finish(
                RedisReply::error(QByteArrayLiteral("ERR the cluster kept redirecting this command (slot ") +
                                  QByteArray::number(request->slot) +
                                  QByteArrayLiteral("): its slot map is changing; try again in a moment")));
            return;
        }
        if (moved) {
            becomeCluster();
            m_map.moveSlot(slot, address);
            scheduleReload();
        } else {
            becomeCluster();
            request->askTarget = address;
        }
        send(request);
        return;
    }
    const bool tryAgain = startsWith(reply, "TRYAGAIN");
    const bool down = startsWith(reply, "CLUSTERDOWN");
    if (tryAgain || down) {
        if (down)
            scheduleReload();
        if (request->busyRetries < kMaxBusyRetries) {
            const int delay = kFirstBusyDelayMs << request->busyRetries++;
            QTimer::singleShot(delay, this, [this, request] { send(request); });
            return;
        }
        const QString node = conn ? conn->endpoint() : nodeOfSlot(request->slot);
        finish(RedisReply::error(
            (tryAgain ? QStringLiteral("ERR %1: slot %2 is being moved between masters and its keys are "
                                       "split for now; still so after %3 tries")
                      : QStringLiteral("ERR %1: the cluster is down for slot %2 (no master serves it); "
                                       "still so after %3 tries"))
                .arg(node)
                .arg(request->slot)
                .arg(kMaxBusyRetries + 1)
                .toUtf8()));
        return;
    }
    if (startsWith(reply, "CROSSSLOT")) {
        QStringList slotNames;
        for (int s : distinctSlots(request->isEval ? request->keys : request->args.mid(1)))
            slotNames << QString::number(s);
        finish(RedisReply::error(
            QStringLiteral("ERR these keys are in different hash slots (%1) of a Redis Cluster; no single "
                           "command or script can span slots")
                .arg(slotNames.join(QStringLiteral(", ")))
                .toUtf8()));
        return;
    }
    finish(reply);
}

void RedisTopology::becomeCluster() {
    if (m_mode == Mode::Cluster)
        return;
    m_mode = Mode::Cluster;
    Q_EMIT topologyChanged();
}

void RedisTopology::scheduleReload() {
    if (m_reloading) {
        m_reloadAgain = true;
        return;
    }
    m_reloading = true;
    QTimer::singleShot(kReloadDelayMs, this, [this] {
        m_reloading = false;
        reloadMap({});
    });
}

void RedisTopology::detect(std::function<void(const QString &error)> done) {
    if (m_mode == Mode::Standalone || (m_mode == Mode::Cluster && m_mapLoaded)) {
        QTimer::singleShot(0, this, [done = std::move(done)] {
            if (done)
                done({});
        });
        return;
    }
    m_detectWaiters << std::move(done);
    if (m_detecting)
        return;
    m_detecting = true;
    if (m_mode == Mode::Cluster) {
        reloadMap([this](const QString &error) { finishDetect(error); });
        return;
    }
    probe(-1, [this](const QString &error) { finishDetect(error); });
}

void RedisTopology::finishDetect(const QString &error) {
    m_detecting = false;
    const auto waiters = std::exchange(m_detectWaiters, {});
    for (const auto &w : waiters) {
        if (w)
            w(error);
    }
}

// INFO cluster on the entry node (seedIndex -1), then on each seed node in turn while they fail.
void RedisTopology::probe(int seedIndex, std::function<void(const QString &)> done) {
    const QStringList &seeds = m_entry->settings().seedNodes;
    RedisConnection &conn = seedIndex < 0 ? *m_entry : nodeConnection(seeds.at(seedIndex));
    QPointer<RedisConnection> guard(&conn);
    conn.command({"INFO", "cluster"}, [this, seedIndex, guard, done](const RedisReply &reply) {
        if (reply.isTransportError()) {
            if (seedIndex + 1 < m_entry->settings().seedNodes.size()) {
                probe(seedIndex + 1, done);
                return;
            }
            done(reply.errorMessage());
            return;
        }
        if (!reply.isString() || !reply.str.contains("cluster_enabled:1")) {
            // Anything else (an old server, a proxy that refuses INFO) is treated as one node.
            if (m_mode == Mode::Unknown) {
                m_mode = Mode::Standalone;
                Q_EMIT topologyChanged();
            }
            done({});
            return;
        }
        m_mode = Mode::Cluster;
        reloadMap(done);
    });
}

void RedisTopology::reloadMap(std::function<void(const QString &error)> done) {
    // Ask the entry node, then every known master, then the seeds: any live node knows the map.
    QList<RedisConnection *> sources{m_entry.get()};
    for (const ClusterShard &s : m_map.shards())
        sources << &nodeConnection(s.master.address());
    for (const QString &seed : m_entry->settings().seedNodes)
        sources << &nodeConnection(seed);
    QList<QPointer<RedisConnection>> guarded;
    for (RedisConnection *c : sources) {
        if (!guarded.contains(c))
            guarded << c;
    }
    const bool tls = m_entry->settings().transport == ConnectionSettings::Transport::Tls;
    // Only the request in flight holds the next attempt (core::AsyncChain), so a reload abandoned at
    // shutdown (its reply never comes) frees everything.
    using Chain = core::AsyncChain<int, QString>;
    const auto attempt =
        Chain::start(this, [this, guarded, tls, done](const Chain::Ptr &attempt, int i, QString lastError) {
            while (i < guarded.size() && !guarded.at(i))
                ++i;
            if (i >= guarded.size()) {
                if (m_reloadAgain) {
                    m_reloadAgain = false;
                    scheduleReload();
                }
                qCWarning(lcRedisTransport).noquote() << "cannot read the cluster's slot map:" << lastError;
                if (done)
                    done(QStringLiteral("cannot read the cluster's slot map: ") + lastError);
                return;
            }
            RedisConnection *c = guarded.at(i);
            c->pipeline({{"CLUSTER", "SHARDS"}, {"CLUSTER", "SLOTS"}}, [this, i, tls, done, attempt,
                                                                        c](const QList<RedisReply> &replies) {
                QString error;
                std::optional<ClusterMap> map;
                if (!replies.value(0).isError())
                    map = ClusterMap::fromShards(replies.value(0), tls, &error, c->settings().host);
                if (!map && !replies.value(1).isError())
                    map = ClusterMap::fromSlots(replies.value(1), &error, c->settings().host);
                if (!map || map->isEmpty()) {
                    if (error.isEmpty())
                        error = c->endpoint() + QStringLiteral(": ") + replies.value(1).errorMessage();
                    (*attempt)(i + 1, error);
                    return;
                }
                applyMap(*map);
                if (done)
                    done({});
                if (m_reloadAgain) {
                    m_reloadAgain = false;
                    scheduleReload();
                }
            });
        });
    (*attempt)(0, QString());
}

void RedisTopology::applyMap(const ClusterMap &map) {
    m_map = map;
    m_mapLoaded = true;
    m_mode = Mode::Cluster;
    // Read nodes stay chosen while their master is still one and the replica still its replica
    // (after a failover the choice is made again on the next read).
    QHash<QString, ReadNode> kept;
    bool complete = true;
    for (const ClusterShard &shard : m_map.shards()) {
        if (shard.slotCount() == 0)
            continue;
        const auto it = m_readNodes.constFind(shard.master.address());
        const bool stillThere =
            it != m_readNodes.cend() &&
            (!it->replica || std::any_of(shard.replicas.cbegin(), shard.replicas.cend(),
                                         [&](const ClusterNode &r) { return r.address() == it->node; }));
        if (stillThere)
            kept.insert(it.key(), *it);
        else
            complete = false;
    }
    m_readNodes = kept;
    m_readNodesChosen = m_readNodesChosen && complete;
    // Connections to nodes that are no longer masters stay open: a demoted master answers MOVED
    // to what is still in flight on it, which is better than failing those commands.
    Q_EMIT topologyChanged();
}

} // namespace semscope::redis::topology
