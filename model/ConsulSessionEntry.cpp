#include "ConsulSessionEntry.h"

#include "core/Kind.h"

namespace semscope::model {

QString SessionHolding::text() const {
    return QStringLiteral("%1:%2 (%3)").arg(core::kindName(ref.kind), ref.name, core::holderStateName(state));
}

QString SessionEntry::holdingsText() const {
    QStringList parts;
    for (const SessionHolding &h : holdings)
        parts << h.text();
    return parts.join(QStringLiteral(", "));
}

} // namespace semscope::model
