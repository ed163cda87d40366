#pragma once

#include <QString>
#include <optional>

namespace semscope::core {

// Whether the client behind a holder is still there, as far as the server can tell: the first
// question at 3 a.m. ("the card says pid 30410 on vm — is that process still alive?"). A Redis
// holder's client is looked for among the server's connected clients (CLIENT LIST); a Consul
// holder's session lives on a node whose health checks say whether that node is well.
struct ClientLiveness {
    enum class State {
        Connected, // Redis: a client of that process/name is connected; Consul: the node's checks pass
        Gone,      // Redis: no such client connected; Consul: a check of the node is critical
        Unknown,   // cannot tell: `evidence` says why
    };
    // What was asked: a Redis server's client list, or a Consul node's health checks. Only the
    // words differ ("client gone" / "checks failing").
    enum class Source { RedisClients, ConsulNodeChecks };

    State state = State::Unknown;
    Source source = Source::RedisClients;
    // Who was looked for, in words: "pid 30410 on vm", "client named worker-7", "node worker-3".
    QString identity;
    // Connected/Gone: what was seen ("connected as semscope-cli:30410@vm from 10.0.0.5:51234",
    // "serfHealth critical: Agent not live"). Unknown: why it cannot tell.
    QString evidence;
    // Gone: the first read (client clock, ms) that no longer found it. When it was never seen
    // connected, that is when semscope first looked, and `sinceFirstLook` says so.
    std::optional<qint64> goneSinceMs;
    bool sinceFirstLook = false;
    // What this answer cannot see (Cluster: only the masters' client lists are read).
    QString limits;

    bool operator==(const ClientLiveness &o) const = default;
};

// One holder's answer from SemaphoreStore::readClientLiveness.
struct HolderClientLiveness {
    // Who the client is, the same for every holder of one client ("pid:30410@vm", "node:worker-3"):
    // what a caller remembers answers by between reads.
    QString identityKey;
    ClientLiveness liveness;

    bool operator==(const HolderClientLiveness &o) const = default;
};

// One line for the holder card: "connected", "client gone since 03:12:40 (4 m 05 s)",
// "checks failing since …", "cannot tell: …".
QString livenessSummary(const ClientLiveness &liveness, qint64 nowMs);

} // namespace semscope::core
