#pragma once

#include "core/SemaphoreStore.h"
#include "core/SemaphoreTypes.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <optional>

// The JSON shapes `semscope-cli --json` prints for semaphores, shared by every command and every
// backend. Absent values are left out (a `lock` has no slot, a `slots` holder has no TTL).
namespace semscope::cli {

// {"id","raw_id_hex"?,"slot","rank","token","ttl_ms","expires_at_ms","acquired_at_ms","state",
//  "details"}; `nowMs` is the server time the TTL is measured against.
QJsonObject holderToJson(const core::Holder &holder, qint64 nowMs);
// With `clients`, each holder it answers gets a "client" object: state ("connected", "gone",
// "unknown"), identity, evidence and, where the answer is partial, limits.
QJsonArray holdersToJson(const QList<core::Holder> &holders, qint64 nowMs,
                         const QHash<QString, core::HolderClientLiveness> &clients = {});

// {"kind","name","limit","limit_source","used","free_slots","counter","version","server_now_ms",
//  "keys","holders","warnings","details"}
// `clients` as for holdersToJson.
QJsonObject snapshotToJson(const core::Snapshot &snapshot,
                           const QHash<QString, core::HolderClientLiveness> &clients = {});

// One `list` row: {"kind","name","limit","limit_source","used","holders","waiters","keys","warnings"};
// `snapshot` is the semaphore's read (its warnings are merged with discovery's).
QJsonObject listRowToJson(const core::DiscoveredSemaphore &found,
                          const std::optional<core::Snapshot> &snapshot);

// {"kind","name","holder","token","slot","rank","expires_at_ms"}
QJsonObject grantToJson(const core::Grant &grant);

QJsonObject maintenanceToJson(const core::MaintenanceResult &result);

} // namespace semscope::cli
