#include "ConsulOptions.h"

#include "consul/ConsulSemaphoreStore.h"

#include <QFileInfo>

namespace semscope::cli {

std::unique_ptr<consul::ConsulSemaphoreStore> openConsulOnlyStore(CliContext &ctx, QString *error) {
    if (ctx.isSet(QStringLiteral("redis"))) {
        *error = QStringLiteral("this command works on Consul only; give --consul URL, not --redis");
        return nullptr;
    }
    QString envAddressError;
    consul::ConsulConfig config = consul::ConsulConfig::fromEnvironment(&envAddressError);
    const QString given = ctx.value(QStringLiteral("consul"));
    if (ctx.isSet(QStringLiteral("consul")) || !given.isEmpty()) {
        const auto url = consul::ConsulConfig::parseAddress(given, false, error);
        if (!url) {
            error->prepend(QStringLiteral("--consul: "));
            return nullptr;
        }
        config.address = *url;
    } else if (!qEnvironmentVariableIsSet("CONSUL_HTTP_ADDR")) {
        *error = QStringLiteral("no Consul given: pass --consul URL or set CONSUL_HTTP_ADDR");
        return nullptr;
    } else if (!envAddressError.isEmpty()) {
        *error = envAddressError; // never fall back to a default agent with the token
        return nullptr;
    }
    if (ctx.isSet(QStringLiteral("tls-ca"))) {
        config.caFile = ctx.value(QStringLiteral("tls-ca"));
        if (!QFileInfo(config.caFile).isReadable()) {
            *error = QStringLiteral("--tls-ca: cannot read %1").arg(config.caFile);
            return nullptr;
        }
    }
    if (ctx.isSet(QStringLiteral("tls-insecure"))) {
        config.insecure = true;
        ctx.err()
            << "semscope-cli: warning: --tls-insecure: the Consul agent's certificate is not verified\n";
    }
    if (ctx.isSet(QStringLiteral("tls-cert")) || ctx.isSet(QStringLiteral("tls-key"))) {
        *error = QStringLiteral("--tls-cert/--tls-key: client certificates are not supported for Consul; use "
                                "an ACL token (CONSUL_HTTP_TOKEN)");
        return nullptr;
    }
    // Redis-only options: one that would change what is reached is refused, like a client
    // certificate above; one that only spares load is noted, as on a standalone Redis server.
    if (ctx.isSet(QStringLiteral("sentinel-password"))) {
        *error = QStringLiteral("--sentinel-password needs a redis+sentinel:// URL, not Consul");
        return nullptr;
    }
    if (ctx.isSet(QStringLiteral("from-replicas")))
        ctx.err() << "semscope-cli: note: --from-replicas applies to a Redis Cluster only; Consul is read "
                     "through its agent as usual\n";
    return std::make_unique<consul::ConsulSemaphoreStore>(config);
}

std::unique_ptr<core::SemaphoreStore> openConsulStore(CliContext &ctx, QString *error) {
    return openConsulOnlyStore(ctx, error);
}

} // namespace semscope::cli
