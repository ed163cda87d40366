#pragma once

#include <QString>
#include <QtGlobal>

namespace semscope::monitor {

// How often to look for new semaphores: as often as the read interval, as long as the looking
// costs the server at most a share of its time (the budget). A discovery walks the whole keyspace
// (SCAN, then a read per candidate), so its cost grows with the keyspace, not with what is watched:
// a small keyspace is scanned again every interval, a large one less often, never less often than
// maxGapMs. The cost of one discovery is its duration as the client saw it: an upper bound on the
// server's share of it (the round trips count too), so the estimate errs on the server's side.
//
// One place for `watch`, `serve` (monitor/SemaphoreWatcher) and the desktop app (its session of
// each open connection): after each discovery, recordDiscovery(); then wait nextDelayMs().
class DiscoverySchedule {
public:
    static constexpr double kDefaultBudget = 0.05;            // 5 % of the server's time
    static constexpr qint64 kDefaultMaxGapMs = 5 * 60 * 1000; // a huge keyspace: every 5 minutes

    // intervalMs: the shortest gap (the read interval: looking more often than reading gains
    // nothing). maxGapMs: the longest, whatever a discovery costs.
    explicit DiscoverySchedule(qint64 intervalMs = 1000, double budget = kDefaultBudget,
                               qint64 maxGapMs = kDefaultMaxGapMs);

    void setIntervalMs(qint64 ms);
    qint64 intervalMs() const { return m_intervalMs; }
    double budget() const { return m_budget; }
    qint64 maxGapMs() const { return m_maxGapMs; }

    // One discovery took `durationMs` (its start to its answer).
    void recordDiscovery(qint64 durationMs);
    bool hasMeasured() const { return m_measured; }
    // What a discovery costs, smoothed over the last few (ms).
    double costMs() const { return m_costMs; }
    // How long to wait after a discovery before the next one starts: at least intervalMs, and long
    // enough that cost / (cost + gap) <= budget, at most maxGapMs.
    qint64 nextDelayMs() const;
    // The shortest gap the budget alone allows (no interval floor): a discovery asked for early (a
    // new key's keyspace event) waits at least this long after the previous one. 0 until measured.
    qint64 budgetGapMs() const;
    // Why, for people: "looking for new semaphores every 500 ms (a scan costs ~2 ms, budget 5 %)".
    QString explanation() const;
    // Whether nextDelayMs() moved enough since `previousDelayMs` to be worth telling again (a
    // factor of 2 either way): the costs jitter, the operator wants to hear of real changes only.
    static bool worthTelling(qint64 previousDelayMs, qint64 delayMs);

private:
    qint64 m_intervalMs;
    double m_budget;
    qint64 m_maxGapMs;
    double m_costMs = 0;
    bool m_measured = false;
};

} // namespace semscope::monitor
