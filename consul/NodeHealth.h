#pragma once

#include "ConsulTypes.h"
#include "core/ClientLiveness.h"
#include "core/SemaphoreStore.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace semscope::consul {

class ConsulClient;

// One entry of GET /v1/health/node/<node>
// (developer.hashicorp.com/consul/api-docs/health#list-checks-for-node): a JSON array of
// {"Node","CheckID","Name","Status":"passing|warning|critical|maintenance",
// "Notes","Output","ServiceID","ServiceName",…}; an unknown node answers 200 with [].
struct NodeCheck {
    QString checkId;
    QString name;
    QString status;
    QString output;
    QString serviceName;
};

struct NodeHealth {
    QString node;
    QList<NodeCheck> checks;
    QString error; // the request or the body failed; one line
    bool ok() const { return error.isEmpty(); }
};

// nullopt and `error` set when the body is not such an array.
std::optional<QList<NodeCheck>> parseNodeChecks(const QByteArray &body, QString *error);

// One request, on the client's thread; `done` runs once there.
void readNodeHealth(ConsulClient &client, const QString &node, core::Callback<NodeHealth> done);

// What a node's checks say of a session holder on it. `sessionChecks`: the checks the session is
// bound to (Holder::details "checks"): a critical one of those ends the session, any other
// critical check leaves it (and its slot) standing, and the card says which.
core::ClientLiveness livenessFromNodeHealth(const NodeHealth &health, const QStringList &sessionChecks);

// ConsulSemaphoreStore::readClientLiveness: one health read per node among the holders' sessions,
// answered by holder id (identity key "node:<node>"). `done` runs once, on the client's thread.
void readHolderLiveness(ConsulClient &client, const QList<core::Holder> &holders,
                        core::Callback<QHash<QString, core::HolderClientLiveness>> done);

} // namespace semscope::consul
