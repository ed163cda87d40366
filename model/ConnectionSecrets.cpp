#include "ConnectionSecrets.h"

#include <QPointer>

namespace semscope::model {

void keepConnectionSecrets(SecretStore &store, const ConnectionConfig &config, bool remember,
                           const ConnectionConfig *previous) {
    if (previous && previous->hasSentinelSecret && !(config.usesSentinel() && config.hasSentinelSecret))
        store.remove(ConnectionConfig::sentinelSecretKey(config.id));
    const bool keep = remember || !store.isPersistent();
    if (!keep)
        return;
    if (!config.secret.isEmpty())
        store.write(config.id, config.secret);
    if (config.usesSentinel() && !config.sentinelSecret.isEmpty())
        store.write(ConnectionConfig::sentinelSecretKey(config.id), config.sentinelSecret);
}

void readConnectionSecrets(SecretStore &store, const ConnectionConfig &config,
                           std::function<void(std::optional<QString>, std::optional<QString>)> done) {
    const bool needsSentinel = config.usesSentinel() && config.hasSentinelSecret;
    const QString sentinelKey = ConnectionConfig::sentinelSecretKey(config.id);
    // The second read starts from the first one's answer: both answers reach `done` together.
    auto readSentinel = [&store, needsSentinel, sentinelKey, done](std::optional<QString> data) {
        if (!needsSentinel) {
            done(data, QString());
            return;
        }
        store.read(sentinelKey, [data, done](bool found, QString secret) {
            done(data, found ? std::optional<QString>(secret) : std::nullopt);
        });
    };
    if (!config.hasSecret) {
        readSentinel(QString());
        return;
    }
    QPointer<SecretStore> guard(&store);
    store.read(config.id, [guard, readSentinel](bool found, QString secret) {
        if (guard)
            readSentinel(found ? std::optional<QString>(secret) : std::nullopt);
    });
}

void forgetConnectionSecrets(SecretStore &store, const QString &connectionId) {
    store.remove(connectionId);
    store.remove(ConnectionConfig::sentinelSecretKey(connectionId));
}

} // namespace semscope::model
