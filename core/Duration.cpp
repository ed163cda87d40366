#include "Duration.h"

#include <QRegularExpression>
#include <cmath>

namespace semscope::core {

std::optional<qint64> parseDurationMs(const QString &text) {
    static const QRegularExpression re(QStringLiteral("^\\s*(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h)?\\s*$"));
    const auto match = re.match(text);
    if (!match.hasMatch())
        return std::nullopt;
    bool ok = false;
    const double value = match.captured(1).toDouble(&ok);
    if (!ok)
        return std::nullopt;
    const QString unit = match.captured(2);
    // A bare number is refused (except 0): "--ttl 5" read as 5 ms granted a lease that had already
    // run out, while the operator meant 5 s.
    if (unit.isEmpty() && value != 0.0)
        return std::nullopt;
    double factor = 1.0;
    if (unit == QLatin1String("s"))
        factor = 1000.0;
    else if (unit == QLatin1String("m"))
        factor = 60'000.0;
    else if (unit == QLatin1String("h"))
        factor = 3'600'000.0;
    const double ms = value * factor;
    if (ms > 9.0e15)
        return std::nullopt;
    return static_cast<qint64>(std::llround(ms));
}

QString formatDurationMs(qint64 ms) {
    const QString sign = ms < 0 ? QStringLiteral("-") : QString();
    const qint64 a = ms < 0 ? -ms : ms;
    if (a < 1000)
        return sign + QStringLiteral("%1 ms").arg(a);
    if (a < 60'000)
        return sign + QStringLiteral("%1 s").arg(a / 1000.0, 0, 'f', 1);
    if (a < 3'600'000)
        return sign +
               QStringLiteral("%1 m %2 s").arg(a / 60'000).arg((a / 1000) % 60, 2, 10, QLatin1Char('0'));
    return sign +
           QStringLiteral("%1 h %2 m").arg(a / 3'600'000).arg((a / 60'000) % 60, 2, 10, QLatin1Char('0'));
}

} // namespace semscope::core
