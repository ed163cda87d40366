#pragma once

#include "AuditLog.h"
#include "AuditOutcome.h"
#include "core/SemaphoreStore.h"

#include <memory>

namespace semscope::core {

// A SemaphoreStore that writes every write going through it to the audit log: acquire, refresh,
// release, force-release, purge, repair and set-limit, each with its outcome. Reads pass through
// untouched. semscope-cli opens its stores through this, so no command can write without a trace,
// whichever path (a --hold refresh, the release on Ctrl-C) the write takes.
class AuditedSemaphoreStore : public SemaphoreStore {
    Q_OBJECT
public:
    // `connection` names the connection in the log (no secrets), `environment` may be empty.
    AuditedSemaphoreStore(std::unique_ptr<SemaphoreStore> inner, AuditLog *log, QString connection,
                          QString environment, QObject *parent = nullptr);
    ~AuditedSemaphoreStore() override;

    SemaphoreStore &inner() { return *m_inner; }

    QString endpoint() const override { return m_inner->endpoint(); }
    Backend backend() const override { return m_inner->backend(); }
    QString locationOf(const SemaphoreRef &ref) const override { return m_inner->locationOf(ref); }

    void discover(const DiscoverRequest &request, Cancellation cancel, Callback<DiscoverProgress> progress,
                  Callback<DiscoverResult> done) override;
    void snapshot(const SemaphoreRef &ref, Callback<Snapshot> done) override;
    bool canWatch() const override { return m_inner->canWatch(); }
    void watch(const SemaphoreRef &ref, Callback<Snapshot> onChange) override;
    void unwatch(const SemaphoreRef &ref) override { m_inner->unwatch(ref); }
    void readClientLiveness(const QList<Holder> &holders, const QSet<QString> &seenConnected,
                            Callback<QHash<QString, HolderClientLiveness>> done) override {
        m_inner->readClientLiveness(holders, seenConnected, std::move(done));
    }
    bool watchReleases(const SemaphoreRef &ref, std::function<void()> onRelease) override {
        return m_inner->watchReleases(ref, std::move(onRelease));
    }
    void unwatchReleases(const SemaphoreRef &ref) override { m_inner->unwatchReleases(ref); }

Q_SIGNALS:
    // The log could not be written (`why` names the file); the write itself went ahead.
    void auditFailed(const QString &why);

protected:
    // The writes, reached through core::SemaphoreStore's read-only gate.
    void doAcquire(const SemaphoreRef &ref, const AcquireRequest &request, Cancellation cancel,
                   Callback<AcquireResult> done) override;
    void doRefresh(const Grant &grant, qint64 ttlMs, Callback<RefreshResult> done) override;
    void doRelease(const Grant &grant, Callback<ReleaseResult> done) override;
    void doForceRelease(const SemaphoreRef &ref, const Holder &observed,
                        std::optional<qint64> observedVersion, Callback<ForceReleaseResult> done) override;
    void doPurgeExpired(const SemaphoreRef &ref, Callback<MaintenanceResult> done) override;
    void doRepair(const SemaphoreRef &ref, Callback<MaintenanceResult> done) override;
    void doSetLimit(const SemaphoreRef &ref, qint64 limit, Callback<MaintenanceResult> done) override;

private:
    AuditEntry entryFor(const SemaphoreRef &ref, const QString &action, const QString &holder) const;
    void record(AuditEntry entry, const AuditOutcome &outcome);

    std::unique_ptr<SemaphoreStore> m_inner;
    AuditLog *m_log;
    QString m_connection;
    QString m_environment;
};

} // namespace semscope::core
