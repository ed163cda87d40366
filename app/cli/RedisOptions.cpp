#include "RedisOptions.h"

namespace semscope::cli {

std::optional<redis::ConnectionSettings> redisSettingsFromOptions(CliContext &ctx, QString *error) {
    if (!ctx.isSet(QStringLiteral("redis"))) {
        *error = QStringLiteral("no Redis given: pass --redis URL (e.g. redis://127.0.0.1:6379)");
        return std::nullopt;
    }
    std::optional<redis::ConnectionSettings> settings =
        redis::ConnectionSettings::fromUrl(ctx.value(QStringLiteral("redis")), error);
    if (!settings)
        return std::nullopt;

    const bool anyTls = ctx.isSet(QStringLiteral("tls-ca")) || ctx.isSet(QStringLiteral("tls-cert")) ||
                        ctx.isSet(QStringLiteral("tls-key")) || ctx.isSet(QStringLiteral("tls-insecure"));
    if (anyTls && settings->transport != redis::ConnectionSettings::Transport::Tls) {
        // Quietly upgrading would change where the password goes; say what to write instead.
        *error = QStringLiteral("%1: the --tls-* options need a rediss:// URL").arg(settings->endpoint());
        return std::nullopt;
    }
    settings->caFile = ctx.value(QStringLiteral("tls-ca"));
    settings->certFile = ctx.value(QStringLiteral("tls-cert"));
    settings->keyFile = ctx.value(QStringLiteral("tls-key"));
    settings->tlsInsecure = ctx.isSet(QStringLiteral("tls-insecure"));
    if (settings->certFile.isEmpty() != settings->keyFile.isEmpty()) {
        *error = QStringLiteral("%1: --tls-cert and --tls-key go together").arg(settings->endpoint());
        return std::nullopt;
    }
    if (ctx.isSet(QStringLiteral("sentinel-password"))) {
        if (!settings->usesSentinel()) {
            *error = QStringLiteral("%1: --sentinel-password needs a redis+sentinel:// URL")
                         .arg(settings->endpoint());
            return std::nullopt;
        }
        settings->sentinelPassword = ctx.value(QStringLiteral("sentinel-password"));
    }
    settings->discoverFromReplicas = ctx.isSet(QStringLiteral("from-replicas"));
    settings->clientName = QStringLiteral("semscope-cli");
    return settings;
}

} // namespace semscope::cli
