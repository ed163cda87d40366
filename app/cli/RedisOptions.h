#pragma once

#include "CliContext.h"
#include "redis/ConnectionSettings.h"

#include <optional>

namespace semscope::cli {

// The Redis server named on the command line: the --redis URL (password also from REDISCLI_AUTH),
// with --tls-ca, --tls-cert, --tls-key and --tls-insecure applied. TLS options need a rediss://
// URL. std::nullopt with `error` set (one line, never the password) when the options do not make
// a usable connection. Every Redis command of semscope-cli gets its settings here.
std::optional<redis::ConnectionSettings> redisSettingsFromOptions(CliContext &ctx, QString *error);

} // namespace semscope::cli
