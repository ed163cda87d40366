#pragma once

#include <QString>
#include <optional>

namespace semscope::core {

// Parses "250ms", "10s", "1.5s", "2m", "1h" or a bare "0". Any other number needs its unit.
std::optional<qint64> parseDurationMs(const QString &text);
// Formats milliseconds for people: "850 ms", "12.3 s", "4 m 05 s", "2 h 03 m".
QString formatDurationMs(qint64 ms);

} // namespace semscope::core
