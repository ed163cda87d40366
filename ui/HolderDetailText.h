#pragma once

#include <QString>
#include <QVariant>
#include <optional>

namespace semscope::ui {

// How one of a holder's layout-specific details (Holder::details) reads to an operator: a label
// in words instead of the field name, the value formatted, and what it means. nullopt for details
// shown elsewhere (the state's reason, flags already told by the TTL row).
struct HolderDetailText {
    QString label;
    QString value;
    QString toolTip;
};

std::optional<HolderDetailText> describeHolderDetail(const QString &key, const QVariant &value);

// Unknown keys still read as words: "hold_count" -> "Hold count", "lockDelayMs" -> "Lock delay ms".
QString humanizeDetailKey(const QString &key);

} // namespace semscope::ui
