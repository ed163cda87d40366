#pragma once

#include "consul/ConsulTypes.h"
#include "core/SemaphoreTypes.h"

#include <QList>
#include <QMetaType>
#include <QString>

namespace semscope::model {

// One place a Consul session takes part in, as read from that semaphore's snapshot: holding a slot
// (live, stale, over the limit) or waiting for one.
struct SessionHolding {
    core::SemaphoreRef ref;
    core::HolderState state = core::HolderState::Live;
    QString contenderKey; // "<prefix>/<session>" when the session holds one (Consul's lock on it)

    // "consul:jobs (live)"
    QString text() const;
};

// A value snapshot of one Consul session and what it holds, as the sessions list shows it. Built
// from /v1/session/list plus the snapshots of the connection's semaphores; never a live object.
struct SessionEntry {
    consul::SessionInfo info;
    QList<SessionHolding> holdings;

    // What an operator calls it: its name, or its ID when it has none.
    QString label() const { return info.name.isEmpty() ? info.id : info.name; }
    // "consul:jobs (live), consul:batch (waiting)"; empty when it takes part in no listed semaphore.
    QString holdingsText() const;
};

} // namespace semscope::model

Q_DECLARE_METATYPE(semscope::model::SessionEntry)
