#include "SemaphoreStore.h"

namespace semscope::core {

namespace {

// The result types name their failure differently (status or ok, error or message).
template <typename R>
R refusal(const QString &why) {
    R r;
    if constexpr (requires { r.ok; })
        r.ok = false;
    else
        r.status = R::Status::Error;
    if constexpr (requires { r.error; })
        r.error = why;
    else
        r.message = why;
    return r;
}

// Queued rather than called: every answer of a store comes after the call returned, refusals too,
// so no caller is re-entered from inside its own call.
template <typename R>
bool refuse(QObject *store, bool readOnly, Callback<R> &done, const QString &why) {
    if (!readOnly)
        return false;
    QMetaObject::invokeMethod(
        store, [done = std::move(done), why] { done(refusal<R>(why)); }, Qt::QueuedConnection);
    return true;
}

} // namespace

void SemaphoreStore::readClientLiveness(const QList<Holder> &, const QSet<QString> &,
                                        Callback<QHash<QString, HolderClientLiveness>> done) {
    QMetaObject::invokeMethod(
        this, [done = std::move(done)] { done({}); }, Qt::QueuedConnection);
}

bool SemaphoreStore::refuseIfReadOnly(Callback<AcquireResult> &done) {
    return refuse(this, m_readOnly, done, readOnlyMessage());
}

bool SemaphoreStore::refuseIfReadOnly(Callback<RefreshResult> &done) {
    return refuse(this, m_readOnly, done, readOnlyMessage());
}

bool SemaphoreStore::refuseIfReadOnly(Callback<ReleaseResult> &done) {
    return refuse(this, m_readOnly, done, readOnlyMessage());
}

bool SemaphoreStore::refuseIfReadOnly(Callback<ForceReleaseResult> &done) {
    return refuse(this, m_readOnly, done, readOnlyMessage());
}

bool SemaphoreStore::refuseIfReadOnly(Callback<MaintenanceResult> &done) {
    return refuse(this, m_readOnly, done, readOnlyMessage());
}

void SemaphoreStore::acquire(const SemaphoreRef &ref, const AcquireRequest &request, Cancellation cancel,
                             Callback<AcquireResult> done) {
    if (!refuseIfReadOnly(done))
        doAcquire(ref, request, std::move(cancel), std::move(done));
}

void SemaphoreStore::refresh(const Grant &grant, qint64 ttlMs, Callback<RefreshResult> done) {
    if (!refuseIfReadOnly(done))
        doRefresh(grant, ttlMs, std::move(done));
}

void SemaphoreStore::release(const Grant &grant, Callback<ReleaseResult> done) {
    if (!refuseIfReadOnly(done))
        doRelease(grant, std::move(done));
}

void SemaphoreStore::forceRelease(const SemaphoreRef &ref, const Holder &observed,
                                  std::optional<qint64> observedVersion, Callback<ForceReleaseResult> done) {
    if (!refuseIfReadOnly(done))
        doForceRelease(ref, observed, observedVersion, std::move(done));
}

void SemaphoreStore::purgeExpired(const SemaphoreRef &ref, Callback<MaintenanceResult> done) {
    if (!refuseIfReadOnly(done))
        doPurgeExpired(ref, std::move(done));
}

void SemaphoreStore::repair(const SemaphoreRef &ref, Callback<MaintenanceResult> done) {
    if (!refuseIfReadOnly(done))
        doRepair(ref, std::move(done));
}

void SemaphoreStore::setLimit(const SemaphoreRef &ref, qint64 limit, Callback<MaintenanceResult> done) {
    if (!refuseIfReadOnly(done))
        doSetLimit(ref, limit, std::move(done));
}

} // namespace semscope::core
