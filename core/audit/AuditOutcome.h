#pragma once

#include "core/SemaphoreTypes.h"

#include <QJsonObject>
#include <QString>

namespace semscope::core {

// How the audit log words the outcome of one write. The app's operator actions and the CLI's
// audited store both log through these, so one write reads the same whichever program made it.
struct AuditOutcome {
    QString result;  // granted, busy, ok, lost, not-held, released, changed, gone, error
    QString message; // what happened, in a few words (slot, count, the error)
    bool ok = false;
};

AuditOutcome auditOutcome(const AcquireResult &result);
AuditOutcome auditOutcome(const RefreshResult &result);
AuditOutcome auditOutcome(const ReleaseResult &result);
AuditOutcome auditOutcome(const ForceReleaseResult &result);
// Maintenance writes: `affectedWhat` names the unit of MaintenanceResult::affected ("purged",
// "slots repaired"), used when the store gave no message of its own.
AuditOutcome auditOutcome(const MaintenanceResult &result, const QString &affectedWhat);

// A holder as the operator saw it when deciding (the `observed` part of an audit entry).
QJsonObject holderAuditRecord(const Holder &holder);

// "<kind>:<name>", how the audit log names a semaphore.
QString auditSemaphoreName(const SemaphoreRef &ref);

} // namespace semscope::core
