#include "NodeHealth.h"

#include "ConsulClient.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>
#include <QUrl>
#include <memory>

namespace semscope::consul {

std::optional<QList<NodeCheck>> parseNodeChecks(const QByteArray &body, QString *error) {
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isArray()) {
        if (error)
            *error =
                QObject::tr("health checks: not a JSON array (%1)")
                    .arg(parseError.error != QJsonParseError::NoError ? parseError.errorString()
                                                                      : QObject::tr("another JSON value"));
        return std::nullopt;
    }
    QList<NodeCheck> out;
    for (const QJsonValue &v : doc.array()) {
        const QJsonObject o = v.toObject();
        NodeCheck c;
        c.checkId = o.value(QLatin1String("CheckID")).toString();
        c.name = o.value(QLatin1String("Name")).toString();
        c.status = o.value(QLatin1String("Status")).toString();
        c.output = o.value(QLatin1String("Output")).toString().trimmed();
        c.serviceName = o.value(QLatin1String("ServiceName")).toString();
        if (c.checkId.isEmpty() || c.status.isEmpty())
            continue; // not a check entry
        out.append(c);
    }
    return out;
}

void readNodeHealth(ConsulClient &client, const QString &node, core::Callback<NodeHealth> done) {
    client.request("GET",
                   QStringLiteral("/v1/health/node/") + QString::fromLatin1(QUrl::toPercentEncoding(node)),
                   QString(), QByteArray(), [node, done](HttpResult r) {
                       NodeHealth h;
                       h.node = node;
                       if (!r.ok()) {
                           h.error = r.error;
                       } else if (auto checks = parseNodeChecks(r.body, &h.error)) {
                           h.checks = *checks;
                       }
                       done(h);
                   });
}

core::ClientLiveness livenessFromNodeHealth(const NodeHealth &health, const QStringList &sessionChecks) {
    core::ClientLiveness l;
    l.source = core::ClientLiveness::Source::ConsulNodeChecks;
    l.identity = QObject::tr("node %1").arg(health.node);
    if (!health.ok()) {
        l.evidence = QObject::tr("the node's health could not be read: %1").arg(health.error);
        return l;
    }
    if (health.checks.isEmpty()) {
        // Consul answers [] for a node it does not know and for one without checks alike.
        l.evidence = QObject::tr("Consul lists no health checks for node %1 (not registered, or no checks)")
                         .arg(health.node);
        return l;
    }
    QStringList critical;
    QStringList warnings;
    bool boundCritical = false;
    for (const NodeCheck &c : health.checks) {
        const QString line = c.output.isEmpty()
                                 ? QStringLiteral("%1 %2").arg(c.checkId, c.status)
                                 : QStringLiteral("%1 %2: %3").arg(c.checkId, c.status, c.output);
        if (c.status == QLatin1String("critical")) {
            critical << line;
            boundCritical = boundCritical || sessionChecks.contains(c.checkId);
        } else if (c.status != QLatin1String("passing")) {
            warnings << line; // warning, maintenance
        }
    }
    if (!critical.isEmpty()) {
        l.state = core::ClientLiveness::State::Gone;
        l.evidence = critical.join(QStringLiteral("; "));
        // A session is invalidated by a critical check it is bound to; any other leaves it, and
        // its slot, standing: the operator has to decide.
        l.evidence += boundCritical
                          ? QObject::tr(" — the session is bound to it: Consul ends the session")
                          : QObject::tr(" — the session is not bound to it: Consul keeps the session "
                                        "and its slot");
        return l;
    }
    l.state = core::ClientLiveness::State::Connected;
    // Which checks: "serfHealth" says the agent is alive, a service check says more.
    QStringList passing;
    for (const NodeCheck &c : health.checks) {
        if (c.status == QLatin1String("passing"))
            passing << c.checkId;
    }
    if (passing.size() > 4)
        passing = passing.mid(0, 3) << QObject::tr("%1 more").arg(passing.size() - 3);
    l.evidence =
        passing.isEmpty()
            ? QObject::tr("node %1").arg(health.node)
            : QObject::tr("node %1: %2 passing").arg(health.node, passing.join(QStringLiteral(", ")));
    if (!warnings.isEmpty())
        l.evidence += QStringLiteral("; ") + warnings.join(QStringLiteral("; "));
    return l;
}

void readHolderLiveness(ConsulClient &client, const QList<core::Holder> &holders,
                        core::Callback<QHash<QString, core::HolderClientLiveness>> done) {
    struct Item {
        QString holderId;
        QString node;
        QStringList sessionChecks;
    };
    QList<Item> items;
    QStringList nodes;
    for (const core::Holder &h : holders) {
        const QString node = h.details.value(QStringLiteral("node")).toString();
        if (node.isEmpty())
            continue;
        items.append({h.id, node, h.details.value(QStringLiteral("checks")).toStringList()});
        if (!nodes.contains(node))
            nodes << node;
    }
    if (items.isEmpty()) {
        // Later, as every store answer comes: no caller is re-entered from inside its own call.
        QTimer::singleShot(0, [done] { done({}); });
        return;
    }
    struct Gather {
        QHash<QString, NodeHealth> byNode;
        qsizetype pending = 0;
    };
    auto gather = std::make_shared<Gather>();
    gather->pending = nodes.size();
    for (const QString &node : std::as_const(nodes)) {
        readNodeHealth(client, node, [gather, items, done](const NodeHealth &health) {
            gather->byNode.insert(health.node, health);
            if (--gather->pending > 0)
                return;
            QHash<QString, core::HolderClientLiveness> out;
            for (const Item &item : items) {
                out.insert(item.holderId,
                           {QStringLiteral("node:") + item.node,
                            livenessFromNodeHealth(gather->byNode.value(item.node), item.sessionChecks)});
            }
            done(out);
        });
    }
}

} // namespace semscope::consul
