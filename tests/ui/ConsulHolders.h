#pragma once

#include "core/SemaphoreTypes.h"

#include <QDateTime>
#include <QStringList>

namespace semscope::test {

// demo/service-a as the Consul demo shows it: three holders, each a session with a name, a node,
// a behavior and a health check, seen for over a minute.
inline core::Snapshot consulServiceSnapshot() {
    core::Snapshot s;
    s.ref = {core::Kind::Consul, QStringLiteral("demo/service-a"), {}};
    s.limit = 3;
    s.limitSource = core::LimitSource::Stored;
    s.serverNowMs = QDateTime::currentMSecsSinceEpoch();
    const QStringList names{QStringLiteral("checkout-api@node-1"), QStringLiteral("checkout-worker-6@node-3"),
                            QStringLiteral("worker-6@node-2")};
    for (int i = 0; i < names.size(); ++i) {
        core::Holder h;
        h.id = QStringLiteral("18e5f78e-708b-419a-8a0a-0a2b857bb69%1").arg(i);
        h.rawId = h.id.toUtf8();
        h.rank = i;
        h.token = 17 + 30 * i;
        h.firstSeenMs = s.serverNowMs - 78000;
        h.details = {{QStringLiteral("session"), h.id},
                     {QStringLiteral("sessionName"), names.at(i)},
                     {QStringLiteral("node"), QStringLiteral("semscope-double")},
                     {QStringLiteral("behavior"), QStringLiteral("delete")},
                     {QStringLiteral("checks"), QStringList{QStringLiteral("serfHealth")}},
                     {QStringLiteral("ttl"), QStringLiteral("15s")}};
        s.holders << h;
    }
    return s;
}

} // namespace semscope::test
