#include "OperatorActions.h"

#include "TopologyProbe.h"

#include "core/Kind.h"
#include "core/SnapshotRules.h"
#include "core/audit/AuditOutcome.h"
#include "monitor/HistoryWorker.h"

#include <QDateTime>
#include <QJsonArray>
#include <QTimer>

namespace semscope::model {

using namespace semscope::core;

namespace {
QString readOnlyRefusal() {
    return QStringLiteral("refused: this connection is read-only");
}

QString confirmationRefusal(const SemaphoreRef &ref) {
    return QStringLiteral("refused: on a production connection type the semaphore name \"%1\" to confirm")
        .arg(ref.name);
}
} // namespace

OperatorActions::OperatorActions(ConnectionController *controller, core::AuditLog *audit, QObject *parent)
    : QObject(parent)
    , m_controller(controller)
    , m_audit(audit) {}

bool OperatorActions::confirmationMatches(const SemaphoreRef &ref, const QString &typed) {
    return !ref.name.isEmpty() && typed.trimmed() == ref.name;
}

QString OperatorActions::defaultHolderId() {
    return core::AuditLog::currentUser() + QLatin1Char('@') + core::AuditLog::currentHost();
}

QJsonObject OperatorActions::describeHolder(const Holder &h) {
    return holderAuditRecord(h);
}

core::AuditEntry OperatorActions::entryFor(const SemaphoreRef &ref, const QString &action,
                                           const QString &holder) const {
    const auto &cfg = m_controller->config();
    core::AuditEntry e;
    e.connection = cfg.auditLabel();
    e.environment = environmentName(cfg.environment);
    e.semaphore = auditSemaphoreName(ref);
    e.action = action;
    e.holder = holder;
    return e;
}

void OperatorActions::record(core::AuditEntry entry, const QString &result, const QString &message, bool ok) {
    entry.result = result;
    entry.message = message;
    QString summary = QStringLiteral("%1 %2").arg(entry.action, entry.semaphore);
    if (!entry.holder.isEmpty())
        summary += QStringLiteral(" holder %1").arg(entry.holder);
    summary += QStringLiteral(": ") + outcomeWithMessage(result, message);
    if (!m_audit->append(entry))
        summary += QStringLiteral(" — audit log not written: ") + m_audit->lastError();
    Q_EMIT actionFinished(summary, ok);
}

void OperatorActions::record(core::AuditEntry entry, const core::AuditOutcome &outcome) {
    record(std::move(entry), outcome.result, outcome.message, outcome.ok);
}

template <typename R>
void OperatorActions::refuse(const core::AuditEntry &entry, const QString &refusal, QObject *context,
                             Callback<R> done) {
    R result;
    if constexpr (requires { result.error; })
        result.error = refusal;
    else
        result.message = refusal;
    record(entry, QStringLiteral("refused"), refusal, false);
    QTimer::singleShot(0, this, [guard = answerTo(context), done, result] {
        if (guard)
            done(result);
    });
}

bool OperatorActions::canWaitForReplicas(const ConnectionConfig &config, core::Kind kind) {
    return config.backend == core::Backend::Redis && (kind == core::Kind::Leased || kind == core::Kind::Lock);
}

void OperatorActions::knownReplicas(const QString &node, QObject *context,
                                    std::function<void(int, QString)> done) {
    readConnectionTopology(*m_controller, context,
                           [node, done](const redis::topology::TopologyReport &report) {
                               if (!report.error.isEmpty()) {
                                   done(-1, report.error);
                                   return;
                               }
                               // On a Cluster only the replicas of the semaphore's own master can acknowledge
                               // its grant.
                               if (report.mode == QLatin1String("cluster") && !node.isEmpty()) {
                                   done(int(report.replicasOf(node).size()), QString());
                                   return;
                               }
                               done(report.replicaCount(), QString());
                           });
}

void OperatorActions::acquire(const SemaphoreRef &ref, const QString &holder, qint64 ttlMs, QObject *context,
                              Callback<AcquireResult> done) {
    AcquireRequest request;
    request.holder = holder;
    request.ttlMs = ttlMs;
    acquire(ref, request, context, std::move(done));
}

void OperatorActions::acquire(const SemaphoreRef &ref, const AcquireRequest &request, QObject *context,
                              Callback<AcquireResult> done) {
    core::AuditEntry entry = entryFor(ref, QStringLiteral("acquire"), request.holder);
    entry.observed.insert(QStringLiteral("ttlMs"), request.ttlMs);
    if (request.replicas > 0) {
        entry.observed.insert(QStringLiteral("replicas"), request.replicas);
        entry.observed.insert(QStringLiteral("replicaTimeoutMs"), request.replicaTimeoutMs);
    }
    if (!canWrite()) {
        refuse(entry, readOnlyRefusal(), context, done);
        return;
    }
    m_controller->acquire(ref, request, Cancellation(), this,
                          [this, entry, done, context = answerTo(context)](AcquireResult r) {
                              if (r.status == AcquireResult::Status::Granted) {
                                  m_grants.append(r.grant);
                                  Q_EMIT grantsChanged();
                              }
                              record(entry, auditOutcome(r));
                              if (context)
                                  done(r);
                          });
}

void OperatorActions::forgetGrant(const Grant &grant) {
    const auto before = m_grants.size();
    m_grants.removeIf([&](const Grant &g) { return g.ref == grant.ref && g.rawHolder == grant.rawHolder; });
    if (m_grants.size() != before)
        Q_EMIT grantsChanged();
}

std::optional<Grant> OperatorActions::grantFor(const SemaphoreRef &ref, const QByteArray &rawHolder) const {
    for (const auto &g : m_grants) {
        if (g.ref == ref && (g.rawHolder == rawHolder || g.holder.toUtf8() == rawHolder))
            return g;
    }
    return std::nullopt;
}

void OperatorActions::refresh(const Grant &grant, qint64 ttlMs, QObject *context,
                              Callback<RefreshResult> done) {
    core::AuditEntry entry = entryFor(grant.ref, QStringLiteral("refresh"), grant.holder);
    entry.observed.insert(QStringLiteral("ttlMs"), ttlMs);
    // A grant taken with replicas waits for them again on every refresh (the store repeats the WAIT).
    if (const int replicas = grant.details.value(QStringLiteral("replicas")).toInt(); replicas > 0)
        entry.observed.insert(QStringLiteral("replicas"), replicas);
    if (!canWrite()) {
        refuse(entry, readOnlyRefusal(), context, done);
        return;
    }
    m_controller->refresh(grant, ttlMs, this,
                          [this, entry, grant, done, context = answerTo(context)](RefreshResult r) {
                              if (r.status == RefreshResult::Status::Ok) {
                                  for (auto &g : m_grants) {
                                      if (g.ref == grant.ref && g.rawHolder == grant.rawHolder)
                                          g.expiresAtMs = r.expiresAtMs;
                                  }
                              } else if (r.status == RefreshResult::Status::Lost) {
                                  forgetGrant(grant);
                              }
                              record(entry, auditOutcome(r));
                              if (context)
                                  done(r);
                          });
}

void OperatorActions::release(const Grant &grant, QObject *context, Callback<ReleaseResult> done) {
    core::AuditEntry entry = entryFor(grant.ref, QStringLiteral("release"), grant.holder);
    if (!canWrite()) {
        refuse(entry, readOnlyRefusal(), context, done);
        return;
    }
    m_controller->release(grant, this,
                          [this, entry, grant, done, context = answerTo(context)](ReleaseResult r) {
                              if (r.status != ReleaseResult::Status::Error)
                                  forgetGrant(grant);
                              record(entry, auditOutcome(r));
                              if (context)
                                  done(r);
                          });
}

void OperatorActions::forceRelease(const SemaphoreRef &ref, const Holder &observed,
                                   std::optional<qint64> observedVersion, const QString &typedConfirmation,
                                   QObject *context, Callback<ForceReleaseResult> done) {
    core::AuditEntry entry = entryFor(ref, QStringLiteral("force-release"), observed.id);
    entry.observed = describeHolder(observed);
    if (observedVersion)
        entry.observed.insert(QStringLiteral("version"), *observedVersion);
    QString refusal;
    if (!canWrite())
        refusal = readOnlyRefusal();
    else if (needsTypedConfirmation() && !confirmationMatches(ref, typedConfirmation))
        refusal = confirmationRefusal(ref);
    if (!refusal.isEmpty()) {
        refuse(entry, refusal, context, done);
        return;
    }
    if (!m_history) {
        forceReleaseMarked(ref, observed, observedVersion, entry, std::nullopt, answerTo(context),
                           std::move(done));
        return;
    }
    // The mark goes first (a watcher must never see the holder gone without it), written on the
    // history's thread; the force-release follows when it is written or could not be.
    m_history->markForceRelease(m_controller->config().endpoint(), ref, observed.id,
                                monitor::HistoryStore::originOfThisProcess(QStringLiteral("semscope")),
                                QDateTime::currentMSecsSinceEpoch(), this,
                                [this, ref, observed, observedVersion, entry, context = answerTo(context),
                                 done](std::optional<qint64> mark) mutable {
                                    forceReleaseMarked(ref, observed, observedVersion, entry, mark, context,
                                                       std::move(done));
                                });
}

void OperatorActions::forceReleaseMarked(const SemaphoreRef &ref, const Holder &observed,
                                         std::optional<qint64> observedVersion, const core::AuditEntry &entry,
                                         std::optional<qint64> mark, QPointer<QObject> context,
                                         Callback<ForceReleaseResult> done) {
    m_controller->forceRelease(
        ref, observed, observedVersion, this,
        [this, entry, done, mark, history = QPointer<monitor::HistoryWorker>(m_history),
         context](ForceReleaseResult r) {
            auto finish = [this, entry, done, context](ForceReleaseResult r, const QString &unmarked) {
                if (!unmarked.isEmpty())
                    r.message += (r.message.isEmpty() ? QString() : QStringLiteral("; ")) + unmarked;
                record(entry, auditOutcome(r));
                if (context)
                    done(r);
            };
            if (!history) {
                finish(r, QString());
                return;
            }
            history->settleForceRelease(mark, r.status == ForceReleaseResult::Status::Released, this,
                                        [finish, r](const QString &unmarked) { finish(r, unmarked); });
        });
}

void OperatorActions::purgeExpired(const SemaphoreRef &ref, QObject *context,
                                   Callback<MaintenanceResult> done) {
    core::AuditEntry entry = entryFor(ref, QStringLiteral("purge-expired"), {});
    if (!canWrite()) {
        refuse(entry, readOnlyRefusal(), context, done);
        return;
    }
    m_controller->purgeExpired(ref, this,
                               [this, entry, done, context = answerTo(context)](MaintenanceResult r) {
                                   record(entry, auditOutcome(r, QStringLiteral("purged")));
                                   if (context)
                                       done(r);
                               });
}

void OperatorActions::repair(const SemaphoreRef &ref, QObject *context, Callback<MaintenanceResult> done) {
    core::AuditEntry entry = entryFor(ref, QStringLiteral("repair"), {});
    if (!canWrite()) {
        refuse(entry, readOnlyRefusal(), context, done);
        return;
    }
    m_controller->repair(ref, this, [this, entry, done, context = answerTo(context)](MaintenanceResult r) {
        record(entry, auditOutcome(r, QStringLiteral("slots repaired")));
        if (context)
            done(r);
    });
}

QString OperatorActions::sessionOf(const Holder &holder) {
    const QString sid = holder.details.value(QStringLiteral("session")).toString();
    return sid.isEmpty() ? QString::fromUtf8(holder.rawId) : sid;
}

void OperatorActions::invalidateSession(const SemaphoreRef &ref, const Holder &observed,
                                        const QString &typedConfirmation, QObject *context,
                                        Callback<MaintenanceResult> done) {
    core::AuditEntry entry = entryFor(ref, QStringLiteral("invalidate-session"), observed.id);
    entry.observed = describeHolder(observed);
    const QString sid = sessionOf(observed);
    entry.observed.insert(QStringLiteral("session"), sid);
    QString refusal;
    if (!canWrite())
        refusal = readOnlyRefusal();
    else if (backendOf(ref.kind) != Backend::Consul || sid.isEmpty())
        refusal = QStringLiteral("refused: only Consul holders have a session");
    else if (needsTypedConfirmation() && !confirmationMatches(ref, typedConfirmation))
        refusal = confirmationRefusal(ref);
    if (!refusal.isEmpty()) {
        refuse(entry, refusal, context, done);
        return;
    }
    m_controller->invalidateSession(
        sid, this, [this, entry, done, context = answerTo(context)](MaintenanceResult r) {
            record(entry, r.ok ? QStringLiteral("ok") : QStringLiteral("error"), r.message, r.ok);
            if (context)
                done(r);
        });
}

void OperatorActions::invalidateSession(const SessionEntry &session, const QString &typedConfirmation,
                                        QObject *context, Callback<MaintenanceResult> done) {
    core::AuditEntry entry = entryFor({}, QStringLiteral("invalidate-session"), session.label());
    QStringList held;
    QJsonArray holdings;
    for (const SessionHolding &h : session.holdings) {
        held << auditSemaphoreName(h.ref);
        holdings.append(h.text());
    }
    entry.semaphore = held.join(QStringLiteral(", "));
    entry.observed = QJsonObject{
        {QStringLiteral("session"), session.info.id},        {QStringLiteral("name"), session.info.name},
        {QStringLiteral("node"), session.info.node},         {QStringLiteral("ttl"), session.info.ttl},
        {QStringLiteral("behavior"), session.info.behavior}, {QStringLiteral("holds"), holdings}};
    QString refusal;
    if (!canWrite())
        refusal = readOnlyRefusal();
    else if (m_controller->config().backend != Backend::Consul)
        refusal = QStringLiteral("refused: only Consul connections have sessions");
    else if (needsTypedConfirmation() && typedConfirmation.trimmed() != session.label())
        refusal =
            QStringLiteral("refused: on a production connection type the session name \"%1\" to confirm")
                .arg(session.label());
    if (!refusal.isEmpty()) {
        refuse(entry, refusal, context, done);
        return;
    }
    m_controller->invalidateSession(
        session.info.id, this, [this, entry, done, context = answerTo(context)](MaintenanceResult r) {
            record(entry, r.ok ? QStringLiteral("ok") : QStringLiteral("error"), r.message, r.ok);
            if (context)
                done(r);
        });
}

} // namespace semscope::model
