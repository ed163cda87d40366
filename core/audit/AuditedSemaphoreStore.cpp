#include "AuditedSemaphoreStore.h"

#include "AuditOutcome.h"

namespace semscope::core {

AuditedSemaphoreStore::AuditedSemaphoreStore(std::unique_ptr<SemaphoreStore> inner, AuditLog *log,
                                             QString connection, QString environment, QObject *parent)
    : SemaphoreStore(parent)
    , m_inner(std::move(inner))
    , m_log(log)
    , m_connection(std::move(connection))
    , m_environment(std::move(environment)) {
    connect(m_inner.get(), &SemaphoreStore::connectionStateChanged, this,
            &SemaphoreStore::connectionStateChanged);
    connect(m_inner.get(), &SemaphoreStore::topologyEvent, this, &SemaphoreStore::topologyEvent);
}

AuditedSemaphoreStore::~AuditedSemaphoreStore() = default;

AuditEntry AuditedSemaphoreStore::entryFor(const SemaphoreRef &ref, const QString &action,
                                           const QString &holder) const {
    AuditEntry e;
    e.connection = m_connection;
    e.environment = m_environment;
    e.semaphore = auditSemaphoreName(ref);
    e.action = action;
    e.holder = holder;
    return e;
}

void AuditedSemaphoreStore::record(AuditEntry entry, const AuditOutcome &outcome) {
    entry.result = outcome.result;
    entry.message = outcome.message;
    if (!m_log->append(entry))
        Q_EMIT auditFailed(m_log->lastError());
}

void AuditedSemaphoreStore::discover(const DiscoverRequest &request, Cancellation cancel,
                                     Callback<DiscoverProgress> progress, Callback<DiscoverResult> done) {
    m_inner->discover(request, std::move(cancel), std::move(progress), std::move(done));
}

void AuditedSemaphoreStore::snapshot(const SemaphoreRef &ref, Callback<Snapshot> done) {
    m_inner->snapshot(ref, std::move(done));
}

void AuditedSemaphoreStore::watch(const SemaphoreRef &ref, Callback<Snapshot> onChange) {
    m_inner->watch(ref, std::move(onChange));
}

void AuditedSemaphoreStore::doAcquire(const SemaphoreRef &ref, const AcquireRequest &request,
                                      Cancellation cancel, Callback<AcquireResult> done) {
    AuditEntry entry = entryFor(ref, QStringLiteral("acquire"), request.holder);
    entry.observed.insert(QStringLiteral("ttlMs"), request.ttlMs);
    if (request.waitMs > 0)
        entry.observed.insert(QStringLiteral("waitMs"), request.waitMs);
    m_inner->acquire(ref, request, std::move(cancel), [this, entry, done](const AcquireResult &r) mutable {
        if (entry.holder.isEmpty())
            entry.holder = r.grant.holder; // the store made the id
        record(entry, auditOutcome(r));
        done(r);
    });
}

void AuditedSemaphoreStore::doRefresh(const Grant &grant, qint64 ttlMs, Callback<RefreshResult> done) {
    AuditEntry entry = entryFor(grant.ref, QStringLiteral("refresh"), grant.holder);
    entry.observed.insert(QStringLiteral("ttlMs"), ttlMs);
    m_inner->refresh(grant, ttlMs, [this, entry, done](const RefreshResult &r) {
        record(entry, auditOutcome(r));
        done(r);
    });
}

void AuditedSemaphoreStore::doRelease(const Grant &grant, Callback<ReleaseResult> done) {
    const AuditEntry entry = entryFor(grant.ref, QStringLiteral("release"), grant.holder);
    m_inner->release(grant, [this, entry, done](const ReleaseResult &r) {
        record(entry, auditOutcome(r));
        done(r);
    });
}

void AuditedSemaphoreStore::doForceRelease(const SemaphoreRef &ref, const Holder &observed,
                                           std::optional<qint64> observedVersion,
                                           Callback<ForceReleaseResult> done) {
    AuditEntry entry = entryFor(ref, QStringLiteral("force-release"), observed.id);
    entry.observed = holderAuditRecord(observed);
    if (observedVersion)
        entry.observed.insert(QStringLiteral("version"), *observedVersion);
    m_inner->forceRelease(ref, observed, observedVersion, [this, entry, done](const ForceReleaseResult &r) {
        record(entry, auditOutcome(r));
        done(r);
    });
}

void AuditedSemaphoreStore::doPurgeExpired(const SemaphoreRef &ref, Callback<MaintenanceResult> done) {
    const AuditEntry entry = entryFor(ref, QStringLiteral("purge-expired"), {});
    m_inner->purgeExpired(ref, [this, entry, done](const MaintenanceResult &r) {
        record(entry, auditOutcome(r, QStringLiteral("purged")));
        done(r);
    });
}

void AuditedSemaphoreStore::doRepair(const SemaphoreRef &ref, Callback<MaintenanceResult> done) {
    const AuditEntry entry = entryFor(ref, QStringLiteral("repair"), {});
    m_inner->repair(ref, [this, entry, done](const MaintenanceResult &r) {
        record(entry, auditOutcome(r, QStringLiteral("slots repaired")));
        done(r);
    });
}

void AuditedSemaphoreStore::doSetLimit(const SemaphoreRef &ref, qint64 limit,
                                       Callback<MaintenanceResult> done) {
    AuditEntry entry = entryFor(ref, QStringLiteral("set-limit"), {});
    entry.observed.insert(QStringLiteral("limit"), limit);
    m_inner->setLimit(ref, limit, [this, entry, done](const MaintenanceResult &r) {
        record(entry, auditOutcome(r, QStringLiteral("changed")));
        done(r);
    });
}

} // namespace semscope::core
