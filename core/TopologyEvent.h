#pragma once

#include <QMetaType>
#include <QString>

namespace semscope::core {

// Something that happened to the deployment behind a connection, as opposed to a semaphore in it:
// the operator sees these in the connection's event list and on each open semaphore page, because a
// failover is exactly when a lock can be lost (an acquire the replica had not received yet).
struct TopologyEvent {
    enum class Kind {
        MasterFound,     // first connect: which master serves (Sentinel: and which sentinel named it)
        FailoverStarted, // a sentinel chose a replica to promote; writes are held back until the switch
        FailoverAborted, // the sentinels gave up (the replica was not promoted in time); writes resume
                         // on the master that never changed
        MasterSwitched,  // the master moved: `from` → `to`
        MapChanged,      // Cluster: the slot map changed (other than by a failover)
        NodeDown,        // Cluster: a node is marked failed
    };
    qint64 timeMs = 0; // local wall clock, ms since the epoch
    Kind kind = Kind::MasterFound;
    QString from; // host:port, where a master moved away from
    QString to;   // host:port, where it moved to (or the master found, the node down)
    QString via;  // Sentinel: the sentinel that named the master
    QString text; // one line for the operator: "failover: master moved from A to B"

    static TopologyEvent make(Kind kind, QString text, QString from = {}, QString to = {}, QString via = {});
};

// "master found", "failover started", "failover aborted", "master switched", "map changed",
// "node down".
QString topologyEventKindName(TopologyEvent::Kind kind);
// Whether the event is a failover the event lists keep (a MasterFound is state, not news).
bool isFailoverEvent(const TopologyEvent &event);

} // namespace semscope::core

Q_DECLARE_METATYPE(semscope::core::TopologyEvent)
