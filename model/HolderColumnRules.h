#pragma once

#include "core/SemaphoreTypes.h"

#include <QList>
#include <QMap>

namespace semscope::model {

// Which holder-table columns (HolderTableModel::Column) a semaphore's page shows, from its kind and
// what its holders carry: a rank, slot, token, acquisition time or TTL column only where some holder
// has one (an empty table keeps the rank and token titles, so it reads as the layout's table), the
// session, node, behavior and health columns only for Consul, and off until the operator turns them
// on (the header's context menu): the Holder column already reads the session's name, and the card
// shows the selected holder's session id, node, behavior and health checks. All nine columns did not
// fit beside the card at 1280x720: Age was pushed out of view, Holder cut short.
// `shownByOperator`: the operator's choice per column, which wins over that default wherever the
// column applies. Maps each column this decides to whether it is hidden; the others (holder, age,
// state) are always shown.
QMap<int, bool> holderColumnsHidden(const core::Snapshot &snapshot,
                                    const QMap<int, bool> &shownByOperator = {});

// The columns the operator may show or hide on this semaphore's page, in column order: those this
// semaphore's holders have data for.
QList<int> holderColumnsToChoose(const core::Snapshot &snapshot);

} // namespace semscope::model
