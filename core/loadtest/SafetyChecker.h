#pragma once

#include "HoldInterval.h"

#include <QList>
#include <QStringList>

namespace semscope::core {

// One stretch of time during which more clients held the semaphore than its limit allows.
struct OverAdmission {
    qint64 atNs = 0;     // the count first went above the limit
    qint64 untilNs = 0;  // it came back to the limit
    int maxHolders = 0;  // highest count during the stretch
    QStringList holders; // every holder that held during the stretch (capped at holderListCap)
    int holderCount = 0; // how many holders were involved in total
};

// A grant whose fencing token did not rise above a token that was already handed out before the
// grant was even asked for (or that repeats another grant's token).
struct TokenViolation {
    qint64 atNs = 0;
    QString holder;
    qint64 token = 0;
    QString earlierHolder;
    qint64 earlierToken = 0;
};

struct SafetyVerdict {
    qint64 overAdmissions = 0; // stretches above the limit
    int maxConcurrentHolders = 0;
    qint64 overAdmittedNs = 0;     // total time spent above the limit
    QList<OverAdmission> episodes; // the first episodeListCap of them
    qint64 tokenViolations = 0;
    QList<TokenViolation> violations; // the first episodeListCap of them
    qint64 grantsChecked = 0;
    qint64 tokensChecked = 0;
};

// Judges a finished run. Over-admission: sweep over all intervals (half-open, so a release sent at
// the very nanosecond another grant arrives is not an overlap) and report every stretch with more
// than `limit` intervals open. Tokens: only orderings the clients can prove count — a grant that
// was requested after another grant's reply had arrived must carry a larger token; two grants
// with the same token are a violation whatever their timing. Grants whose replies cross in flight
// are not ordered by anything the clients saw, so they are never judged: no false alarms.
class SafetyChecker {
public:
    static constexpr int holderListCap = 16;
    static constexpr int episodeListCap = 100;

    explicit SafetyChecker(int limit)
        : m_limit(limit) {}
    void add(const HoldInterval &interval) { m_intervals.append(interval); }
    void add(const QList<HoldInterval> &intervals) { m_intervals.append(intervals); }
    const QList<HoldInterval> &intervals() const { return m_intervals; }
    int limit() const { return m_limit; }

    SafetyVerdict check() const;

private:
    void checkOverlaps(SafetyVerdict &verdict) const;
    void checkTokens(SafetyVerdict &verdict) const;

    int m_limit;
    QList<HoldInterval> m_intervals;
};

} // namespace semscope::core
