#pragma once

#include <QString>
#include <optional>
#include <random>

namespace semscope::core {

// A random delay (hold time, think time, retry back-off) as load tests describe it:
// "fixed:5ms" (or just "5ms"), "uniform:1ms..10ms", "exp:5ms" (exponential with that mean).
// Units: ns, us, ms, s, m; a bare number means milliseconds.
class Distribution {
public:
    enum class Shape { Fixed, Uniform, Exponential };

    Distribution() = default;
    static Distribution fixed(qint64 ns);
    static Distribution uniform(qint64 lowNs, qint64 highNs);
    static Distribution exponential(qint64 meanNs);
    static std::optional<Distribution> parse(const QString &text, QString *error = nullptr);

    Shape shape() const { return m_shape; }
    qint64 lowNs() const { return m_a; }  // fixed value, uniform low, exponential mean
    qint64 highNs() const { return m_b; } // uniform high
    qint64 meanNs() const;
    // The exponential tail is cut at this many means so that one unlucky draw cannot stall a run.
    static constexpr int exponentialCap = 20;

    qint64 sampleNs(std::mt19937_64 &rng) const;
    // Round-trips through parse(): "fixed:5ms", "uniform:1ms..10ms", "exp:5ms".
    QString toString() const;

private:
    Shape m_shape = Shape::Fixed;
    qint64 m_a = 0;
    qint64 m_b = 0;
};

// Parses "250us", "1.5ms", "2s"; a bare number is milliseconds. Negative or absurd values fail.
std::optional<qint64> parseDurationNs(const QString &text);
QString formatDurationNs(qint64 ns);

} // namespace semscope::core
