#include "LoadTestAudit.h"

#include "core/CountText.h"

namespace semscope::core {

AuditEntry loadTestAuditEntry(const QString &connection, const QString &environment,
                              const LoadTestReport &report, const QString &action) {
    AuditEntry e;
    e.connection = connection;
    e.environment = environment;
    e.semaphore = QStringLiteral("%1:%2").arg(kindName(report.config.ref.kind), report.config.ref.name);
    e.action = action;
    e.holder = report.label;
    e.observed = QJsonObject{
        {QStringLiteral("clients"), report.config.clients},
        {QStringLiteral("limit"), report.config.limit},
        {QStringLiteral("elapsed_ms"), report.elapsedMs},
        {QStringLiteral("grants"), report.grants},
        {QStringLiteral("errors"), report.errors},
        {QStringLiteral("over_admissions"), report.safety.overAdmissions},
        {QStringLiteral("token_violations"), report.safety.tokenViolations},
    };
    if (!report.ok) {
        e.result = QStringLiteral("failed");
        e.message = report.error;
    } else if (!report.safe()) {
        e.result = QStringLiteral("over-admitted");
        e.message = QStringLiteral("%1, up to %2 at once (limit %3)")
                        .arg(countText(report.safety.overAdmissions, QStringLiteral("over-admission"),
                                       QStringLiteral("over-admissions")),
                             countText(report.safety.maxConcurrentHolders, QStringLiteral("holder"),
                                       QStringLiteral("holders")))
                        .arg(report.config.limit);
    } else if (report.errors > 0) {
        e.result = QStringLiteral("failed");
        e.message =
            QStringLiteral("%1 failed; the server was unavailable for %2 ms")
                .arg(countText(report.errors, QStringLiteral("operation"), QStringLiteral("operations")))
                .arg(report.unavailableMs());
    } else {
        e.result = QStringLiteral("ok");
        e.message = QStringLiteral("%1, 0 over-admissions")
                        .arg(countText(report.grants, QStringLiteral("grant"), QStringLiteral("grants")));
    }
    if (report.cancelled)
        e.message += QStringLiteral(" (stopped early)");
    return e;
}

} // namespace semscope::core
