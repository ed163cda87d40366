#pragma once

// Holders and snapshots of a leased semaphore `jobs` (limit 5) for the holder-table tests.

#include "core/SemaphoreTypes.h"

namespace semscope::test {

inline core::Holder holder(const QString &id, qint64 rank, std::optional<qint64> expiresAt,
                           qint64 token = 1) {
    core::Holder h;
    h.id = id;
    h.rawId = id.toUtf8();
    h.rank = rank;
    h.token = token;
    h.expiresAtMs = expiresAt;
    return h;
}

inline core::Snapshot snapshot(QList<core::Holder> holders, qint64 serverNow) {
    core::Snapshot s;
    s.ref.kind = core::Kind::Leased;
    s.ref.name = QStringLiteral("jobs");
    s.limit = 5;
    s.holders = std::move(holders);
    s.serverNowMs = serverNow;
    return s;
}

} // namespace semscope::test
