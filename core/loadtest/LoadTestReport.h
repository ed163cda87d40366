#pragma once

#include "CrashRecovery.h"
#include "Fairness.h"
#include "LatencyHistogram.h"
#include "LoadTestConfig.h"
#include "SafetyChecker.h"

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace semscope::core {

// One live sample of a running load test (emitted about every 250 ms). Rates and percentiles
// cover the window since the previous sample; counters are totals since the start.
struct LoadTestProgress {
    qint64 elapsedMs = 0;
    qint64 windowMs = 0;
    double pairsPerSecond = 0.0; // grants per second in this window
    double acquireP50Ms = 0.0;   // wait from "want the slot" to "granted", this window
    double acquireP90Ms = 0.0;
    double acquireP99Ms = 0.0;
    double acquireMaxMs = 0.0;
    qint64 grants = 0;
    qint64 attempts = 0;
    qint64 busyReplies = 0;
    qint64 errors = 0;
    qint64 refusedGrants = 0; // replica-acknowledged grants not acknowledged in time (released)
    qint64 crashes = 0;
    int holders = 0; // clients holding right now
    // Slots that crashed clients took and that have not been seen given back yet (a grant that
    // needed one proves it back: CrashRecovery's rule, followed live).
    int crashedSlots = 0;
    int maxHolders = 0; // most at once so far
    int limit = 0;
    qint64 overAdmissions = 0; // seen live; the final report's sweep is authoritative
};

struct LoadTestReport {
    LoadTestConfig config;
    QString label; // "leased", "fair-without-lock", ...
    bool ok = false;
    bool cancelled = false;
    QString error;            // set when the run could not start or its stores failed throughout
    QStringList errorSamples; // the first distinct errors seen by clients
    QStringList notes;        // things worth knowing that are not errors
    QString endpoint;

    qint64 elapsedMs = 0; // from the start until the end was called (excludes draining)
    qint64 grants = 0;    // grants replied during the run
    qint64 releases = 0;
    qint64 attempts = 0;
    qint64 busyReplies = 0;
    qint64 errors = 0;
    qint64 refreshes = 0;
    qint64 lostRefreshes = 0;
    // Operations cut off by a failover (isFailoverInterruption): not failures of the run, since the
    // store followed the new master; their outcome is unknown, so an interrupted acquire's holder
    // is released before the client asks again. Safety is judged as always.
    qint64 failoverInterruptions = 0;
    // With config.replicas > 0: grants fewer replicas acknowledged within the timeout, released
    // again by the store (isReplicationRefusal). The price of the option, not failures.
    qint64 refusedGrants = 0;
    qint64 retryWakes = 0;      // retry pauses ended early by another client's release
    qint64 notHeldReleases = 0; // release answered "not held": the lease had gone already
    double pairsPerSecond = 0.0;
    double attemptsPerGrant = 0.0;

    LatencyHistogram acquireWait;    // "want the slot" -> granted, retries included
    LatencyHistogram acquireLatency; // one acquire call, send -> reply
    LatencyHistogram releaseLatency; // one release call, send -> reply

    FairnessSummary fairness; // over clients that never crashed
    qint64 longestWaitNs = 0;
    SafetyVerdict safety;
    CrashRecoveryVerdict recovery;
    QList<LoadTestProgress> timeline;

    // No moment with more holders than the limit, and fencing tokens only ever rose.
    bool safe() const { return safety.overAdmissions == 0 && safety.tokenViolations == 0; }
    // Whether the run can be trusted as a pass: it ran (ok), held safety, and no operation failed.
    // A run against a dead server is not a pass, however safe it was.
    bool passed() const { return ok && safe() && errors == 0; }
    // How long the server was unavailable (from the timeline): from a window in which operations
    // failed and nobody was granted until the next grant.
    qint64 unavailableMs() const;

    // "ok" in JSON is passed(); "safe" and "completed" (the run itself went through) are beside it.
    QJsonObject toJson() const;
    // One line per timeline sample; `run` names the run in its first column (scenarios put two
    // runs in one file).
    static QString csvHeader();
    QString timelineCsv() const;
    // A few lines for people.
    QString summaryText() const;
};

} // namespace semscope::core

Q_DECLARE_METATYPE(semscope::core::LoadTestProgress)
Q_DECLARE_METATYPE(semscope::core::LoadTestReport)
