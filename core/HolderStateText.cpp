#include "HolderStateText.h"

namespace semscope::core {

QString holderStateDescription(HolderState state, Kind kind) {
    if (state != HolderState::Stale)
        return holderStateDescription(state);
    switch (backendOf(kind)) {
    case Backend::Consul:
        return QStringLiteral("Listed as a holder, but its Consul session is gone (invalidated or expired); "
                              "the slot is freed when a contender next rewrites the lock.");
    case Backend::Redis:
        break;
    }
    if (kind == Kind::Slots)
        return QStringLiteral("Has held its slot longer than the stuck threshold, and the layout keeps no "
                              "lease: nothing frees the slot but a release or a force-release.");
    return QStringLiteral("Recorded as a holder long after its lease or owner is gone.");
}

} // namespace semscope::core
