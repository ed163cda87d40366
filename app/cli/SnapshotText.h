#pragma once

#include "core/ClientLiveness.h"
#include "core/SemaphoreTypes.h"

#include <QHash>

#include <QString>

// Human-readable output of semaphores: aligned tables an operator can read at 3 a.m.
namespace semscope::cli {

// Columns HOLDER, SLOT, RANK, TOKEN, TTL, STATE ("-" where a layout has no such thing). TTLs are
// measured against `nowMs` (server time of the read); 0 leaves them out.
QString holdersTable(const QList<core::Holder> &holders, qint64 nowMs);

// A header line (kind, name, limit and where it came from, used, counter), the holders table, the
// clients table when `clients` answers any holder (clientsText), and one "warning: ..." line per warning.
QString snapshotText(const core::Snapshot &snapshot,
                     const QHash<QString, core::HolderClientLiveness> &clients = {});

// Whether each holder's client is still there (SemaphoreStore::readClientLiveness): a HOLDER/CLIENT
// table in the holders' order, then what "gone" cannot tell apart. Empty when nothing was answered.
QString clientsText(const QList<core::Holder> &holders,
                    const QHash<QString, core::HolderClientLiveness> &clients, qint64 nowMs);

// A table with the given header and rows, columns padded to the widest cell.
QString alignedTable(const QStringList &header, const QList<QStringList> &rows);

} // namespace semscope::cli
