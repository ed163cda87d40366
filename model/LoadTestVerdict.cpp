#include "LoadTestVerdict.h"

#include "core/CountText.h"

#include <QCoreApplication>
#include <algorithm>

namespace semscope::model {

namespace {
QString tr(const char *text) {
    return QCoreApplication::translate("LoadTestVerdict", text);
}

QString overAdmissions(qint64 n) {
    return n == 1 ? tr("1 over-admission") : tr("%1 over-admissions").arg(n);
}

// How long the run spent above its limit: an over-admission is a stretch of time (SafetyChecker),
// so a run above the limit from start to end counts one, and this says how long it was.
QString timeAbove(const core::LoadTestReport &r) {
    const double above = static_cast<double>(r.safety.overAdmittedNs) / 1e9;
    const double total = static_cast<double>(r.elapsedMs) / 1000.0;
    if (total <= 0.0)
        return tr(" (stretches above the limit: %1 s in all)").arg(above, 0, 'f', 1);
    return tr(" (stretches above the limit: %1 s of the %2 s run)")
        .arg(above, 0, 'f', 1)
        .arg(total, 0, 'f', 1);
}
} // namespace

LoadTestVerdict liveVerdict(const QString &label, const core::LoadTestProgress &p, bool aboutLeaks) {
    LoadTestVerdict v;
    if (aboutLeaks) {
        // Slots crashed clients took count as in use: a leak is slots nobody holds that nobody gets.
        v.text = tr("%1: running — %2 so far, %3 of %4 in use (%5 by %6)")
                     .arg(label, core::countText(p.crashes, tr("crash"), tr("crashes")))
                     .arg(std::min(p.holders + p.crashedSlots, std::max(p.limit, p.holders)))
                     .arg(core::countText(p.limit, tr("slot"), tr("slots")))
                     .arg(p.crashedSlots)
                     .arg(core::forCount(p.crashedSlots, tr("a crashed client"), tr("crashed clients")));
        v.tone = p.crashedSlots > 0 ? LoadTestVerdict::Tone::Bad : LoadTestVerdict::Tone::Neutral;
        return v;
    }
    v.text = tr("%1: running — %2 so far").arg(label, overAdmissions(p.overAdmissions));
    v.tone = p.overAdmissions > 0 ? LoadTestVerdict::Tone::Bad : LoadTestVerdict::Tone::Neutral;
    return v;
}

LoadTestVerdict finalVerdict(const core::LoadTestReport &r, bool aboutLeaks) {
    LoadTestVerdict v;
    const QString stopped = r.cancelled ? tr(" (stopped early)") : QString();
    if (!r.ok) {
        v.text = tr("%1: failed — %2").arg(r.label, r.error.isEmpty() ? tr("see the errors below") : r.error);
        v.tone = LoadTestVerdict::Tone::Bad;
        return v;
    }
    const bool unsafe = r.safety.overAdmissions > 0 || r.safety.tokenViolations > 0;
    if (unsafe) {
        v.text = tr("%1: %2").arg(r.label, overAdmissions(r.safety.overAdmissions));
        if (r.safety.overAdmissions > 0)
            v.text += timeAbove(r);
        if (r.safety.tokenViolations > 0)
            v.text += tr(", %1").arg(
                core::countText(r.safety.tokenViolations, tr("token violation"), tr("token violations")));
        v.text += tr(" — up to %1 holders at once, limit %2")
                      .arg(r.safety.maxConcurrentHolders)
                      .arg(r.config.limit);
        v.text += stopped;
        v.tone = LoadTestVerdict::Tone::Bad;
        return v;
    }
    if (r.errors > 0) {
        // Safe, but no pass: a server that answered nothing admitted nobody.
        v.text = tr("%1: 0 over-admissions, but %2 failed — the server was unavailable for %3 s")
                     .arg(r.label, core::countText(r.errors, tr("operation"), tr("operations")))
                     .arg(r.unavailableMs() / 1000.0, 0, 'f', 1) +
                 stopped;
        v.tone = LoadTestVerdict::Tone::Bad;
        return v;
    }
    const qint64 leaked = r.recovery.leakedHolders.size();
    if (aboutLeaks || r.recovery.crashes > 0) {
        if (r.recovery.crashes == 0) {
            v.text = tr("%1: 0 over-admissions, no client crashed while holding").arg(r.label) + stopped;
            v.tone = LoadTestVerdict::Tone::Neutral;
        } else if (leaked == 0) {
            v.text = (r.recovery.crashes == 1
                          ? tr("%1: 0 over-admissions, the 1 crashed slot came back").arg(r.label)
                          : tr("%1: 0 over-admissions, all %2 crashed slots came back")
                                .arg(r.label)
                                .arg(r.recovery.crashes)) +
                     stopped;
            v.tone = LoadTestVerdict::Tone::Good;
        } else if (r.recovery.recovered == 0 && aboutLeaks) {
            v.text = tr("%1: %2 of %3 leaked — never given back")
                         .arg(r.label)
                         .arg(leaked)
                         .arg(core::countText(r.recovery.crashes, tr("crashed slot"), tr("crashed slots"))) +
                     stopped;
            v.tone = LoadTestVerdict::Tone::Bad;
        } else {
            v.text = tr("%1: 0 over-admissions; %2 of %3 crashed slots back, %4 not seen back before the end")
                         .arg(r.label)
                         .arg(r.recovery.recovered)
                         .arg(r.recovery.crashes)
                         .arg(leaked) +
                     stopped;
            v.tone = LoadTestVerdict::Tone::Neutral; // some came back: a lease works, the run was short
        }
        return v;
    }
    v.text = tr("%1: 0 over-admissions, 0 token violations").arg(r.label) + stopped;
    v.tone = LoadTestVerdict::Tone::Good;
    return v;
}

} // namespace semscope::model
