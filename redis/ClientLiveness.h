#pragma once

#include "core/ClientLiveness.h"
#include "core/SemaphoreTypes.h"

#include <QHash>
#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>
#include <functional>
#include <optional>

namespace semscope::redis {

namespace topology {
class RedisTopology;
}

// The name semscope gives each of its connections (CLIENT SETNAME): "<app>:<pid>@<host>", e.g.
// "semscope-cli:30410@vm". The `leased` owner record says "<app> pid <pid> on <host>", so a holder
// can be matched to the process's connections among the server's clients. Redis refuses names
// with spaces or control characters: those become '-'.
QString processClientName(const QString &app);
QByteArray sanitizeClientName(QByteArray name);

// One line of CLIENT LIST: "id=7 addr=10.0.0.5:51234 laddr=… fd=8 name=semscope:412@vm age=3 idle=0 …".
struct ClientEntry {
    qint64 id = -1;
    QString name;
    QString addr;
    qint64 ageS = -1;  // seconds since it connected
    qint64 idleS = -1; // seconds since its last command
    QString user;      // ACL user (Redis 6+)
    QString node;      // "host:port" of the server that listed it (set by readClientList)
};

// Parses a CLIENT LIST reply. Fields are "key=value" separated by single spaces; a value never
// holds a space (client names cannot). Lines without id= or addr= are skipped.
QList<ClientEntry> parseClientList(const QByteArray &reply);

// What in a holder's record says which client holds it.
struct ClientIdentity {
    enum class How {
        Process, // a process: "<app> pid 30410 on vm" (leased owner record), "vm:30410:1f2e3d4c" (id)
        Name,    // a client name: the holder id is a name some client gave itself (CLIENT SETNAME)
    };
    How how = How::Process;
    QString pid;
    QString host; // as it appears in a client name (sanitized)
    QString name; // How::Name
    // From semscope's own owner record: its clients always name their connections, so no such
    // connection means the process is gone. Other sources (an id that only looks like semscope's,
    // a name) are hints: a client that never named itself looks the same as one that is gone, so
    // they read "gone" only after the client was once seen connected.
    bool certain = false;
    QString source; // where it came from, in words: "the owner record", "the holder id"

    QString label() const; // "pid 30410 on vm", "a client named worker-7"
    QString key() const;   // stable key for remembering it between reads
    bool matches(const ClientEntry &client) const;
};

// nullopt: nothing in the record identifies a client.
std::optional<ClientIdentity> clientIdentityOf(const core::Holder &holder);

// One read of the connected clients behind a connection: every master on a Cluster (one
// CLIENT LIST each), else the server itself.
struct ClientListRead {
    QList<ClientEntry> clients;
    QStringList nodes;       // read
    QStringList failedNodes; // "host:port: error"
    QString error;           // set when no node could be read
    bool forbidden = false;  // the ACL user may not run CLIENT LIST
    bool cluster = false;
    bool ok() const { return error.isEmpty(); }
};

// Runs on the thread of `topology` (the connection's worker thread); `done` runs once, there.
void readClientList(topology::RedisTopology &topology, std::function<void(const ClientListRead &)> done);

// CLIENT LIST ID (Redis 6.2+): only the clients of those ids, per node ("host:port" as ClientEntry::node
// names it). The read fails (error set) when a node is no longer among the masters, or refuses the form.
void readClientsById(topology::RedisTopology &topology, const QHash<QString, QList<qint64>> &idsByNode,
                     std::function<void(const ClientListRead &)> done);

// What a read says of one holder's identity. `seenBefore`: the identity was connected at an
// earlier read (a hint-only identity may then read "gone").
core::ClientLiveness livenessFromRead(const ClientIdentity &identity, const ClientListRead &read,
                                      bool seenBefore);

} // namespace semscope::redis
