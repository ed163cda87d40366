#pragma once

#include "core/Kind.h"

#include <QHash>
#include <QString>

namespace semscope::model {

// The writes the semaphore page offers on one semaphore.
enum class SemaphoreAction {
    Acquire,
    RenewMine,
    ReleaseMine,
    ForceRelease,
    Purge,
    Repair,
    InvalidateSession
};

// What decides them: the connection, the store's own answer (core::Snapshot::writeRefusal, from the
// last read) and what the operator has selected.
struct SemaphoreActionInputs {
    core::Kind kind = core::Kind::Slots;
    bool readOnly = false;
    QString writeRefusal;
    QString writeRefusalAdvice; // core::Snapshot::writeRefusalAdvice: what the operator can still do
    int selectedHolders = 0;
    bool ownHolderSelected = false; // a holder this window acquired is among the selected
};

struct SemaphoreActionVerdict {
    bool offered = true;  // shown at all (Repair is a slots action, Invalidate a Consul one)
    bool allowed = false; // enabled
    QString why;          // when offered but not allowed: why not, and what to do instead
};

// Which actions a semaphore allows, and why not: the one place the page's buttons, their tooltips
// and its banner take that from, so nothing is offered that the store would refuse.
struct SemaphoreActionRules {
    SemaphoreActionVerdict verdict(SemaphoreAction action) const { return verdicts.value(action); }
    // Shown above the holders when the store refuses every write here; empty otherwise.
    QString banner;
    QHash<SemaphoreAction, SemaphoreActionVerdict> verdicts;
};

SemaphoreActionRules semaphoreActionRules(const SemaphoreActionInputs &inputs);

} // namespace semscope::model
