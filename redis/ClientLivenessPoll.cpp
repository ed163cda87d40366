#include "ClientLivenessPoll.h"

#include "ClientLiveness.h"
#include "topology/RedisTopology.h"

#include <QElapsedTimer>
#include <QPointer>
#include <QTimer>

namespace semscope::redis {

namespace {
using Answers = QHash<QString, core::HolderClientLiveness>;
using Items = QList<std::pair<QString, ClientIdentity>>; // holder id, its client's identity
} // namespace

struct ClientLivenessPoll::State {
    qint64 fullReadEveryMs;
    QElapsedTimer sinceFullRead;                     // invalid until a whole read succeeded
    bool byIdRefused = false;                        // the server does not know CLIENT LIST ID
    QHash<QString, ClientEntry> found;               // identity key -> its connection at the last read
    QHash<QString, core::ClientLiveness> lastAnswer; // identity key -> what the last read said

    void fullRead(topology::RedisTopology &topology, const Items &items, const QSet<QString> &seen,
                  const std::shared_ptr<State> &self, std::function<void(Answers)> done) {
        readClientList(topology, [self, items, seen, done](const ClientListRead &read) {
            Answers out;
            if (read.ok()) {
                self->found.clear();
                self->lastAnswer.clear();
                self->sinceFullRead.start();
            }
            for (const auto &[holderId, identity] : items) {
                const QString key = identity.key();
                const core::ClientLiveness l = livenessFromRead(identity, read, seen.contains(key));
                out.insert(holderId, {key, l});
                if (!read.ok())
                    continue;
                self->lastAnswer.insert(key, l);
                if (l.state == core::ClientLiveness::State::Connected) {
                    for (const ClientEntry &c : read.clients) {
                        if (identity.matches(c)) {
                            self->found.insert(key, c);
                            break;
                        }
                    }
                }
            }
            done(out);
        });
    }
};

ClientLivenessPoll::ClientLivenessPoll(qint64 fullReadEveryMs)
    : m_state(std::make_shared<State>()) {
    m_state->fullReadEveryMs = fullReadEveryMs;
}

ClientLivenessPoll::~ClientLivenessPoll() = default;

void ClientLivenessPoll::read(topology::RedisTopology &topology, const QList<core::Holder> &holders,
                              const QSet<QString> &seenConnected, std::function<void(Answers)> done) {
    Items items;
    for (const core::Holder &h : holders) {
        if (auto id = clientIdentityOf(h))
            items.append({h.id, *id});
    }
    const std::shared_ptr<State> st = m_state;
    bool whole =
        !st->sinceFullRead.isValid() || st->sinceFullRead.hasExpired(st->fullReadEveryMs) || st->byIdRefused;
    QHash<QString, QList<qint64>> idsByNode;
    for (const auto &[holderId, identity] : items) {
        const QString key = identity.key();
        if (!st->lastAnswer.contains(key))
            whole = true;
        else if (const auto it = st->found.constFind(key);
                 it != st->found.cend() && !idsByNode[it->node].contains(it->id))
            idsByNode[it->node] << it->id;
    }
    if (items.isEmpty() || (!whole && idsByNode.isEmpty())) {
        // Nothing to ask the server: no holder names its client, or none was found connected last
        // time (those answers stand until the next whole read). Later, as every store answer comes.
        Answers out;
        for (const auto &[holderId, identity] : items)
            out.insert(holderId, {identity.key(), st->lastAnswer.value(identity.key())});
        QTimer::singleShot(0, [done, out] { done(out); });
        return;
    }
    if (whole) {
        st->fullRead(topology, items, seenConnected, st, std::move(done));
        return;
    }
    readClientsById(
        topology, idsByNode,
        [st, items, seenConnected, done,
         guard = QPointer<topology::RedisTopology>(&topology)](const ClientListRead &read) {
            bool allThere = read.ok();
            if (!read.ok() && (read.error.contains(QStringLiteral("syntax")) ||
                               read.error.contains(QStringLiteral("nknown subcommand"))))
                st->byIdRefused = true;
            Answers out;
            for (const auto &[holderId, identity] : items) {
                const QString key = identity.key();
                const auto it = st->found.constFind(key);
                if (it == st->found.cend()) {
                    out.insert(holderId, {key, st->lastAnswer.value(key)});
                    continue;
                }
                const bool there =
                    std::any_of(read.clients.cbegin(), read.clients.cend(), [&](const ClientEntry &c) {
                        return c.id == it->id && c.node == it->node && identity.matches(c);
                    });
                if (!there) {
                    allThere = false;
                    break;
                }
                out.insert(holderId, {key, livenessFromRead(identity, read, true)});
            }
            if (allThere) {
                done(out);
                return;
            }
            if (!guard) { // the connection went meanwhile
                ClientListRead closed;
                closed.error = QObject::tr("connection closed");
                for (const auto &[holderId, identity] : items)
                    out.insert(holderId, {identity.key(), livenessFromRead(identity, closed, true)});
                done(out);
                return;
            }
            st->fullRead(*guard, items, seenConnected, st, done);
        });
}

} // namespace semscope::redis
