#include "HolderColumnRules.h"

#include "HolderTableModel.h"
#include "core/Kind.h"

namespace semscope::model {

namespace {

struct ColumnRule {
    bool applies = false;   // this semaphore's holders have data for it
    bool shownFirst = true; // shown until the operator hides it
};

QMap<int, ColumnRule> columnRules(const core::Snapshot &s) {
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
    return {
        {M::RankColumn, {rank || empty}},
        {M::SlotColumn, {slot || slotsKind}},
        {M::TokenColumn, {token || empty}},
        {M::AcquiredColumn, {acquired}},
        // Consul holders live as long as their session: its TTL is in the card. A `slots` holder
        // without a lease has none to count down either.
        {M::TtlColumn, {ttl || !(slotsKind || consul)}},
        // A Consul holder's session: its name is what the Holder column reads ("name  (id)"); its
        // node, behavior and health checks are on the card for the selected holder.
        {M::SessionColumn, {consul, false}},
        {M::NodeColumn, {consul, false}},
        {M::BehaviorColumn, {consul, false}},
        {M::HealthColumn, {consul, false}},
    };
}

} // namespace

QMap<int, bool> holderColumnsHidden(const core::Snapshot &s, const QMap<int, bool> &shownByOperator) {
    QMap<int, bool> hidden;
    const QMap<int, ColumnRule> rules = columnRules(s);
    for (auto it = rules.begin(); it != rules.end(); ++it)
        hidden[it.key()] = !it->applies || !shownByOperator.value(it.key(), it->shownFirst);
    return hidden;
}

QList<int> holderColumnsToChoose(const core::Snapshot &s) {
    QList<int> columns;
    const QMap<int, ColumnRule> rules = columnRules(s);
    for (auto it = rules.begin(); it != rules.end(); ++it) {
        if (it->applies)
            columns << it.key();
    }
    return columns;
}

} // namespace semscope::model
