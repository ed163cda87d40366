#pragma once

#include "HoldInterval.h"

#include <QList>
#include <QStringList>

namespace semscope::core {

struct CrashRecoveryVerdict {
    qint64 crashes = 0;
    qint64 recovered = 0;
    QList<qint64> recoveryNs; // one per recovered crash, in crash order
    qint64 maxRecoveryNs = 0;
    QStringList leakedHolders; // crashed holders whose slot never provably came back
    QList<qint64> leakedForNs; // how long each of those had been gone when the run ended
};

// How long the slots of crashed holders stayed out of use. A crashed holder's slot can only be
// proven free by a grant: when a grant arrives and `count` intervals (including it) are open, at
// most `limit - count` slots can still be tied up by crashed holders, so any crash beyond that
// number has been reclaimed. Crashes are credited oldest first (leases run out in crash order).
// Recovery = that grant's arrival minus the crash. Crashes never proven reclaimed are reported as
// leaked, with their age at the end of the run.
CrashRecoveryVerdict analyzeCrashRecovery(const QList<HoldInterval> &intervals, int limit, qint64 runEndNs);

} // namespace semscope::core
