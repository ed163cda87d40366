#pragma once

#include "SemaphoreTypes.h"

#include <QList>
#include <QObject>

namespace semscope::core {

// Word that a semaphore changed, sooner than the next read would bring it: Redis keyspace
// notifications (redis/KeyspaceNotifications). A hint, not a read: they can be lost, so whoever
// polls goes on polling, and re-reads at once what a hint names (monitor/SemaphoreWatcher).
class SemaphoreChangeHints : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    // Listen for changes to these semaphores from now on (and no others): their latest snapshots
    // name the keys they are made of.
    virtual void followSemaphores(const QList<Snapshot> &snapshots) = 0;

Q_SIGNALS:
    void changed(const semscope::core::SemaphoreRef &ref);
};

} // namespace semscope::core
