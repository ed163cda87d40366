#pragma once

#include "core/SemaphoreTypes.h"

#include <QMap>

namespace semscope::model {

// Which holder-table columns (HolderTableModel::Column) a semaphore's page shows, from its kind and
// what its holders carry: a rank, slot, token, acquisition time or TTL column only where some holder
// has one (an empty table keeps the rank and token titles, so it reads as the layout's table), the
// session, node, behavior and health columns only for Consul. Maps each column this decides to
// whether it is hidden; the others (holder, age, state) are always shown.
QMap<int, bool> holderColumnsHidden(const core::Snapshot &snapshot);

} // namespace semscope::model
