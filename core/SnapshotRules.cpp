#include "SnapshotRules.h"

namespace semscope::core {

void applyProfileLimit(Snapshot &snapshot, const SemaphoreProfile &profile) {
    if (snapshot.limitSource == LimitSource::Stored || !profile.limit)
        return;
    snapshot.limit = *profile.limit;
    snapshot.limitSource = profile.inferred ? LimitSource::Inferred : LimitSource::Profile;
}

QString outcomeWithMessage(const QString &outcome, const QString &message) {
    if (message.isEmpty())
        return outcome;
    if (outcome.isEmpty() || message.startsWith(outcome, Qt::CaseInsensitive))
        return message;
    return QStringLiteral("%1 (%2)").arg(outcome, message);
}

} // namespace semscope::core
