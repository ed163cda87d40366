#pragma once

#include "TrainingStore.h"

namespace semscope::redis {

// Seed 001's fair semaphore (after Redis in Action) *without* the outer lock the article adds at
// the end: purge + ZINTERSTORE, then INCR, then two ZADDs, then ZRANK, each its own round trip,
// scores in whole seconds of the client's clock. The race: A takes counter 31, B takes 32; B adds
// and ranks first and holds the last slot; A adds with the lower counter, ranks ahead of B and holds
// too. The race window is the pause between INCR and the ZADDs.
class FairWithoutLockStore : public TrainingStore {
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
