#include "GoDuration.h"

#include <QRegularExpression>
#include <cmath>

namespace semscope::consul {

QString goDurationString(qint64 ns) {
    if (ns == 0)
        return QStringLiteral("0s");
    QString sign;
    if (ns < 0) {
        sign = QStringLiteral("-");
        ns = -ns;
    }
    auto frac = [](qint64 v, qint64 unit) {
        QString s = QString::number(v / unit);
        qint64 rest = v % unit;
        if (rest) {
            QString digits =
                QString::number(rest).rightJustified(QString::number(unit).size() - 1, QLatin1Char('0'));
            while (digits.endsWith(QLatin1Char('0')))
                digits.chop(1);
            s += QLatin1Char('.') + digits;
        }
        return s;
    };
    if (ns < 1000)
        return sign + QString::number(ns) + QStringLiteral("ns");
    if (ns < 1'000'000)
        return sign + frac(ns, 1000) + QStringLiteral("µs");
    if (ns < 1'000'000'000)
        return sign + frac(ns, 1'000'000) + QStringLiteral("ms");
    const qint64 totalSec = ns / 1'000'000'000;
    const qint64 subNs = ns % 1'000'000'000;
    const qint64 h = totalSec / 3600;
    const qint64 m = (totalSec % 3600) / 60;
    const qint64 s = totalSec % 60;
    QString secs = frac(s * 1'000'000'000 + subNs, 1'000'000'000) + QStringLiteral("s");
    if (h > 0)
        return sign + QStringLiteral("%1h%2m").arg(h).arg(m) + secs;
    if (m > 0)
        return sign + QStringLiteral("%1m").arg(m) + secs;
    return sign + secs;
}

std::optional<qint64> parseGoDurationNs(const QString &text) {
    static const QRegularExpression part(QStringLiteral("^(\\d+(?:\\.\\d*)?|\\.\\d+)(ns|us|µs|ms|s|m|h)"));
    QString rest = text;
    if (rest == QLatin1String("0"))
        return 0;
    if (rest.isEmpty() || rest.startsWith(QLatin1Char('-')))
        return std::nullopt;
    if (rest.startsWith(QLatin1Char('+')))
        rest.remove(0, 1);
    long double total = 0;
    int guard = 0;
    while (!rest.isEmpty() && guard++ < 32) {
        const auto m = part.match(rest);
        if (!m.hasMatch())
            return std::nullopt;
        const long double value = m.captured(1).toDouble();
        const QString unit = m.captured(2);
        long double scale = 1;
        if (unit == QLatin1String("us") || unit == QStringLiteral("µs"))
            scale = 1e3L;
        else if (unit == QLatin1String("ms"))
            scale = 1e6L;
        else if (unit == QLatin1String("s"))
            scale = 1e9L;
        else if (unit == QLatin1String("m"))
            scale = 60e9L;
        else if (unit == QLatin1String("h"))
            scale = 3600e9L;
        total += value * scale;
        if (total > 9.2e18L)
            return std::nullopt;
        rest = rest.mid(m.capturedLength());
    }
    if (!rest.isEmpty())
        return std::nullopt;
    return static_cast<qint64>(std::llround(static_cast<double>(total)));
}

} // namespace semscope::consul
