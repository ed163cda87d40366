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
    // Also tell of keys written that are not followed but could make a new semaphore
    // (mayHaveAppeared()), where the source can: a watcher that discovers wants them, one that
    // watches a fixed list does not. Off by default.
    virtual void setNewKeysWanted(bool wanted) { Q_UNUSED(wanted); }

Q_SIGNALS:
    void changed(const semscope::core::SemaphoreRef &ref);
    // A key was written that no followed semaphore has and whose name and type could belong to a
    // semaphore: a discovery now would find it sooner than the scheduled one.
    void mayHaveAppeared(const QString &key);
};

} // namespace semscope::core
