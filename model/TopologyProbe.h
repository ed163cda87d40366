#pragma once

#include "ConnectionController.h"
#include "redis/topology/TopologyReport.h"

namespace semscope::model {

// Reads the deployment behind an open Redis connection on the connection's worker thread (the GUI
// thread never waits): on a Cluster every master and replica, through Sentinel the master the
// sentinels named and its replicas, else the server and its replicas. `done` gets the report on the
// GUI thread (guarded by `context`); its error says why nothing could be read, also for a connection
// that is not a Redis one.
void readConnectionTopology(ConnectionController &controller, QObject *context,
                            core::Callback<redis::topology::TopologyReport> done);

} // namespace semscope::model
