#pragma once

#include "core/CountText.h"

#include <QString>

// The words `semscope-cli loadtest` fails with, kept apart from the command so a count of exactly one
// (one failed operation, one over-admission: hard to make happen on purpose) can be tested.
namespace semscope::cli {

// "load test unsafe: 1 operation failed; the server was unavailable for 300 ms"
inline QString operationsFailedText(const QString &label, qint64 errors, qint64 unavailableMs) {
    return QStringLiteral("load test %1: %2 failed; the server was unavailable for %3 ms")
        .arg(label, core::countText(errors, QStringLiteral("operation"), QStringLiteral("operations")))
        .arg(unavailableMs);
}

// "pool-2: 1 over-admission, 0 token violations" (`semaphore` empty for a run on one semaphore).
inline QString unsafeRunText(const QString &semaphore, qint64 overAdmissions, qint64 tokenViolations) {
    return QStringLiteral("%1%2, %3")
        .arg(semaphore.isEmpty() ? QString() : semaphore + QStringLiteral(": "),
             core::countText(overAdmissions, QStringLiteral("over-admission"),
                             QStringLiteral("over-admissions")),
             core::countText(tokenViolations, QStringLiteral("token violation"),
                             QStringLiteral("token violations")));
}

} // namespace semscope::cli
