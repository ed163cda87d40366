#include "TopologyEvent.h"

#include <QDateTime>

namespace semscope::core {

TopologyEvent TopologyEvent::make(Kind kind, QString text, QString from, QString to, QString via) {
    TopologyEvent e;
    e.timeMs = QDateTime::currentMSecsSinceEpoch();
    e.kind = kind;
    e.text = std::move(text);
    e.from = std::move(from);
    e.to = std::move(to);
    e.via = std::move(via);
    return e;
}

QString topologyEventKindName(TopologyEvent::Kind kind) {
    switch (kind) {
    case TopologyEvent::Kind::MasterFound:
        return QStringLiteral("master found");
    case TopologyEvent::Kind::FailoverStarted:
        return QStringLiteral("failover started");
    case TopologyEvent::Kind::FailoverAborted:
        return QStringLiteral("failover aborted");
    case TopologyEvent::Kind::MasterSwitched:
        return QStringLiteral("master switched");
    case TopologyEvent::Kind::MapChanged:
        return QStringLiteral("map changed");
    case TopologyEvent::Kind::NodeDown:
        return QStringLiteral("node down");
    }
    return {};
}

bool isFailoverEvent(const TopologyEvent &event) {
    return event.kind != TopologyEvent::Kind::MasterFound;
}

} // namespace semscope::core
