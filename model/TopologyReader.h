#pragma once

#include "ConnectionController.h"
#include "redis/topology/TopologyReport.h"

namespace semscope::model {

// Reads the deployment behind a connection (redis::topology::readTopology) on the connection's
// worker thread, where its store and node connections live, and hands the finished report to
// `done` on the GUI thread (dropped when `context` is gone). A Consul connection gets a report whose
// error says replication there is Raft's and not shown.
void readTopology(ConnectionController &controller, QObject *context,
                  core::Callback<redis::topology::TopologyReport> done);

// What the Replication tab and the Topology window say for a Consul connection.
QString consulReplicationNote();

} // namespace semscope::model
