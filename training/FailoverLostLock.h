#pragma once

#include "core/Cancellation.h"
#include "core/SemaphoreTypes.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <functional>
#include <optional>

namespace semscope::redis {

// Training scenario `failover-lost-lock`: what an asynchronous-replication failover does to a lock,
// shown on private servers (a master, a replica and a sentinel started with LocalRedisProcess on
// free loopback ports, stopped after).
//
// Each side runs the same fixed sequence on a fresh group, so the outcome is the same every run:
//   0. client W acquires and releases the semaphore once, and the replica copies its counter;
//   1. the replica is paused (SIGSTOP) and its link dropped (CLIENT KILL TYPE replica: otherwise
//      the grant could still sit in the paused replica's socket buffer and arrive after all);
//   2. client A acquires a `leased` semaphore of limit 1 through the sentinel URL;
//   3. the master is killed (SIGKILL), the replica resumes, the sentinel promotes it
//      (SENTINEL FAILOVER) — it never saw A's grant;
//   4. client B acquires the same semaphore through the same URL.
// Naive side: grants trusted as the master answered them — B is admitted while A still holds
// (an over-admission), and B's fencing token is not above A's (the counter went back).
// Safe side: the same with replicas = 1 — A's grant is not acknowledged by the replica, so it is
// released and refused; B is refused too while no replica is left: 0 over-admissions, 0 token
// violations, at the price of refused grants and the WAIT in each acquire.
//
// run() blocks (it runs local event loops while the processes start and the failover happens;
// about 5 s in all). Run it on a worker thread from a GUI: the processes die with the thread that
// started them. A cancelled run stops at its next step, stops every process it started and says
// "cancelled" as the side's error. The CLI (`loadtest --scenario failover-lost-lock`) and the app's
// training page both run this one.
class FailoverLostLock {
public:
    struct Side {
        QString label;    // "naive" / "replica-acknowledged"
        int replicas = 0; // what each acquire asked for
        bool aGranted = false;
        bool bGranted = false;
        std::optional<qint64> aToken;
        std::optional<qint64> bToken;
        QString aRefusal; // when A was not granted: the store's reason
        QString bRefusal;
        qint64 aLatencyMs = 0; // A's acquire, WAIT included
        int overAdmissions = 0;
        int tokenViolations = 0;
        int refusedGrants = 0;
        QStringList steps;  // what happened, in order, for the trainee
        QString error;      // the run itself failed (a server did not start, ...) or was cancelled
        QList<qint64> pids; // every process this side started (all stopped when run() returns)
        bool ok() const { return error.isEmpty(); }
        QJsonObject toJson() const;
        QString summaryText() const;
    };
    struct Report {
        Side naive;
        Side safe;
        bool cancelled = false;
        bool ok() const { return naive.ok() && safe.ok(); }
        // What a trainer wants to see: the naive side over-admitted, the safe side did not.
        bool showsTheLesson() const {
            return ok() && naive.overAdmissions > 0 && safe.overAdmissions == 0 && safe.tokenViolations == 0;
        }
        QJsonObject toJson() const;
    };

    // What an acquire in the sequence means for the lesson. A refusal is the semaphore saying no
    // (the slot is taken, or the grant did not reach a replica and was given back); anything else
    // that is not a grant - a lost connection, no answer - means the run cannot show anything, and
    // must not pass for a refusal.
    enum class Outcome { Granted, Refused, Failed };
    static Outcome outcomeOf(const core::AcquireResult &result);

    static QString scenarioName() { return QStringLiteral("failover-lost-lock"); }
    // How long each replica-acknowledged acquire waits for its replica.
    static constexpr qint64 kReplicaTimeoutMs = 300;
    static QString title();
    static QString explanation();

    // `name` names the scratch semaphores (NAME-naive, NAME-safe) on the private servers. `progress`
    // (may be empty) gets one line per step.
    static Report run(const QString &name, const std::function<void(const QString &)> &progress = {},
                      const core::Cancellation &cancel = {});
};

} // namespace semscope::redis
