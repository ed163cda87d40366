#include "ClientLiveness.h"

#include "RedisConnection.h"
#include "topology/RedisTopology.h"

#include <QCoreApplication>
#include <QPointer>
#include <QRegularExpression>
#include <QSysInfo>
#include <QTimer>
#include <algorithm>
#include <memory>

namespace semscope::redis {

QByteArray sanitizeClientName(QByteArray name) {
    for (char &c : name) {
        if (c <= ' ' || c == 127)
            c = '-'; // Redis refuses names with spaces or control characters
    }
    return name;
}

namespace {
QString sanitized(const QString &text) {
    return QString::fromUtf8(sanitizeClientName(text.toUtf8()));
}
} // namespace

QString processClientName(const QString &app) {
    return sanitized(QStringLiteral("%1:%2@%3")
                         .arg(app)
                         .arg(QCoreApplication::applicationPid())
                         .arg(QSysInfo::machineHostName()));
}

QList<ClientEntry> parseClientList(const QByteArray &reply) {
    QList<ClientEntry> out;
    for (QByteArray line : reply.split('\n')) {
        if (line.endsWith('\r'))
            line.chop(1);
        if (line.isEmpty())
            continue;
        ClientEntry e;
        bool hasId = false;
        bool hasAddr = false;
        for (const QByteArray &field : line.split(' ')) {
            const qsizetype eq = field.indexOf('=');
            if (eq <= 0)
                continue;
            const QByteArray key = field.left(eq);
            const QByteArray value = field.mid(eq + 1);
            if (key == "id") {
                e.id = value.toLongLong(&hasId);
            } else if (key == "addr") {
                e.addr = QString::fromUtf8(value);
                hasAddr = !value.isEmpty();
            } else if (key == "name") {
                e.name = QString::fromUtf8(value);
            } else if (key == "age") {
                bool ok = false;
                e.ageS = value.toLongLong(&ok);
                if (!ok)
                    e.ageS = -1;
            } else if (key == "idle") {
                bool ok = false;
                e.idleS = value.toLongLong(&ok);
                if (!ok)
                    e.idleS = -1;
            } else if (key == "user") {
                e.user = QString::fromUtf8(value);
            }
        }
        if (hasId && hasAddr)
            out.append(e);
    }
    return out;
}

QString ClientIdentity::label() const {
    if (how == How::Name)
        return QObject::tr("a client named %1").arg(name);
    return QObject::tr("pid %1 on %2").arg(pid, host);
}

QString ClientIdentity::key() const {
    return how == How::Name ? QStringLiteral("name:") + name : QStringLiteral("pid:%1@%2").arg(pid, host);
}

bool ClientIdentity::matches(const ClientEntry &client) const {
    if (how == How::Name)
        return client.name == name;
    // Any connection of that process counts: its command connection, its subscriber ("-pubsub"),
    // its sentinel connection all end in ":<pid>@<host>".
    return client.name.endsWith(QStringLiteral(":%1@%2").arg(pid, host));
}

std::optional<ClientIdentity> clientIdentityOf(const core::Holder &holder) {
    // semscope's `leased` owner record: "<app> pid <pid> on <host>" (clientInfo() in the kinds), or
    // the client-name form itself.
    const QString info = holder.details.value(QStringLiteral("client")).toString();
    if (!info.isEmpty()) {
        static const QRegularExpression record(QStringLiteral(R"(^\S+ pid (\d+) on (.+)$)"));
        static const QRegularExpression name(QStringLiteral(R"(^[^:\s]+:(\d+)@(\S+)$)"));
        for (const QRegularExpression *re : {&record, &name}) {
            if (const auto m = re->match(info); m.hasMatch()) {
                ClientIdentity id;
                id.pid = m.captured(1);
                id.host = sanitized(m.captured(2));
                id.certain = true;
                id.source = QObject::tr("the owner record");
                return id;
            }
        }
    }
    // The ids semscope makes for its holders, "<host>:<pid>:<8 hex digits>" (makeHolderId): only a
    // hint, another program may write ids of that shape.
    static const QRegularExpression madeId(QStringLiteral(R"(^([^:\s]+):(\d+):[0-9a-f]{8}$)"));
    if (const auto m = madeId.match(holder.id); m.hasMatch()) {
        ClientIdentity id;
        id.pid = m.captured(2);
        id.host = sanitized(m.captured(1));
        id.source = QObject::tr("the holder id");
        return id;
    }
    // A holder id that can be a client name (CLIENT SETNAME allows no spaces): some clients use
    // their connection's name as their holder id.
    if (!holder.id.isEmpty() && holder.id.size() <= 256 &&
        !holder.id.contains(QRegularExpression(QStringLiteral("\\s"))) &&
        holder.rawId == holder.id.toUtf8()) {
        ClientIdentity id;
        id.how = ClientIdentity::How::Name;
        id.name = holder.id;
        id.source = QObject::tr("the holder id");
        return id;
    }
    return std::nullopt;
}

namespace {
struct ReadState {
    ClientListRead read;
    int pending = 0;
    std::function<void(const ClientListRead &)> done;
};

QString nodeOf(RedisConnection *c) {
    QString node = c->servingNode();
    if (node.isEmpty())
        node = c->lastServingNode();
    return node.isEmpty() ? c->endpoint() : node;
}

// Sends `args` to each node and gathers the lists; `done` runs once, when every node answered.
void askNodes(const QList<std::pair<RedisConnection *, QList<QByteArray>>> &asks, bool cluster,
              std::function<void(const ClientListRead &)> done) {
    auto state = std::make_shared<ReadState>();
    state->done = std::move(done);
    state->read.cluster = cluster;
    state->pending = int(asks.size());
    if (asks.isEmpty()) {
        state->read.error = QObject::tr("no node to ask");
        state->done(state->read);
        return;
    }
    for (const auto &[conn, args] : asks) {
        conn->command(args, [state, node = nodeOf(conn)](const RedisReply &reply) {
            if (reply.isString()) {
                state->read.nodes << node;
                for (ClientEntry e : parseClientList(reply.str)) {
                    e.node = node;
                    state->read.clients << e;
                }
            } else {
                const QString why = reply.isError()
                                        ? reply.errorMessage()
                                        : QObject::tr("unexpected reply %1").arg(reply.describe());
                if (reply.isServerError() && reply.str.startsWith("NOPERM"))
                    state->read.forbidden = true;
                state->read.failedNodes << QStringLiteral("%1: %2").arg(node, why);
            }
            if (--state->pending > 0)
                return;
            if (state->read.nodes.isEmpty()) {
                state->read.error =
                    state->read.forbidden
                        ? QObject::tr("this connection's ACL user may not run CLIENT LIST (%1)")
                              .arg(state->read.failedNodes.join(QStringLiteral("; ")))
                        : QObject::tr("CLIENT LIST failed: %1")
                              .arg(state->read.failedNodes.join(QStringLiteral("; ")));
            }
            state->done(state->read);
        });
    }
}

// Runs `ask` once the topology is known, or tells `done` the connection went.
void whenDetected(topology::RedisTopology &topology, std::function<void(const ClientListRead &)> done,
                  std::function<void(topology::RedisTopology &)> ask) {
    QPointer<topology::RedisTopology> guard(&topology);
    topology.detect([guard, done = std::move(done), ask = std::move(ask)](const QString &) {
        if (!guard) {
            ClientListRead gone;
            gone.error = QObject::tr("connection closed");
            done(gone);
            return;
        }
        ask(*guard);
    });
}
} // namespace

void readClientList(topology::RedisTopology &topology, std::function<void(const ClientListRead &)> done) {
    whenDetected(topology, done, [done](topology::RedisTopology &t) {
        // A holder's client talks to the master that serves its key, and semscope's own Cluster
        // clients open one connection per master: every master's list is read.
        QList<std::pair<RedisConnection *, QList<QByteArray>>> asks;
        for (RedisConnection *conn : t.masterConnections())
            asks.append({conn, {QByteArrayLiteral("CLIENT"), QByteArrayLiteral("LIST")}});
        askNodes(asks, t.mode() == topology::RedisTopology::Mode::Cluster, done);
    });
}

void readClientsById(topology::RedisTopology &topology, const QHash<QString, QList<qint64>> &idsByNode,
                     std::function<void(const ClientListRead &)> done) {
    whenDetected(topology, done, [idsByNode, done](topology::RedisTopology &t) {
        QList<std::pair<RedisConnection *, QList<QByteArray>>> asks;
        for (RedisConnection *conn : t.masterConnections()) {
            const auto it = idsByNode.constFind(nodeOf(conn));
            if (it == idsByNode.cend())
                continue;
            QList<QByteArray> args{QByteArrayLiteral("CLIENT"), QByteArrayLiteral("LIST"),
                                   QByteArrayLiteral("ID")};
            for (const qint64 id : *it)
                args << QByteArray::number(id);
            asks.append({conn, args});
        }
        if (asks.size() != idsByNode.size()) {
            // A node that served a remembered client is no longer a master here (a failover, a
            // resharding): only a whole read can tell where its clients are now.
            ClientListRead moved;
            moved.error = QObject::tr("a node of the last read is no longer a master");
            done(moved);
            return;
        }
        askNodes(asks, t.mode() == topology::RedisTopology::Mode::Cluster, done);
    });
}

core::ClientLiveness livenessFromRead(const ClientIdentity &identity, const ClientListRead &read,
                                      bool seenBefore) {
    using core::ClientLiveness;
    ClientLiveness l;
    l.source = ClientLiveness::Source::RedisClients;
    l.identity = identity.label();
    if (read.cluster)
        l.limits =
            QObject::tr("Cluster: the client lists of every master are read; a client connected only to "
                        "replicas is not seen.");
    if (!read.ok()) {
        l.evidence = read.error;
        return l;
    }
    for (const ClientEntry &c : read.clients) {
        if (!identity.matches(c))
            continue;
        l.state = ClientLiveness::State::Connected;
        l.evidence = QObject::tr("as %1 from %2").arg(c.name, c.addr);
        if (read.cluster)
            l.evidence += QObject::tr(" (to %1)").arg(c.node);
        return l;
    }
    const QString where = read.nodes.join(QStringLiteral(", "));
    // semscope's own connections are named too: a list without them does not show names as set
    // (a proxy in between that pools connections, say), and a missing name proves nothing.
    const QString ownSuffix = processClientName(QString());
    const bool seesOwnName =
        std::any_of(read.clients.cbegin(), read.clients.cend(),
                    [&ownSuffix](const ClientEntry &c) { return c.name.endsWith(ownSuffix); });
    if (!seesOwnName) {
        l.evidence =
            QObject::tr("%1 does not list semscope's own connection by its name (a proxy in between?), "
                        "so a missing client proves nothing")
                .arg(where);
        return l;
    }
    if (!read.failedNodes.isEmpty()) {
        // Not found where we could look, but it may be on a master we could not read.
        l.evidence = QObject::tr("not among the clients of %1, and %2 could not be read")
                         .arg(where, read.failedNodes.join(QStringLiteral("; ")));
        return l;
    }
    if (identity.certain || seenBefore) {
        l.state = ClientLiveness::State::Gone;
        l.evidence = identity.how == ClientIdentity::How::Name
                         ? QObject::tr("no client named %1 is connected to %2").arg(identity.name, where)
                         : QObject::tr("no connection of pid %1 on %2 is connected to %3")
                               .arg(identity.pid, identity.host, where);
        return l;
    }
    // A hint only: a client that never named itself looks just like one that is gone.
    l.evidence = identity.how == ClientIdentity::How::Name
                     ? QObject::tr("the record does not say which client holds it (no connected client is "
                                   "named %1)")
                           .arg(identity.name)
                     : QObject::tr("no connection of pid %1 on %2 is connected; the id only looks like one "
                                   "semscope makes, and its client may never have set a name")
                           .arg(identity.pid, identity.host);
    return l;
}

} // namespace semscope::redis
