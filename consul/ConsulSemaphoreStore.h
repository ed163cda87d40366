#pragma once

#include "ConsulClient.h"
#include "PrefixView.h"
#include "core/RawKeys.h"
#include "core/SemaphoreStore.h"

#include <QHash>
#include <QPointer>

class QTimer;

namespace semscope::consul {

class ConsulAcquire;

// core::SemaphoreStore over Consul's HTTP API for the `consul` (semaphore, three `.lock` dialects)
// and `consul-mutex` (`consul lock -n 1`) kinds. Protocol: hashicorp/consul api/semaphore.go and
// Consul's HTTP semaphore guide (website/source/docs/guides/semaphore.html.md). Every write to
// `.lock` is one CAS or one /v1/txn; waiting uses blocking queries on the prefix.
class ConsulSemaphoreStore : public core::SemaphoreStore, public core::RawKeySource {
    Q_OBJECT
public:
    struct SessionsOutcome {
        bool ok = false;
        QString error;
        QList<SessionInfo> sessions;
    };

    explicit ConsulSemaphoreStore(ConsulConfig config, QObject *parent = nullptr);
    ~ConsulSemaphoreStore() override;

    ConsulClient &client() { return *m_client; }
    QString endpoint() const override { return m_client->endpoint(); }
    core::Backend backend() const override { return core::Backend::Consul; }

    void discover(const core::DiscoverRequest &request, core::Cancellation cancel,
                  core::Callback<core::DiscoverProgress> progress,
                  core::Callback<core::DiscoverResult> done) override;
    void snapshot(const core::SemaphoreRef &ref, core::Callback<core::Snapshot> done) override;

    // The interface's force-release (passes the read-only gate; invalidates as set below), and one
    // that says whether to invalidate.
    using core::SemaphoreStore::forceRelease;
    // Force-release, then (optionally) destroy the holder's session so its owner notices at once.
    void forceRelease(const core::SemaphoreRef &ref, const core::Holder &observed,
                      std::optional<qint64> observedVersion, bool invalidateSession,
                      core::Callback<core::ForceReleaseResult> done);
    void setInvalidateSessionOnForceRelease(bool on) { m_invalidateOnForce = on; }
    // Deletes `.lock` of a semaphore without live holders (the Go API's Destroy).
    void destroy(const core::SemaphoreRef &ref, core::Callback<core::MaintenanceResult> done);
    // Every session in the datacenter (Consul's UI can only list them per node).
    void listSessions(core::Callback<SessionsOutcome> done);
    void invalidateSession(const QString &sessionId, core::Callback<core::MaintenanceResult> done);
    // The raw view: every KV entry under the semaphore's prefix (RawKvReader).
    void readRawKeys(const core::SemaphoreRef &ref, std::function<void(core::RawKeys)> done) override;

    // Live view: `onChange` gets a snapshot now and after every change, from one blocking query that
    // stays open while nothing changes. Another watch of the same ref replaces the first.
    bool canWatch() const override { return true; }
    void watch(const core::SemaphoreRef &ref, core::Callback<core::Snapshot> onChange) override;
    void unwatch(const core::SemaphoreRef &ref) override;
    int watchCount() const { return int(m_watches.size()); }

    // The health checks of each holder's node (consul/NodeHealth).
    void readClientLiveness(const QList<core::Holder> &holders, const QSet<QString> &seenConnected,
                            core::Callback<QHash<QString, core::HolderClientLiveness>> done) override;

    // Longest single blocking query while acquiring (api.Semaphore: 15 s) and while watching (5 min).
    void setAcquireWaitSliceMs(qint64 ms) { m_acquireSliceMs = ms; }
    qint64 acquireWaitSliceMs() const { return m_acquireSliceMs; }
    void setWatchWaitMs(qint64 ms) { m_watchWaitMs = ms; }
    // Name given to sessions semscope creates when the acquire request names no holder.
    static QString defaultSessionName();

    // Sessions of grants this store holds and renews (at TTL/2).
    int heldGrants() const { return int(m_renewers.size()); }

Q_SIGNALS:
    // A held grant's session could not be renewed (invalidated, TTL lapsed): the slot is lost.
    void grantLost(const core::Grant &grant, const QString &why);

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
    friend class ConsulAcquire;
    struct Watch;
    struct Renewer;

    // Lists `<prefix>/` (recurse); the error string is empty on success.
    ConsulClient::RequestId readPrefix(const QString &prefix, const ConsulClient::ReadOptions &opts,
                                       core::Callback<std::pair<PrefixView, QString>> done);
    void readSessions(core::Callback<std::pair<QHash<QString, SessionInfo>, QString>> done);
    void startRenewing(const core::Grant &grant, qint64 ttlMs);
    void stopRenewing(const QString &sid);
    void watchRound(const std::shared_ptr<Watch> &w);

    ConsulClient *m_client;
    bool m_invalidateOnForce = false;
    qint64 m_acquireSliceMs = 15000;
    qint64 m_watchWaitMs = 5 * 60 * 1000;
    QHash<QString, std::shared_ptr<Watch>> m_watches;    // by prefix
    QHash<QString, std::shared_ptr<Renewer>> m_renewers; // by session id
};

} // namespace semscope::consul
