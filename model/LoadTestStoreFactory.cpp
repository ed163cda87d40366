#include "LoadTestStoreFactory.h"

#include "consul/ConsulSemaphoreStore.h"
#include "redis/RedisSemaphoreStore.h"

namespace semscope::model {

std::optional<redis::ConnectionSettings> loadTestRedisSettings(const ConnectionConfig &config,
                                                               QString *error) {
    if (config.backend != core::Backend::Redis) {
        *error = QStringLiteral("%1 is not a Redis connection").arg(config.name);
        return std::nullopt;
    }
    auto settings = config.redisSettings(error);
    if (!settings)
        return std::nullopt;
    settings->autoReconnect = true; // rides through a restart; failed operations are counted
    return settings;
}

std::optional<core::StoreFactory> loadTestStoreFactory(const ConnectionConfig &config, QString *error) {
    if (config.backend == core::Backend::Consul) {
        const bool https = config.address.startsWith(QLatin1String("https"), Qt::CaseInsensitive);
        const auto url = consul::ConsulConfig::parseAddress(config.address, https, error);
        if (!url)
            return std::nullopt;
        consul::ConsulConfig cc;
        cc.address = *url;
        cc.token = config.hasSecret ? config.secret : QString();
        cc.datacenter = config.datacenter;
        cc.caFile = config.caFile;
        return core::StoreFactory([cc]() -> std::unique_ptr<core::SemaphoreStore> {
            return std::make_unique<consul::ConsulSemaphoreStore>(cc);
        });
    }
    const auto settings = loadTestRedisSettings(config, error);
    if (!settings)
        return std::nullopt;
    // As the CLI's: the connections of one worker thread share their waiting acquires.
    return core::StoreFactory([s = *settings]() -> std::unique_ptr<core::SemaphoreStore> {
        return redis::RedisSemaphoreStore::sharingWaitsInThread(s);
    });
}

} // namespace semscope::model
