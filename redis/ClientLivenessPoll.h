#pragma once

#include "core/ClientLiveness.h"
#include "core/SemaphoreTypes.h"

#include <QHash>
#include <QList>
#include <QSet>
#include <QString>
#include <functional>
#include <memory>

namespace semscope::redis {

namespace topology {
class RedisTopology;
}

// RedisSemaphoreStore::readClientLiveness, kept cheap for the server it watches. CLIENT LIST costs
// the server time and bytes for every connected client, and a page polls each second: on a
// production server with thousands of connections that is megabytes a second for a few holders.
// So the whole list is read only when something may have changed that a short read cannot see:
//   - a holder's client not asked about before;
//   - a connection found for a holder at the last read that is no longer there (the process may
//     have other connections, or none: the whole list says which, at once);
//   - every `fullReadEveryMs`, for the clients not found last time (one that connects again);
//   - a server that refuses CLIENT LIST ID (older than 6.2), or a node that stopped being a master.
// In between, one CLIENT LIST ID asks each node for just the connections found for the holders.
class ClientLivenessPoll {
public:
    explicit ClientLivenessPoll(qint64 fullReadEveryMs = 10'000);
    ~ClientLivenessPoll();

    // Runs on the thread of `topology`; `done` runs once, there, and never from inside this call.
    void read(topology::RedisTopology &topology, const QList<core::Holder> &holders,
              const QSet<QString> &seenConnected,
              std::function<void(QHash<QString, core::HolderClientLiveness>)> done);

private:
    struct State;
    std::shared_ptr<State> m_state; // shared with the reads in flight, which may outlive this
};

} // namespace semscope::redis
