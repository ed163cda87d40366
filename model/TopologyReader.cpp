#include "TopologyReader.h"

#include "core/audit/AuditedSemaphoreStore.h"
#include "redis/RedisSemaphoreStore.h"

namespace semscope::model {

using redis::topology::TopologyReport;

QString consulReplicationNote() {
    return QStringLiteral("Consul: replication is Raft's (every write is committed by a quorum of "
                          "servers), not shown here");
}

namespace {

redis::RedisSemaphoreStore *redisStoreOf(core::SemaphoreStore &store) {
    if (auto *audited = qobject_cast<core::AuditedSemaphoreStore *>(&store))
        return redisStoreOf(audited->inner());
    return qobject_cast<redis::RedisSemaphoreStore *>(&store);
}

} // namespace

void readTopology(ConnectionController &controller, QObject *context, core::Callback<TopologyReport> done) {
    TopologyReport notConnected;
    notConnected.error = QStringLiteral("not connected");
    controller.call<TopologyReport>(
        [](core::SemaphoreStore &store, core::Callback<TopologyReport> deliver) {
            redis::RedisSemaphoreStore *redisStore = redisStoreOf(store);
            if (!redisStore) {
                TopologyReport report;
                report.error = consulReplicationNote();
                deliver(report);
                return;
            }
            redis::topology::readTopology(redisStore->topology(),
                                          [deliver](const TopologyReport &report) { deliver(report); });
        },
        notConnected, context, std::move(done));
}

} // namespace semscope::model
