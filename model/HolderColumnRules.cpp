#include "HolderColumnRules.h"

#include "HolderTableModel.h"
#include "core/Kind.h"

namespace semscope::model {

QMap<int, bool> holderColumnsHidden(const core::Snapshot &s) {
    bool rank = false, slot = false, token = false, acquired = false, ttl = false;
    for (const core::Holder &h : s.holders) {
        rank = rank || h.rank.has_value();
        slot = slot || h.slot.has_value();
        token = token || h.token.has_value();
        acquired = acquired || h.acquiredAtMs.has_value();
        ttl = ttl || h.expiresAtMs.has_value();
    }
    const bool consul = core::backendOf(s.ref.kind) == core::Backend::Consul;
    const bool slotsKind = s.ref.kind == core::Kind::Slots;
    const bool empty = s.holders.isEmpty();
    using M = HolderTableModel;
    QMap<int, bool> hidden{
        {M::RankColumn, !rank && !empty},
        {M::SlotColumn, !slot && !slotsKind},
        {M::TokenColumn, !token && !empty},
        {M::AcquiredColumn, !acquired},
        // Consul holders live as long as their session: its TTL is in the Session column and the
        // card. A `slots` holder without a lease has none to count down either.
        {M::TtlColumn, !ttl && (slotsKind || consul)},
    };
    for (int c : {M::SessionColumn, M::NodeColumn, M::BehaviorColumn, M::HealthColumn})
        hidden[c] = !consul;
    return hidden;
}

} // namespace semscope::model
