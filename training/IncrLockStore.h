#pragma once

#include "TrainingStore.h"

#include <QSet>

namespace semscope::redis {

// Seed 002's second lock: a counter. initLock (once per node, here: once per store and semaphore)
// SETs the key to 0 with an expiry; getLock is INCR and "got it" means the result is <= the range
// (the limit); releaseLock is DEL. The usual try { getLock } finally { releaseLock } makes *every*
// contender delete the key, including those that did not get it, so the next INCR returns 1 while
// the real holder still works: a second holder. No extra pause is needed for this one to bite; the
// race window delays the losers' DEL, which only changes how often.
class IncrLockStore : public TrainingStore {
    Q_OBJECT
public:
    using TrainingStore::TrainingStore;

protected:
    // The seed's unsafe sequences, reached through core::SemaphoreStore's read-only gate.
    void doAcquire(const core::SemaphoreRef &ref, const core::AcquireRequest &request,
                   core::Cancellation cancel, core::Callback<core::AcquireResult> done) override;
    void doRefresh(const core::Grant &grant, qint64 ttlMs, core::Callback<core::RefreshResult> done) override;
    void doRelease(const core::Grant &grant, core::Callback<core::ReleaseResult> done) override;

private:
    void getLock(const core::SemaphoreRef &ref, const QString &holder,
                 core::Callback<core::AcquireResult> done);
    QSet<QString> m_initialised;
};

} // namespace semscope::redis
