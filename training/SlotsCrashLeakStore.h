#pragma once

#include "TrainingStore.h"

namespace semscope::redis {

// Seed 000's slot semaphore exactly as published: one Lua script takes a free slot number from
// R|list into R|map (holder -> slot), another gives it back. Both are atomic, so it never
// over-admits; but there is no TTL. A holder that crashes keeps its slot for ever, and once every
// slot has leaked nobody gets in again. Refresh has nothing to extend and always succeeds.
class SlotsCrashLeakStore : public TrainingStore {
    Q_OBJECT
public:
    SlotsCrashLeakStore(ConnectionSettings settings, int raceWindowMs, QObject *parent = nullptr);

protected:
    // The seed's unsafe sequences, reached through core::SemaphoreStore's read-only gate.
    void doAcquire(const core::SemaphoreRef &ref, const core::AcquireRequest &request,
                   core::Cancellation cancel, core::Callback<core::AcquireResult> done) override;
    void doRefresh(const core::Grant &grant, qint64 ttlMs, core::Callback<core::RefreshResult> done) override;
    void doRelease(const core::Grant &grant, core::Callback<core::ReleaseResult> done) override;

private:
    LuaScript m_acquire;
    LuaScript m_release;
};

} // namespace semscope::redis
