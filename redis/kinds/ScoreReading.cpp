#include "ScoreReading.h"

#include <cmath>
#include <limits>

namespace semscope::redis {

using core::ScoreUnit;

std::optional<ScoreUnit> guessScoreUnit(double score, qint64 nowMs) {
    if (!std::isfinite(score))
        return std::nullopt;
    const double nowS = double(nowMs) / 1000.0;
    if (std::abs(score - nowS) < 1e8)
        return ScoreUnit::Seconds;
    if (std::abs(score - double(nowMs)) < 1e11)
        return ScoreUnit::Milliseconds;
    return std::nullopt;
}

ScoreReading readScores(const QList<QByteArray> &scores, qint64 nowMs) {
    ScoreReading reading;
    int seconds = 0, millis = 0, future = 0, past = 0;
    for (const QByteArray &s : scores) {
        bool ok = false;
        const double v = s.toDouble(&ok);
        if (!ok || !std::isfinite(v)) {
            reading.nonNumeric = true;
            continue;
        }
        if (qint64(v) == kRedissonNoLeaseScore)
            continue;
        const auto unit = guessScoreUnit(v, nowMs);
        if (!unit)
            continue;
        (*unit == ScoreUnit::Seconds ? seconds : millis) += 1;
        (scoreToMs(v, *unit) > nowMs ? future : past) += 1;
    }
    reading.seconds = seconds;
    reading.milliseconds = millis;
    reading.past = past;
    if (seconds + millis > 0)
        reading.unit = millis > seconds ? ScoreUnit::Milliseconds : ScoreUnit::Seconds;
    reading.mixedUnits = seconds > 0 && millis > 0;
    reading.expiry = future > past;
    return reading;
}

qint64 scoreToMs(double score, ScoreUnit unit) {
    if (!std::isfinite(score))
        return score > 0 ? std::numeric_limits<qint64>::max() : std::numeric_limits<qint64>::min();
    const double ms = unit == ScoreUnit::Seconds ? score * 1000.0 : score;
    if (ms >= 9.2e18)
        return std::numeric_limits<qint64>::max();
    if (ms <= -9.2e18)
        return std::numeric_limits<qint64>::min();
    return qint64(std::llround(ms));
}

} // namespace semscope::redis
