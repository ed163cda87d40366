#pragma once

#include <QString>
#include <optional>

namespace semscope::consul {

// Go's time.Duration.String(): "10s", "1m30s", "24h0m0s", "150ms". Consul prints durations this way.
QString goDurationString(qint64 ns);
// Go's time.ParseDuration ("15000ms", "1m30s", "1.5s"), as Consul parses `wait`, `TTL` and `LockDelay`;
// nullopt on error or a negative value.
std::optional<qint64> parseGoDurationNs(const QString &text);

} // namespace semscope::consul
