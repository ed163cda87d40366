#include "HolderSearch.h"

#include "core/Kind.h"

namespace semscope::model {

using namespace semscope::core;

HolderSearch::HolderSearch(QObject *parent)
    : QObject(parent) {
    qRegisterMetaType<QList<HolderMatch>>();
}

void HolderSearch::start(const HolderPattern &pattern, const QList<HolderSearchTarget> &targets) {
    if (m_run)
        cancel();
    auto run = std::make_shared<Run>();
    run->pattern = pattern;
    run->targets = targets;
    for (int t = 0; t < targets.size(); ++t) {
        for (const SemaphoreRef &ref : targets[t].semaphores) {
            if (run->jobs.size() >= kMaxSemaphores) {
                ++run->skipped;
                continue;
            }
            run->jobs.append(Job{t, ref});
        }
    }
    run->inFlightPerTarget = QList<int>(targets.size(), 0);
    m_run = run;
    for (int t = 0; t < targets.size(); ++t) {
        if (targets[t].controller)
            run->watches << connect(targets[t].controller, &QObject::destroyed, this,
                                    [this, run, t] { targetGone(run, t); });
    }
    Q_EMIT progress(0, int(run->jobs.size()));
    pump(run);
}

void HolderSearch::cancel() {
    if (m_run)
        finish(m_run, true);
}

void HolderSearch::pump(const std::shared_ptr<Run> &run) {
    if (run != m_run)
        return;
    if (run->next >= run->jobs.size() && run->inFlight == 0)
        return finish(run, false);
    while (run->inFlight < kMaxInFlight && run->next < run->jobs.size()) {
        const Job job = run->jobs[run->next++];
        const HolderSearchTarget &target = run->targets[job.target];
        if (!target.controller) {
            ++run->read;
            run->errors
                << QStringLiteral("%1 · %2: connection closed").arg(target.connectionName, job.ref.name);
            continue;
        }
        ++run->inFlight;
        ++run->inFlightPerTarget[job.target];
        target.controller->snapshot(job.ref, this, [this, run, job](Snapshot s) {
            if (run != m_run || run->inFlightPerTarget[job.target] == 0)
                return; // cancelled, replaced, or its connection was written off
            --run->inFlight;
            --run->inFlightPerTarget[job.target];
            ++run->read;
            const HolderSearchTarget &target = run->targets[job.target];
            // A read that failed shows up as an error detail (Consul) or as warnings and nobody listed
            // (Redis): either way nobody can say who holds it, which the operator must know.
            QString error = s.details.value(QStringLiteral("error")).toString();
            if (error.isEmpty() && s.holders.isEmpty() && !s.warnings.isEmpty())
                error = s.warnings.constFirst();
            if (!error.isEmpty()) {
                run->errors << QStringLiteral("%1 · %2:%3: %4")
                                   .arg(target.connectionName, kindName(job.ref.kind), job.ref.name, error);
            }
            QList<HolderMatch> matches;
            for (const Holder &h : s.holders) {
                if (!run->pattern.matches(h))
                    continue;
                matches.append(HolderMatch{target.connectionId, target.connectionName, target.environment,
                                           job.ref, h, s.serverNowMs});
            }
            if (!matches.isEmpty())
                Q_EMIT found(matches);
            Q_EMIT progress(run->read, int(run->jobs.size()));
            pump(run);
        });
    }
    if (run == m_run && run->next >= run->jobs.size() && run->inFlight == 0)
        finish(run, false);
}

void HolderSearch::targetGone(const std::shared_ptr<Run> &run, int target) {
    if (run != m_run)
        return;
    // Emitted from ~QObject: the controller must not be called again, whatever its QPointer says yet.
    run->targets[target].controller = nullptr;
    const int lost = run->inFlightPerTarget[target];
    run->inFlightPerTarget[target] = 0;
    run->inFlight -= lost;
    run->read += lost;
    if (lost > 0)
        run->errors << QStringLiteral("%1: connection closed during the search")
                           .arg(run->targets[target].connectionName);
    Q_EMIT progress(run->read, int(run->jobs.size()));
    // Jobs not yet sent to it are met by the closed-connection check in pump().
    pump(run);
}

void HolderSearch::finish(std::shared_ptr<Run> run, bool cancelled) {
    if (run != m_run)
        return;
    m_run.reset();
    for (const auto &c : std::as_const(run->watches))
        disconnect(c);
    Q_EMIT finished(cancelled, run->read, run->skipped + (cancelled ? int(run->jobs.size()) - run->read : 0),
                    run->errors);
}

} // namespace semscope::model
