#include "Distribution.h"

#include <QRegularExpression>
#include <QStringList>
#include <algorithm>
#include <cmath>

namespace semscope::core {

std::optional<qint64> parseDurationNs(const QString &text) {
    static const QRegularExpression re(QStringLiteral("^\\s*(\\d+(?:\\.\\d+)?)\\s*(ns|us|µs|ms|s|m)?\\s*$"));
    const auto match = re.match(text);
    if (!match.hasMatch())
        return std::nullopt;
    bool ok = false;
    const double value = match.captured(1).toDouble(&ok);
    if (!ok)
        return std::nullopt;
    const QString unit = match.captured(2);
    if (unit.isEmpty() && value != 0.0)
        return std::nullopt; // a unit is required, as for every duration in semscope
    double factor = 1e6;
    if (unit == QLatin1String("ns"))
        factor = 1.0;
    else if (unit == QLatin1String("us") || unit == QStringLiteral("µs"))
        factor = 1e3;
    else if (unit == QLatin1String("s"))
        factor = 1e9;
    else if (unit == QLatin1String("m"))
        factor = 60e9;
    const double ns = value * factor;
    if (ns > 9.0e17) // about 28 years: anything longer is a typo
        return std::nullopt;
    return static_cast<qint64>(std::llround(ns));
}

QString formatDurationNs(qint64 ns) {
    if (ns % 1'000'000'000 == 0 && ns != 0)
        return QStringLiteral("%1s").arg(ns / 1'000'000'000);
    if (ns % 1'000'000 == 0)
        return QStringLiteral("%1ms").arg(ns / 1'000'000);
    if (ns % 1'000 == 0)
        return QStringLiteral("%1us").arg(ns / 1'000);
    return QStringLiteral("%1ns").arg(ns);
}

Distribution Distribution::fixed(qint64 ns) {
    Distribution d;
    d.m_shape = Shape::Fixed;
    d.m_a = std::max<qint64>(0, ns);
    return d;
}

Distribution Distribution::uniform(qint64 lowNs, qint64 highNs) {
    Distribution d;
    d.m_shape = Shape::Uniform;
    d.m_a = std::max<qint64>(0, std::min(lowNs, highNs));
    d.m_b = std::max<qint64>(0, std::max(lowNs, highNs));
    return d;
}

Distribution Distribution::exponential(qint64 meanNs) {
    Distribution d;
    d.m_shape = Shape::Exponential;
    d.m_a = std::max<qint64>(0, meanNs);
    return d;
}

std::optional<Distribution> Distribution::parse(const QString &text, QString *error) {
    auto fail = [&](const QString &why) -> std::optional<Distribution> {
        if (error)
            *error = QStringLiteral("invalid distribution \"%1\": %2").arg(text, why);
        return std::nullopt;
    };
    const QString t = text.trimmed();
    const qsizetype colon = t.indexOf(QLatin1Char(':'));
    const QString shape = colon < 0 ? QStringLiteral("fixed") : t.left(colon).trimmed().toLower();
    const QString rest = colon < 0 ? t : t.mid(colon + 1);
    if (shape == QLatin1String("fixed")) {
        const auto v = parseDurationNs(rest);
        if (!v)
            return fail(QStringLiteral("expected a duration such as 5ms"));
        return fixed(*v);
    }
    if (shape == QLatin1String("uniform")) {
        const QStringList parts = rest.split(QStringLiteral(".."));
        if (parts.size() != 2)
            return fail(QStringLiteral("expected uniform:LOW..HIGH, e.g. uniform:1ms..10ms"));
        const auto lo = parseDurationNs(parts[0]);
        const auto hi = parseDurationNs(parts[1]);
        if (!lo || !hi)
            return fail(QStringLiteral("expected durations such as 1ms..10ms"));
        if (*lo > *hi)
            return fail(QStringLiteral("low bound is above high bound"));
        return uniform(*lo, *hi);
    }
    if (shape == QLatin1String("exp") || shape == QLatin1String("exponential")) {
        const auto mean = parseDurationNs(rest);
        if (!mean)
            return fail(QStringLiteral("expected exp:MEAN, e.g. exp:5ms"));
        return exponential(*mean);
    }
    return fail(QStringLiteral("unknown shape \"%1\" (use fixed, uniform or exp)").arg(shape));
}

qint64 Distribution::meanNs() const {
    switch (m_shape) {
    case Shape::Fixed:
    case Shape::Exponential:
        return m_a;
    case Shape::Uniform:
        return m_a + (m_b - m_a) / 2;
    }
    return m_a;
}

qint64 Distribution::sampleNs(std::mt19937_64 &rng) const {
    switch (m_shape) {
    case Shape::Fixed:
        return m_a;
    case Shape::Uniform:
        return std::uniform_int_distribution<qint64>(m_a, m_b)(rng);
    case Shape::Exponential: {
        if (m_a == 0)
            return 0;
        std::exponential_distribution<double> exp(1.0 / static_cast<double>(m_a));
        const double v = std::min(exp(rng), static_cast<double>(m_a) * exponentialCap);
        return static_cast<qint64>(v);
    }
    }
    return m_a;
}

QString Distribution::toString() const {
    switch (m_shape) {
    case Shape::Fixed:
        return QStringLiteral("fixed:") + formatDurationNs(m_a);
    case Shape::Uniform:
        return QStringLiteral("uniform:%1..%2").arg(formatDurationNs(m_a), formatDurationNs(m_b));
    case Shape::Exponential:
        return QStringLiteral("exp:") + formatDurationNs(m_a);
    }
    return {};
}

} // namespace semscope::core
