#include "LoadTestReport.h"

#include "core/CountText.h"
#include "core/Kind.h"

#include <QJsonArray>
#include <QTextStream>
#include <cmath>

namespace semscope::core {

namespace {

double ms(qint64 ns) {
    return static_cast<double>(ns) / 1e6;
}

double round3(double v) {
    return std::round(v * 1000.0) / 1000.0;
}

QJsonObject histogramJson(const LatencyHistogram &h) {
    return QJsonObject{
        {QStringLiteral("count"), h.count()},
        {QStringLiteral("p50_ms"), round3(h.percentileMs(50))},
        {QStringLiteral("p90_ms"), round3(h.percentileMs(90))},
        {QStringLiteral("p99_ms"), round3(h.percentileMs(99))},
        {QStringLiteral("max_ms"), round3(h.maxMs())},
        {QStringLiteral("mean_ms"), round3(h.meanNs() / 1e6)},
    };
}

} // namespace

qint64 LoadTestReport::unavailableMs() const {
    // From a window in which operations failed and nobody was granted, until the next grant.
    qint64 total = 0;
    qint64 grantsBefore = 0;
    qint64 errorsBefore = 0;
    bool down = false;
    for (const LoadTestProgress &p : timeline) {
        const bool granted = p.grants > grantsBefore;
        down = !granted && (down || p.errors > errorsBefore);
        if (down)
            total += p.windowMs;
        grantsBefore = p.grants;
        errorsBefore = p.errors;
    }
    return total;
}

QJsonObject LoadTestReport::toJson() const {
    QJsonObject o;
    o[QStringLiteral("run")] = label;
    o[QStringLiteral("ok")] = passed();
    o[QStringLiteral("safe")] = safe();
    o[QStringLiteral("completed")] = ok;
    o[QStringLiteral("cancelled")] = cancelled;
    if (!error.isEmpty())
        o[QStringLiteral("error")] = error;
    if (!endpoint.isEmpty())
        o[QStringLiteral("endpoint")] = endpoint;

    QJsonObject cfg;
    cfg[QStringLiteral("kind")] = kindName(config.ref.kind);
    cfg[QStringLiteral("name")] = config.ref.name;
    cfg[QStringLiteral("limit")] = config.limit;
    cfg[QStringLiteral("clients")] = config.clients;
    cfg[QStringLiteral("connections")] = config.connections;
    cfg[QStringLiteral("threads")] = config.threads;
    cfg[QStringLiteral("hold")] = config.hold.toString();
    cfg[QStringLiteral("think")] = config.think.toString();
    cfg[QStringLiteral("ttl_ms")] = config.ttlMs;
    cfg[QStringLiteral("refresh_ms")] = config.refreshIntervalMs;
    cfg[QStringLiteral("acquire_mode")] = config.acquireModeName();
    cfg[QStringLiteral("wait_ms")] = config.waitMs;
    if (!config.waits())
        cfg[QStringLiteral("retry_pause")] = config.retry.toString();
    cfg[QStringLiteral("replicas")] = config.replicas;
    if (config.ops > 0)
        cfg[QStringLiteral("ops")] = config.ops;
    else
        cfg[QStringLiteral("duration_ms")] = config.durationMs;
    cfg[QStringLiteral("crash_rate")] = config.crashRate;
    cfg[QStringLiteral("skew_ms")] = config.skewMs;
    o[QStringLiteral("config")] = cfg;

    // The headline figures scripts look for, flat at the top level.
    o[QStringLiteral("acquire_mode")] = config.acquireModeName();
    o[QStringLiteral("elapsed_ms")] = elapsedMs;
    o[QStringLiteral("grants")] = grants;
    o[QStringLiteral("releases")] = releases;
    o[QStringLiteral("attempts")] = attempts;
    o[QStringLiteral("busy_replies")] = busyReplies;
    o[QStringLiteral("errors")] = errors;
    o[QStringLiteral("unavailable_ms")] = unavailableMs();
    o[QStringLiteral("refreshes")] = refreshes;
    o[QStringLiteral("lost_refreshes")] = lostRefreshes;
    o[QStringLiteral("failover_interruptions")] = failoverInterruptions;
    o[QStringLiteral("refused_grants")] = refusedGrants;
    o[QStringLiteral("not_held_releases")] = notHeldReleases;
    o[QStringLiteral("retry_wakes")] = retryWakes;
    o[QStringLiteral("pairs_per_s")] = round3(pairsPerSecond);
    o[QStringLiteral("attempts_per_grant")] = round3(attemptsPerGrant);
    o[QStringLiteral("acquire_p50_ms")] = round3(acquireWait.percentileMs(50));
    o[QStringLiteral("acquire_p90_ms")] = round3(acquireWait.percentileMs(90));
    o[QStringLiteral("acquire_p99_ms")] = round3(acquireWait.percentileMs(99));
    o[QStringLiteral("acquire_max_ms")] = round3(acquireWait.maxMs());
    o[QStringLiteral("jain_fairness")] = round3(fairness.jainIndex);
    o[QStringLiteral("longest_wait_ms")] = round3(ms(longestWaitNs));
    o[QStringLiteral("over_admissions")] = safety.overAdmissions;
    o[QStringLiteral("over_admitted_ms")] = round3(ms(safety.overAdmittedNs));
    o[QStringLiteral("max_concurrent_holders")] = safety.maxConcurrentHolders;
    o[QStringLiteral("token_violations")] = safety.tokenViolations;
    o[QStringLiteral("tokens_checked")] = safety.tokensChecked;
    o[QStringLiteral("crashes")] = recovery.crashes;
    o[QStringLiteral("crashes_recovered")] = recovery.recovered;
    o[QStringLiteral("recovery_max_ms")] = round3(ms(recovery.maxRecoveryNs));
    o[QStringLiteral("slots_leaked")] = static_cast<qint64>(recovery.leakedHolders.size());

    o[QStringLiteral("acquire_wait")] = histogramJson(acquireWait);
    o[QStringLiteral("acquire_call")] = histogramJson(acquireLatency);
    o[QStringLiteral("release_call")] = histogramJson(releaseLatency);
    o[QStringLiteral("fairness")] = QJsonObject{
        {QStringLiteral("jain"), round3(fairness.jainIndex)},
        {QStringLiteral("clients"), fairness.clients},
        {QStringLiteral("min_grants"), fairness.minGrants},
        {QStringLiteral("max_grants"), fairness.maxGrants},
        {QStringLiteral("starved_clients"), fairness.starvedClients},
    };

    QJsonArray episodes;
    for (const OverAdmission &e : safety.episodes)
        episodes.append(QJsonObject{
            {QStringLiteral("at_ms"), round3(ms(e.atNs))},
            {QStringLiteral("until_ms"), round3(ms(e.untilNs))},
            {QStringLiteral("max_holders"), e.maxHolders},
            {QStringLiteral("holder_count"), e.holderCount},
            {QStringLiteral("holders"), QJsonArray::fromStringList(e.holders)},
        });
    o[QStringLiteral("over_admission_episodes")] = episodes;

    QJsonArray violations;
    for (const TokenViolation &v : safety.violations)
        violations.append(QJsonObject{
            {QStringLiteral("at_ms"), round3(ms(v.atNs))},
            {QStringLiteral("holder"), v.holder},
            {QStringLiteral("token"), v.token},
            {QStringLiteral("earlier_holder"), v.earlierHolder},
            {QStringLiteral("earlier_token"), v.earlierToken},
        });
    o[QStringLiteral("token_violation_list")] = violations;

    QJsonArray recoveries;
    for (qint64 r : recovery.recoveryNs)
        recoveries.append(round3(ms(r)));
    o[QStringLiteral("recovery_ms")] = recoveries;
    o[QStringLiteral("leaked_holders")] = QJsonArray::fromStringList(recovery.leakedHolders);
    if (!errorSamples.isEmpty())
        o[QStringLiteral("error_samples")] = QJsonArray::fromStringList(errorSamples);
    if (!notes.isEmpty())
        o[QStringLiteral("notes")] = QJsonArray::fromStringList(notes);
    return o;
}

QString LoadTestReport::csvHeader() {
    return QStringLiteral(
        "run,elapsed_ms,pairs_per_s,acquire_p50_ms,acquire_p90_ms,acquire_p99_ms,acquire_max_ms,"
        "grants,attempts,busy_replies,errors,crashes,holders,max_holders,limit,over_admissions\n");
}

QString LoadTestReport::timelineCsv() const {
    QString out;
    QTextStream s(&out);
    // Labels come from a fixed list of kind and scenario names; quote anyway in case that changes.
    const QString run = QLatin1Char('"') + QString(label).replace(QLatin1Char('"'), QStringLiteral("\"\"")) +
                        QLatin1Char('"');
    for (const LoadTestProgress &p : timeline) {
        s << run << ',' << p.elapsedMs << ',' << round3(p.pairsPerSecond) << ',' << round3(p.acquireP50Ms)
          << ',' << round3(p.acquireP90Ms) << ',' << round3(p.acquireP99Ms) << ',' << round3(p.acquireMaxMs)
          << ',' << p.grants << ',' << p.attempts << ',' << p.busyReplies << ',' << p.errors << ','
          << p.crashes << ',' << p.holders << ',' << p.maxHolders << ',' << p.limit << ',' << p.overAdmissions
          << '\n';
    }
    return out;
}

namespace {
// "1 grant", "3 grants" (core::countText with the summary's plain literals).
QString countText(qint64 n, const char *one, const char *many) {
    return core::countText(n, QString::fromLatin1(one), QString::fromLatin1(many));
}
} // namespace

QString LoadTestReport::summaryText() const {
    QString out;
    QTextStream s(&out);
    s.setRealNumberNotation(QTextStream::FixedNotation);
    s.setRealNumberPrecision(2);
    s << label << ": " << countText(grants, "grant", "grants") << " in " << elapsedMs
      << " ms = " << pairsPerSecond << " pairs/s, " << attemptsPerGrant << " attempts/grant\n";
    if (config.waits())
        s << "  acquire: wait up to " << config.waitMs << " ms"
          << (LoadTestConfig::kindHasWaitQueue(config.ref.kind) ? " in the semaphore's FIFO queue" : "")
          << "\n";
    else
        s << "  acquire: try once, retry after " << config.retry.toString()
          << (LoadTestConfig::kindNotifiesReleases(config.ref.kind)
                  ? QStringLiteral(" or sooner when a release frees a slot (%1 times)").arg(retryWakes)
                  : QString())
          << "\n";
    s << "  acquire wait p50 " << acquireWait.percentileMs(50) << " ms, p90 " << acquireWait.percentileMs(90)
      << " ms, p99 " << acquireWait.percentileMs(99) << " ms, max " << acquireWait.maxMs() << " ms\n";
    s << "  fairness (Jain) " << fairness.jainIndex << ", longest wait " << ms(longestWaitNs)
      << " ms, busy replies " << busyReplies << ", errors " << errors << "\n";
    if (failoverInterruptions > 0)
        s << "  " << countText(failoverInterruptions, "operation was", "operations were")
          << " cut off by a failover (not sent again; the store followed the new master)\n";
    if (config.replicas > 0)
        s << "  waiting for " << config.replicas << " replica" << (config.replicas == 1 ? "" : "s")
          << " (WAIT, up to " << config.replicaTimeoutMs
          << " ms) in every acquire: " << countText(refusedGrants, "grant", "grants")
          << " refused (not acknowledged in time, released again); the acquire wait above includes "
             "the WAIT\n";
    if (errors > 0)
        s << "  " << countText(errors, "operation", "operations")
          << " failed; the server was unavailable for " << unavailableMs() << " ms of the run\n";
    s << "  safety: " << countText(safety.overAdmissions, "over-admission", "over-admissions") << " (max "
      << countText(safety.maxConcurrentHolders, "holder", "holders") << " at once, limit " << config.limit
      << "), " << countText(safety.tokenViolations, "token violation", "token violations") << "\n";
    if (recovery.crashes > 0) {
        s << "  crashes: " << recovery.crashes << ", slots back: " << recovery.recovered << " (slowest "
          << ms(recovery.maxRecoveryNs) << " ms), never seen back: " << recovery.leakedHolders.size() << "\n";
        if (!recovery.leakedHolders.isEmpty() && safety.maxConcurrentHolders < config.limit)
            s << "  (a freed slot only shows once every slot is busy again; this run never filled them "
                 "all)\n";
    }
    if (!safety.episodes.isEmpty()) {
        const OverAdmission &e = safety.episodes.first();
        s << "  first over-admission at " << ms(e.atNs) << " ms: " << e.maxHolders << " holders ("
          << e.holders.join(QStringLiteral(", ")) << ")\n";
    }
    for (const QString &e : errorSamples)
        s << "  error: " << e << "\n";
    for (const QString &n : notes)
        s << "  note: " << n << "\n";
    if (!error.isEmpty())
        s << "  failed: " << error << "\n";
    return out;
}

} // namespace semscope::core
