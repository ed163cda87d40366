#pragma once

#include "core/SemaphoreTypes.h"

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <optional>

namespace semscope::monitor {

// The names of the events, as `watch --json`, the history store and the exporter's
// `semscope_holder_events_total{event}` spell them.
namespace events {
inline const QString Acquired = QStringLiteral("acquired");
inline const QString Released = QStringLiteral("released");
inline const QString Expired = QStringLiteral("expired");              // its lease ran out
inline const QString ForceReleased = QStringLiteral("force-released"); // removed by a semscope operator
inline const QString Removed = QStringLiteral("removed");              // a dead holder's record was cleared
inline const QString Stale = QStringLiteral("stale");
inline const QString OverLimit = QStringLiteral("over-limit");
inline const QString LimitChanged = QStringLiteral("limit-changed");
inline const QString Appeared = QStringLiteral("appeared");
inline const QString Disappeared = QStringLiteral("disappeared");
inline const QString Waiting = QStringLiteral("waiting");
} // namespace events

// Every event name, in the order above (for `--help`, metrics that start every counter at 0).
QStringList allEventNames();

// One thing that happened to a semaphore or one of its holders, derived from two successive
// snapshots (SnapshotDiff). Semaphore-level events (appeared, disappeared, limit-changed) have an
// empty holder.
struct HolderEvent {
    qint64 atMs = 0; // when semscope noticed it (client clock, ms since the epoch)
    QString event;   // one of events::*
    core::SemaphoreRef ref;
    QString holder;
    std::optional<qint64> token;
    std::optional<qint64> slot;
    std::optional<qint64> ttlMs; // lease left when seen (negative: overdue)
    QString details;             // one human-readable line; may be empty

    bool operator==(const HolderEvent &o) const {
        return atMs == o.atMs && event == o.event && ref == o.ref && holder == o.holder && token == o.token &&
               slot == o.slot && ttlMs == o.ttlMs && details == o.details;
    }
};

// at_ms, event, kind, name, holder, token, slot, ttl_ms, details; absent optionals are JSON null,
// so every line has the same keys.
QJsonObject toJson(const HolderEvent &event);
// "12:00:01.250 acquired leased:jobs holder=w1 token=7 slot=2 ttl=29.8s  <details>" for terminals.
QString toText(const HolderEvent &event);

} // namespace semscope::monitor

Q_DECLARE_METATYPE(semscope::monitor::HolderEvent)
