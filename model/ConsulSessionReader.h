#pragma once

#include "ConnectionController.h"
#include "ConsulSessionEntry.h"

namespace semscope::model {

// What one read of a Consul connection's sessions found.
struct SessionScan {
    bool ok = false;
    QString error; // names the address; set when the session list itself could not be read
    QList<SessionEntry> sessions;
    int semaphoresRead = 0;     // snapshots read to learn what each session holds
    int semaphoresSkipped = 0;  // listed semaphores beyond kMaxSemaphores, not read this round
    QStringList snapshotErrors; // semaphores whose snapshot failed (their holdings are missing)
};

// Reads every session of a Consul connection (/v1/session/list, one request) and then, to say what
// each one holds, the snapshots of the connection's listed semaphores: a semaphore's holders and
// waiters carry their session, after the store has pruned them against the live sessions. At most
// kMaxSemaphores snapshots per read, so a datacenter with thousands of semaphores costs a bounded
// number of requests per refresh. Everything runs on the connection's worker thread; `done` runs
// once on the GUI thread (dropped when `context` is gone).
class ConsulSessionReader {
public:
    static constexpr int kMaxSemaphores = 200;

    static void read(ConnectionController *controller, const QList<core::SemaphoreRef> &semaphores,
                     QObject *context, core::Callback<SessionScan> done);
};

} // namespace semscope::model
