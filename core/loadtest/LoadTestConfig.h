#pragma once

#include "Distribution.h"
#include "core/SemaphoreTypes.h"

#include <QString>
#include <optional>

namespace semscope::core {

// Everything one load-test run needs besides the stores themselves.
struct LoadTestConfig {
    SemaphoreRef ref; // kind and name; ref.profile.limit is set from `limit` by normalized()
    int limit = 5;
    int clients = 10; // virtual clients
    // Stores (each with its own connection), shared round-robin by clients. One by default: a load
    // test saturates the server, and on one connection the clients' commands pipeline, so the server
    // reads many per system call, and a hand-off to a waiter of the same store comes back in the
    // release's own reply instead of a PUBLISH. Contended (`leased`, 50 clients, limit 5) the server
    // spent 34.5 us per pair on one connection against 42 us on four, and ran 28% more pairs.
    int connections = 1;
    int threads = 0; // worker threads, each with its own event loop; 0: min(connections, cores)
    Distribution hold = Distribution::fixed(0);
    Distribution think = Distribution::fixed(0);
    // Pause after a Busy reply in retry mode before the client asks again. On a kind that notifies
    // releases (kindNotifiesReleases) a release by anyone (any worker, another process: the store's
    // release notification) ends the pause of the client that has paused longest in each worker.
    Distribution retry = Distribution::uniform(1'000'000, 5'000'000);
    qint64 ttlMs = 10'000;
    qint64 refreshIntervalMs = 0; // 0: a third of the TTL
    // 0: retry mode (try once, then ask again after `retry`); >0: wait mode, each acquire waits up to
    // this long. recommendedWaitMs() is what semscope recommends for the kind.
    qint64 waitMs = 0;
    qint64 durationMs = 10'000; // used when `ops` is 0
    qint64 ops = 0;             // >0: stop after this many acquire/release pairs
    double crashRate = 0.0;     // share of clients that crash once while holding
    // Crashers crash on their first grant after a moment drawn from [0, crashWindowMs]; 0: the
    // first half of a timed run (at once in a run by operation count).
    qint64 crashWindowMs = 0;
    qint64 skewMs = 0; // each client's clock is off by a value drawn from [-skew, +skew]
    // Replica-acknowledged grants (AcquireRequest::replicas): 0 = trust the master's reply.
    int replicas = 0;
    qint64 replicaTimeoutMs = 1000;
    quint64 seed = 0; // 0: random
    // Longest a run may take to let clients release and outstanding calls come back after the end.
    qint64 drainTimeoutMs = 15'000;
    // A run by operation count ends, failed, once every operation has failed and nobody was granted
    // for this long: against a server that is gone it would otherwise never reach its count.
    qint64 stallTimeoutMs = 30'000;
    // Ask the first store to set the limit before the run (kinds that store their limit).
    bool setLimitFirst = false;
    QString holderPrefix; // empty: "lt-<random>"; holders are "<prefix>-c<client>"

    // How semscope recommends clients of a kind acquire, and so what a load test (CLI and GUI) does
    // unless told otherwise. A kind with a FIFO wait queue in the server (`leased`: a release hands
    // the slot to the head of the queue and tells it) is best waited on: one attempt per grant, in
    // arrival order, nobody polling. Every other kind has nothing to wait in, so its clients retry.
    static bool kindHasWaitQueue(Kind kind);
    // The wait of a waiting acquire for a kind with a queue (long: a waiter that times out just asks
    // again), 0 (retry mode) for the others.
    static qint64 recommendedWaitMs(Kind kind);
    // Kinds whose release tells the waiting clients (the release notification of the queue): a
    // retrying client is woken by a release instead of sleeping its whole pause.
    static bool kindNotifiesReleases(Kind kind);
    bool waits() const { return waitMs > 0; }
    // "wait" or "retry", as the JSON report and the CLI name it.
    QString acquireModeName() const;

    qint64 effectiveRefreshIntervalMs() const;
    int effectiveThreads() const;
    // Clamps and fills in derived values (limit into ref.profile, defaults).
    LoadTestConfig normalized() const;
    // Empty when usable, otherwise one line saying what is wrong.
    QString validate() const;
};

} // namespace semscope::core
