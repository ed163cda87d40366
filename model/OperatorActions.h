#pragma once

#include "ConnectionController.h"
#include "ConsulSessionEntry.h"
#include "core/audit/AuditLog.h"
#include "core/audit/AuditOutcome.h"
#include "monitor/HistoryWorker.h"

#include <QObject>
#include <QPointer>

namespace semscope::model {

// Every write an operator can make on one connection, with the guards in front of the store's own:
// read-only connections are refused here (and again inside the store); on production connections a
// force-release needs the semaphore's name typed back. Every attempt, refused ones included, goes
// to the audit log with what the operator saw. Grants acquired here are remembered so they can be
// refreshed and released later.
class OperatorActions : public QObject {
    Q_OBJECT
public:
    OperatorActions(ConnectionController *controller, core::AuditLog *audit, QObject *parent = nullptr);

    ConnectionController *controller() const { return m_controller; }
    // Force-releases are marked in the shared history first, so watchers (here and in other
    // processes) report them as force-released and by whom. Not owned; nullptr: not marked.
    void setHistory(monitor::HistoryWorker *history) { m_history = history; }
    bool canWrite() const { return !m_controller->config().readOnly; }
    bool needsTypedConfirmation() const { return m_controller->config().isProduction(); }
    static bool confirmationMatches(const core::SemaphoreRef &ref, const QString &typed);
    // "user@host": the holder id offered for an operator's own acquire.
    static QString defaultHolderId();

    void acquire(const core::SemaphoreRef &ref, const QString &holder, qint64 ttlMs, QObject *context,
                 core::Callback<core::AcquireResult> done);
    // The same with every field of the request (replica-acknowledged grants: request.replicas and
    // replicaTimeoutMs, audited with the acquire). A grant that was not acknowledged in time comes
    // back as an Error "not replicated to N replicas within T ms (acknowledged by K): released".
    void acquire(const core::SemaphoreRef &ref, const core::AcquireRequest &request, QObject *context,
                 core::Callback<core::AcquireResult> done);
    // Whether an acquire of `kind` here can wait for replicas (WAIT): Redis `leased` and `lock`.
    static bool canWaitForReplicas(const ConnectionConfig &config, core::Kind kind);
    // How many replicas the master serving `node` ("host:port"; empty: the connection's master)
    // has, read from the topology on the connection's thread; -1 and the reason when unknown.
    void knownReplicas(const QString &node, QObject *context, std::function<void(int, QString)> done);
    void refresh(const core::Grant &grant, qint64 ttlMs, QObject *context,
                 core::Callback<core::RefreshResult> done);
    void release(const core::Grant &grant, QObject *context, core::Callback<core::ReleaseResult> done);
    // `typedConfirmation` is checked on production connections only.
    void forceRelease(const core::SemaphoreRef &ref, const core::Holder &observed,
                      std::optional<qint64> observedVersion, const QString &typedConfirmation,
                      QObject *context, core::Callback<core::ForceReleaseResult> done);
    void purgeExpired(const core::SemaphoreRef &ref, QObject *context,
                      core::Callback<core::MaintenanceResult> done);
    void repair(const core::SemaphoreRef &ref, QObject *context,
                core::Callback<core::MaintenanceResult> done);

    // Consul: destroys the holder's session; Consul then releases or deletes its keys. Like a
    // force-release, `typedConfirmation` must be the semaphore's name on production connections.
    void invalidateSession(const core::SemaphoreRef &ref, const core::Holder &observed,
                           const QString &typedConfirmation, QObject *context,
                           core::Callback<core::MaintenanceResult> done);
    static QString sessionOf(const core::Holder &holder);
    // Consul: destroys a session picked from the connection's session list rather than through one
    // of its holders. On production connections `typedConfirmation` must be the session's label (its
    // name, or its ID when it has none). Audited with the semaphores it was seen holding.
    void invalidateSession(const SessionEntry &session, const QString &typedConfirmation, QObject *context,
                           core::Callback<core::MaintenanceResult> done);

    // Grants this window holds, for refresh/release.
    const QList<core::Grant> &grants() const { return m_grants; }
    std::optional<core::Grant> grantFor(const core::SemaphoreRef &ref, const QByteArray &rawHolder) const;

    static QJsonObject describeHolder(const core::Holder &holder);

Q_SIGNALS:
    void grantsChanged();
    // One line per finished action for the status bar: "force-release leased:jobs holder x: released".
    void actionFinished(const QString &summary, bool ok);

private:
    core::AuditEntry entryFor(const core::SemaphoreRef &ref, const QString &action,
                              const QString &holder) const;
    void record(core::AuditEntry entry, const QString &result, const QString &message, bool ok);
    void record(core::AuditEntry entry, const core::AuditOutcome &outcome);
    void forgetGrant(const core::Grant &grant);
    // Records the refusal and answers it asynchronously, like the store would answer, so callers
    // have a single code path.
    template <typename R>
    void refuse(const core::AuditEntry &entry, const QString &refusal, QObject *context,
                core::Callback<R> done);
    // The force-release itself, once the history holds its mark (`mark`; unset: none written).
    void forceReleaseMarked(const core::SemaphoreRef &ref, const core::Holder &observed,
                            std::optional<qint64> observedVersion, const core::AuditEntry &entry,
                            std::optional<qint64> mark, QPointer<QObject> context,
                            core::Callback<core::ForceReleaseResult> done);
    // Who an answer is for: the caller's context, or this object when none was given.
    QPointer<QObject> answerTo(QObject *context) { return context ? context : this; }

    ConnectionController *m_controller;
    QPointer<monitor::HistoryWorker> m_history;
    core::AuditLog *m_audit;
    QList<core::Grant> m_grants;
};

} // namespace semscope::model
