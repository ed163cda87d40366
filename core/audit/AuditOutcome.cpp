#include "AuditOutcome.h"

#include "core/CountText.h"
#include "core/Kind.h"

namespace semscope::core {

AuditOutcome auditOutcome(const AcquireResult &r) {
    switch (r.status) {
    case AcquireResult::Status::Granted: {
        QString where;
        if (r.grant.slot)
            where = QStringLiteral("slot %1").arg(*r.grant.slot);
        else if (r.grant.rank)
            where = QStringLiteral("rank %1").arg(*r.grant.rank);
        // What the store could not do as asked goes with it into the log and the status bar.
        QStringList notes = r.grant.warnings();
        if (!where.isEmpty())
            notes.prepend(where);
        return {QStringLiteral("granted"), notes.join(QStringLiteral("; ")), true};
    }
    case AcquireResult::Status::Busy:
        return {QStringLiteral("busy"),
                QStringLiteral("%1, no free slot")
                    .arg(countText(r.holders.size(), QStringLiteral("holder"), QStringLiteral("holders"))),
                false};
    case AcquireResult::Status::Error:
        break;
    }
    return {QStringLiteral("error"), r.error, false};
}

AuditOutcome auditOutcome(const RefreshResult &r) {
    switch (r.status) {
    case RefreshResult::Status::Ok:
        return {QStringLiteral("ok"), r.warnings.join(QStringLiteral("; ")), true};
    case RefreshResult::Status::Lost:
        return {QStringLiteral("lost"), QStringLiteral("the slot was no longer held"), false};
    case RefreshResult::Status::Error:
        break;
    }
    return {QStringLiteral("error"), r.error, false};
}

AuditOutcome auditOutcome(const ReleaseResult &r) {
    switch (r.status) {
    case ReleaseResult::Status::Ok:
        return {QStringLiteral("ok"), {}, true};
    case ReleaseResult::Status::NotHeld:
        return {QStringLiteral("not-held"), QStringLiteral("it was no longer held"), false};
    case ReleaseResult::Status::Error:
        break;
    }
    return {QStringLiteral("error"), r.error, false};
}

AuditOutcome auditOutcome(const ForceReleaseResult &r) {
    return {forceReleaseStatusName(r.status), r.message, r.status == ForceReleaseResult::Status::Released};
}

AuditOutcome auditOutcome(const MaintenanceResult &r, const QString &affectedWhat) {
    if (!r.ok)
        return {QStringLiteral("error"), r.message, false};
    return {QStringLiteral("ok"),
            r.message.isEmpty() ? QStringLiteral("%1 %2").arg(r.affected).arg(affectedWhat) : r.message,
            true};
}

QJsonObject holderAuditRecord(const Holder &h) {
    QJsonObject o;
    o.insert(QStringLiteral("id"), h.id);
    if (h.rawId != h.id.toUtf8())
        o.insert(QStringLiteral("rawIdHex"), QString::fromLatin1(h.rawId.toHex()));
    if (h.slot)
        o.insert(QStringLiteral("slot"), *h.slot);
    if (h.rank)
        o.insert(QStringLiteral("rank"), *h.rank);
    if (h.token)
        o.insert(QStringLiteral("token"), *h.token);
    if (h.acquiredAtMs)
        o.insert(QStringLiteral("acquiredAtMs"), *h.acquiredAtMs);
    if (h.expiresAtMs)
        o.insert(QStringLiteral("expiresAtMs"), *h.expiresAtMs);
    o.insert(QStringLiteral("state"), holderStateName(h.state));
    return o;
}

QString auditSemaphoreName(const SemaphoreRef &ref) {
    return kindName(ref.kind) + QLatin1Char(':') + ref.name;
}

} // namespace semscope::core
