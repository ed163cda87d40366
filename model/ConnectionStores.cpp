#include "ConnectionStores.h"

#include "consul/ConsulSemaphoreStore.h"
#include "redis/RedisSemaphoreStore.h"

#include <stdexcept>

namespace semscope::model {

core::StoreFactory storeFactoryFor(const ConnectionConfig &config) {
    return [config]() -> std::unique_ptr<core::SemaphoreStore> {
        if (config.backend == core::Backend::Consul) {
            consul::ConsulConfig cc;
            QString error;
            const bool https = config.address.startsWith(QLatin1String("https"), Qt::CaseInsensitive);
            const auto url = consul::ConsulConfig::parseAddress(config.address, https, &error);
            if (!url)
                throw std::runtime_error(QStringLiteral("%1: %2").arg(config.address, error).toStdString());
            cc.address = *url;
            cc.token = config.hasSecret ? config.secret : QString();
            cc.datacenter = config.datacenter;
            cc.caFile = config.caFile;
            return std::make_unique<consul::ConsulSemaphoreStore>(cc);
        }
        QString error;
        auto settings = config.redisSettings(&error);
        if (!settings)
            throw std::runtime_error(QStringLiteral("%1: %2").arg(config.url, error).toStdString());
        return std::make_unique<redis::RedisSemaphoreStore>(*settings);
    };
}

std::unique_ptr<redis::KeyspaceNotifications> changeHintsFor(const ConnectionConfig &config) {
    if (config.backend != core::Backend::Redis)
        return nullptr;
    const auto settings = config.redisSettings();
    if (!settings)
        return nullptr;
    return std::make_unique<redis::KeyspaceNotifications>(*settings);
}

} // namespace semscope::model
