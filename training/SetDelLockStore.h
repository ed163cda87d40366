#pragma once

#include "TrainingStore.h"

namespace semscope::redis {

// Seed 002's first lock: set(key, value, seconds) written through Spring's hash operations (HSET
// key key value, then EXPIRE key seconds) and del(key) as DEL: no NX, no owner check on release.
// Used as a lock, a client looks first (HGET) and sets when nobody is there. Two clients that
// both look before either sets both "get" it; and DEL removes whoever's lock is there. The race
// window is the pause between the look and the set.
class SetDelLockStore : public TrainingStore {
    Q_OBJECT
public:
    using TrainingStore::TrainingStore;

    // The layout is a HASH, not the STRING of the `lock` kind: read it here.
    void snapshot(const core::SemaphoreRef &ref, core::Callback<core::Snapshot> done) override;

protected:
    // The seed's unsafe sequences, reached through core::SemaphoreStore's read-only gate.
    void doAcquire(const core::SemaphoreRef &ref, const core::AcquireRequest &request,
                   core::Cancellation cancel, core::Callback<core::AcquireResult> done) override;
    void doRefresh(const core::Grant &grant, qint64 ttlMs, core::Callback<core::RefreshResult> done) override;
    void doRelease(const core::Grant &grant, core::Callback<core::ReleaseResult> done) override;
};

} // namespace semscope::redis
