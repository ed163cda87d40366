#include "SemaphoreActionRules.h"

#include <QCoreApplication>

namespace semscope::model {

namespace {

QString tr(const char *text) {
    return QCoreApplication::translate("semscope::model::SemaphoreActionRules", text);
}

SemaphoreActionVerdict allowedIf(bool allowed, const QString &why) {
    return {true, allowed, allowed ? QString() : why};
}

} // namespace

SemaphoreActionRules semaphoreActionRules(const SemaphoreActionInputs &in) {
    using A = SemaphoreAction;
    SemaphoreActionRules rules;
    const bool consul = core::backendOf(in.kind) == core::Backend::Consul;
    const bool slotsKind = in.kind == core::Kind::Slots;

    rules.verdicts[A::Acquire] =
        allowedIf(core::kindIsWritable(in.kind),
                  tr("semscope only reads this kind of semaphore: acquire with the client that uses it."));
    rules.verdicts[A::RenewMine] = allowedIf(in.ownHolderSelected, tr("Select a slot this window acquired."));
    rules.verdicts[A::ReleaseMine] = rules.verdicts[A::RenewMine];
    rules.verdicts[A::ForceRelease] =
        allowedIf(in.selectedHolders > 0, tr("Select the holders to remove first."));
    rules.verdicts[A::Purge] = allowedIf(true, {});
    rules.verdicts[A::Repair] = allowedIf(true, {});
    rules.verdicts[A::Repair].offered = slotsKind;
    rules.verdicts[A::InvalidateSession] =
        allowedIf(in.selectedHolders == 1, tr("Select exactly one holder: its session is destroyed."));
    rules.verdicts[A::InvalidateSession].offered = consul;
    for (auto &v : rules.verdicts) {
        if (!v.offered)
            v = {false, false, {}}; // not this kind's action: nothing to explain
    }

    if (in.readOnly) {
        // Not greyed, gone: a read-only connection offers no write at all.
        for (auto &v : rules.verdicts)
            v = {false, false, tr("This connection is read-only.")};
        return rules;
    }
    if (!in.writeRefusal.isEmpty()) {
        // The store's own words, before anything is typed, and what is left to do.
        const QString advice =
            in.writeRefusalAdvice.isEmpty() ? QString() : QStringLiteral("\n\n") + in.writeRefusalAdvice;
        const QString why = in.writeRefusal + advice;
        for (auto &v : rules.verdicts) {
            v.allowed = false;
            v.why = why;
        }
        rules.banner = tr("No write is offered on this semaphore. The store answers every write with: %1")
                           .arg(in.writeRefusal);
        if (!in.writeRefusalAdvice.isEmpty())
            rules.banner += QStringLiteral("\n") + in.writeRefusalAdvice;
    }
    return rules;
}

} // namespace semscope::model
