#include "ControllerStore.h"

#include <QTimer>

namespace semscope::model {

using namespace core;

ControllerStore::ControllerStore(ConnectionController *controller, QObject *parent)
    : SemaphoreStore(parent)
    , m_controller(controller) {
    setReadOnly(controller->config().readOnly);
}

QString ControllerStore::endpoint() const {
    return m_controller ? m_controller->config().endpoint() : QString();
}

Backend ControllerStore::backend() const {
    return m_controller ? m_controller->config().backend : Backend::Redis;
}

void ControllerStore::discover(const DiscoverRequest &request, Cancellation cancel,
                               Callback<DiscoverProgress> progress, Callback<DiscoverResult> done) {
    if (!m_controller)
        return;
    // The caller's flag and the controller's are different objects: the caller's is watched while
    // the scan runs and passed on when set.
    auto *poll = new QTimer(this);
    poll->setInterval(100);
    const Cancellation inner =
        m_controller->discover(request, this, progress, [poll, done](DiscoverResult r) {
            poll->deleteLater();
            done(r);
        });
    connect(poll, &QTimer::timeout, poll, [poll, cancel, inner] {
        if (cancel.isCancelled()) {
            inner.cancel();
            poll->stop();
        }
    });
    poll->start();
}

void ControllerStore::snapshot(const SemaphoreRef &ref, Callback<Snapshot> done) {
    if (m_controller)
        m_controller->snapshot(ref, this, done, m_sharedReadAgeMs);
}

void ControllerStore::doAcquire(const SemaphoreRef &ref, const AcquireRequest &request, Cancellation cancel,
                                Callback<AcquireResult> done) {
    if (m_controller)
        m_controller->acquire(ref, request, cancel, this, done);
}

void ControllerStore::doRefresh(const Grant &grant, qint64 ttlMs, Callback<RefreshResult> done) {
    if (m_controller)
        m_controller->refresh(grant, ttlMs, this, done);
}

void ControllerStore::doRelease(const Grant &grant, Callback<ReleaseResult> done) {
    if (m_controller)
        m_controller->release(grant, this, done);
}

void ControllerStore::doForceRelease(const SemaphoreRef &ref, const Holder &observed,
                                     std::optional<qint64> observedVersion,
                                     Callback<ForceReleaseResult> done) {
    if (m_controller)
        m_controller->forceRelease(ref, observed, observedVersion, this, done);
}

void ControllerStore::doPurgeExpired(const SemaphoreRef &ref, Callback<MaintenanceResult> done) {
    if (m_controller)
        m_controller->purgeExpired(ref, this, done);
}

void ControllerStore::doRepair(const SemaphoreRef &ref, Callback<MaintenanceResult> done) {
    if (m_controller)
        m_controller->repair(ref, this, done);
}

void ControllerStore::doSetLimit(const SemaphoreRef &ref, qint64 limit, Callback<MaintenanceResult> done) {
    if (m_controller)
        m_controller->setLimit(ref, limit, this, done);
}

bool ControllerStore::canWatch() const {
    return m_controller && m_controller->canWatch();
}

void ControllerStore::watch(const SemaphoreRef &ref, Callback<Snapshot> onChange) {
    if (m_controller)
        m_controller->watch(ref, this, onChange);
}

void ControllerStore::unwatch(const SemaphoreRef &ref) {
    if (m_controller)
        m_controller->unwatch(ref);
}

} // namespace semscope::model
