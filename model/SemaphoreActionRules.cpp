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

QString writeRefusedAdvice() {
    // A Redis Cluster runs a script on one node only, and only on keys of one slot: a check of the
    // holder on one master and a change on another cannot be one step, so there is no safe
    // cross-master force-release to offer
    // (https://redis.io/docs/latest/operate/oss_and_stack/reference/cluster-spec/).
    return tr("What you can do: reads still work (key by key). The service that uses this semaphore "
              "releases its own slots with its own client; a holder that is stuck goes when its owner "
              "releases it or an administrator removes its entry and returns its slot by hand "
              "(redis-cli -c, one master after the other: two steps, not atomic, so check that "
              "nothing changed between them). semscope-cli refuses the same writes, and semscope "
              "offers no cross-master force-release: no single step can check a holder on one master "
              "and free its slot on another.");
}

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
        const QString why = in.writeRefusal + QStringLiteral("\n\n") + writeRefusedAdvice();
        for (auto &v : rules.verdicts) {
            v.allowed = false;
            v.why = why;
        }
        rules.banner = tr("No write is offered on this semaphore. The store answers every write with: %1")
                           .arg(in.writeRefusal) +
                       QStringLiteral("\n") + writeRefusedAdvice();
    }
    return rules;
}

} // namespace semscope::model
