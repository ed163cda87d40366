#include "SemaphoreTypes.h"

#include <algorithm>

namespace semscope::core {

QString holderStateName(HolderState state) {
    switch (state) {
    case HolderState::Live:
        return QStringLiteral("live");
    case HolderState::ExpiredPresent:
        return QStringLiteral("expired");
    case HolderState::Stale:
        return QStringLiteral("stale");
    case HolderState::OverLimit:
        return QStringLiteral("over-limit");
    case HolderState::Waiting:
        return QStringLiteral("waiting");
    case HolderState::Orphan:
        return QStringLiteral("orphan");
    }
    return QStringLiteral("unknown");
}

QString holderStateDescription(HolderState state) {
    switch (state) {
    case HolderState::Live:
        return QStringLiteral("Holds a slot; its lease (if the layout has one) is still running.");
    case HolderState::ExpiredPresent:
        return QStringLiteral("Its lease ran out but the record is still there. The next acquire or a "
                              "purge removes it; until then it may still count against the limit.");
    case HolderState::Stale:
        return QStringLiteral("Recorded as a holder, but its owner is gone or it has held its slot longer "
                              "than the stuck threshold.");
    case HolderState::OverLimit:
        return QStringLiteral("Recorded beyond the limit: more holders than slots, or rank >= limit. "
                              "Either a transient loser or an over-admission.");
    case HolderState::Waiting:
        return QStringLiteral("Waiting for a slot; does not hold one.");
    case HolderState::Orphan:
        return QStringLiteral("A leftover record that belongs to no live holder or waiter.");
    }
    return {};
}

QString limitSourceName(LimitSource source) {
    switch (source) {
    case LimitSource::Stored:
        return QStringLiteral("stored");
    case LimitSource::Profile:
        return QStringLiteral("profile");
    case LimitSource::Inferred:
        return QStringLiteral("inferred");
    case LimitSource::Unknown:
        return QStringLiteral("unknown");
    }
    return {};
}

QString forceReleaseStatusName(ForceReleaseResult::Status status) {
    switch (status) {
    case ForceReleaseResult::Status::Released:
        return QStringLiteral("released");
    case ForceReleaseResult::Status::Changed:
        return QStringLiteral("changed");
    case ForceReleaseResult::Status::Gone:
        return QStringLiteral("gone");
    case ForceReleaseResult::Status::Error:
        return QStringLiteral("error");
    }
    return {};
}

qint64 Snapshot::usedCount() const {
    qint64 used = 0;
    for (const Holder &h : holders) {
        if (h.occupiesSlot())
            used += std::max<qint64>(1, h.permits);
    }
    return used;
}

std::optional<qint64> Snapshot::soonestExpiryMs() const {
    std::optional<qint64> soonest;
    for (const auto &h : holders) {
        // A waiter's expiry is its place in line, not a slot coming free.
        if (!h.occupiesSlot())
            continue;
        if (h.expiresAtMs && (!soonest || *h.expiresAtMs < *soonest))
            soonest = h.expiresAtMs;
    }
    return soonest;
}

qint64 Snapshot::countInState(HolderState state) const {
    return std::count_if(holders.cbegin(), holders.cend(),
                         [state](const Holder &h) { return h.state == state; });
}

} // namespace semscope::core
