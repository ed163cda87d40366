#pragma once

#include "core/SemaphoreTypes.h"

#include <QByteArray>
#include <QList>
#include <optional>

// What the scores of a ZSET layout mean: times in seconds or milliseconds, expiries or acquire
// times. Recognition infers a profile from them; the ZSET kinds read holders with them.
namespace semscope::redis {

// Score-unit heuristic for ZSET scores (§7): |score − now_s| < 1e8 is seconds, |score − now_ms| < 1e11
// is milliseconds; anything else (small integers, counters) gives nullopt.
std::optional<core::ScoreUnit> guessScoreUnit(double score, qint64 nowMs);

// What a set of ZSET scores most likely means: unit, and whether they are expiry times (in the
// future) or acquire/refresh times (in the past). Redisson's "no lease" marker is ignored.
struct ScoreReading {
    std::optional<core::ScoreUnit> unit;
    bool expiry = false;     // most scores lie in the future
    bool mixedUnits = false; // some look like seconds, others like milliseconds
    bool nonNumeric = false; // a score did not parse
    int seconds = 0;         // scores that read as seconds since the epoch
    int milliseconds = 0;    // scores that read as milliseconds since the epoch
    int past = 0;            // time-like scores at or before now
};
ScoreReading readScores(const QList<QByteArray> &scores, qint64 nowMs);

// Converts a score in `unit` to milliseconds (Auto is treated as milliseconds).
qint64 scoreToMs(double score, core::ScoreUnit unit);

// Redisson's score for a permit without a lease.
inline constexpr qint64 kRedissonNoLeaseScore = 922337203685477LL;

} // namespace semscope::redis
