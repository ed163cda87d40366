#pragma once

#include "ConnectionController.h"

#include <QPointer>

namespace semscope::model {

// A connection's store as seen from the GUI thread: every call goes to the ConnectionController
// (the real store runs on the connection's worker thread) and its answer comes back here. Lets code
// written against core::SemaphoreStore — monitor::SemaphoreWatcher — run on the GUI thread without
// ever waiting on the network. It is read-only when the connection is: its own gate refuses a
// write here, as the real store on the worker thread would, before anything is sent there.
class ControllerStore : public core::SemaphoreStore {
    Q_OBJECT
public:
    explicit ControllerStore(ConnectionController *controller, QObject *parent = nullptr);

    QString endpoint() const override;
    core::Backend backend() const override;

    void discover(const core::DiscoverRequest &request, core::Cancellation cancel,
                  core::Callback<core::DiscoverProgress> progress,
                  core::Callback<core::DiscoverResult> done) override;
    void snapshot(const core::SemaphoreRef &ref, core::Callback<core::Snapshot> done) override;

    // How old a snapshot read by someone else (the page, the list) may be and still serve this
    // store's reads (ConnectionController::snapshot); 0, the default: every read is sent.
    void setSharedReadAgeMs(qint64 ms) { m_sharedReadAgeMs = ms; }

    bool canWatch() const override;
    void watch(const core::SemaphoreRef &ref, core::Callback<core::Snapshot> onChange) override;
    void unwatch(const core::SemaphoreRef &ref) override;

protected:
    // The writes, reached through core::SemaphoreStore's read-only gate.
    void doAcquire(const core::SemaphoreRef &ref, const core::AcquireRequest &request,
                   core::Cancellation cancel, core::Callback<core::AcquireResult> done) override;
    void doRefresh(const core::Grant &grant, qint64 ttlMs, core::Callback<core::RefreshResult> done) override;
    void doRelease(const core::Grant &grant, core::Callback<core::ReleaseResult> done) override;
    void doForceRelease(const core::SemaphoreRef &ref, const core::Holder &observed,
                        std::optional<qint64> observedVersion,
                        core::Callback<core::ForceReleaseResult> done) override;
    void doPurgeExpired(const core::SemaphoreRef &ref, core::Callback<core::MaintenanceResult> done) override;
    void doRepair(const core::SemaphoreRef &ref, core::Callback<core::MaintenanceResult> done) override;
    void doSetLimit(const core::SemaphoreRef &ref, qint64 limit,
                    core::Callback<core::MaintenanceResult> done) override;

private:
    QPointer<ConnectionController> m_controller;
    qint64 m_sharedReadAgeMs = 0;
};

} // namespace semscope::model
