#include "TopologyProbe.h"

#include "redis/RedisSemaphoreStore.h"

namespace semscope::model {

void readConnectionTopology(ConnectionController &controller, QObject *context,
                            core::Callback<redis::topology::TopologyReport> done) {
    using redis::topology::TopologyReport;
    TopologyReport noStore;
    noStore.error = QStringLiteral("not a Redis connection");
    controller.call<TopologyReport>(
        [](core::SemaphoreStore &store, core::Callback<TopologyReport> deliver) {
            auto *redisStore = dynamic_cast<redis::RedisSemaphoreStore *>(&store);
            if (!redisStore) {
                TopologyReport r;
                r.error = QStringLiteral("not a Redis connection");
                deliver(r);
                return;
            }
            redis::topology::readTopology(redisStore->topology(), deliver);
        },
        noStore, context, std::move(done));
}

} // namespace semscope::model
