#pragma once

#include "ConnectionConfig.h"
#include "core/loadtest/LoadTestWorker.h"

#include <optional>

namespace semscope::model {

// The stores a load test on this connection runs against, one per load-test connection, made in
// the engine's worker threads. A Redis connection that drops fails the run instead of reconnecting
// in the background, so the report says so. nullopt (and *error) for settings that cannot work.
std::optional<core::StoreFactory> loadTestStoreFactory(const ConnectionConfig &config, QString *error);

// The Redis settings the training scenarios run with (no reconnecting, as above); nullopt for a
// Consul connection or a bad URL.
std::optional<redis::ConnectionSettings> loadTestRedisSettings(const ConnectionConfig &config,
                                                               QString *error);

} // namespace semscope::model
