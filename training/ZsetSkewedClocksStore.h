#pragma once

#include "TrainingStore.h"

namespace semscope::redis {

// Seed 003's non-fair expiring ZSET: ZADD (expiry = the client's clock + timeout), then
// ZREMRANGEBYSCORE 0..the client's now, then ZRANK, then ZREM on a rank past the limit; each its
// own round trip. Rank is by expiry, so a client whose clock runs behind scores below the live
// holders and ranks inside the limit on top of them; a client whose clock runs ahead purges live
// holders as "expired". Give the clients skewed clocks (--skew) and it over-admits; the race window
// (a pause between ZADD and the purge) adds the ordinary add-then-rank interleavings.
class ZsetSkewedClocksStore : public TrainingStore {
    Q_OBJECT
public:
    using TrainingStore::TrainingStore;

protected:
    // The seed's unsafe sequences, reached through core::SemaphoreStore's read-only gate.
    void doAcquire(const core::SemaphoreRef &ref, const core::AcquireRequest &request,
                   core::Cancellation cancel, core::Callback<core::AcquireResult> done) override;
    void doRefresh(const core::Grant &grant, qint64 ttlMs, core::Callback<core::RefreshResult> done) override;
    void doRelease(const core::Grant &grant, core::Callback<core::ReleaseResult> done) override;
};

} // namespace semscope::redis
