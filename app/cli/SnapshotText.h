#pragma once

#include "core/SemaphoreTypes.h"

#include <QString>

// Human-readable output of semaphores: aligned tables an operator can read at 3 a.m.
namespace semscope::cli {

// Columns HOLDER, SLOT, RANK, TOKEN, TTL, STATE ("-" where a layout has no such thing). TTLs are
// measured against `nowMs` (server time of the read); 0 leaves them out.
QString holdersTable(const QList<core::Holder> &holders, qint64 nowMs);

// A header line (kind, name, limit and where it came from, used, counter), the holders table, and
// one "warning: ..." line per warning.
QString snapshotText(const core::Snapshot &snapshot);

// A table with the given header and rows, columns padded to the widest cell.
QString alignedTable(const QStringList &header, const QList<QStringList> &rows);

} // namespace semscope::cli
