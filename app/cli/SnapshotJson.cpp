#include "SnapshotJson.h"

#include <QJsonValue>

namespace semscope::cli {

namespace {

void putOptional(QJsonObject &o, const QString &key, const std::optional<qint64> &v) {
    if (v)
        o.insert(key, static_cast<double>(*v)); // JSON numbers: exact up to 2^53
}

// Every semaphore has a limit, even where nobody knows it yet: `"limit": null` (with limit_source
// "unknown") rather than a missing field, so scripts can rely on the key being there.
void putLimit(QJsonObject &o, const std::optional<qint64> &limit) {
    o.insert(QStringLiteral("limit"),
             limit ? QJsonValue(static_cast<double>(*limit)) : QJsonValue(QJsonValue::Null));
}

QJsonArray stringsToJson(const QStringList &strings) {
    QJsonArray a;
    for (const QString &s : strings)
        a.append(s);
    return a;
}

QJsonObject clientToJson(const core::ClientLiveness &l) {
    using State = core::ClientLiveness::State;
    QJsonObject o{{QStringLiteral("state"), l.state == State::Connected ? QStringLiteral("connected")
                                            : l.state == State::Gone    ? QStringLiteral("gone")
                                                                        : QStringLiteral("unknown")},
                  {QStringLiteral("identity"), l.identity},
                  {QStringLiteral("evidence"), l.evidence}};
    if (!l.limits.isEmpty())
        o.insert(QStringLiteral("limits"), l.limits);
    return o;
}

} // namespace

QJsonObject holderToJson(const core::Holder &holder, qint64 nowMs) {
    QJsonObject o;
    o.insert(QStringLiteral("id"), holder.id);
    if (!holder.rawId.isEmpty() && holder.rawId != holder.id.toUtf8())
        o.insert(QStringLiteral("raw_id_hex"), QString::fromLatin1(holder.rawId.toHex()));
    putOptional(o, QStringLiteral("slot"), holder.slot);
    putOptional(o, QStringLiteral("rank"), holder.rank);
    putOptional(o, QStringLiteral("token"), holder.token);
    if (holder.expiresAtMs && nowMs > 0)
        putOptional(o, QStringLiteral("ttl_ms"), holder.ttlMs(nowMs));
    putOptional(o, QStringLiteral("expires_at_ms"), holder.expiresAtMs);
    putOptional(o, QStringLiteral("acquired_at_ms"), holder.acquiredAtMs);
    if (holder.acquiredAtMs && nowMs > 0)
        o.insert(QStringLiteral("age_ms"), static_cast<double>(nowMs - *holder.acquiredAtMs));
    putOptional(o, QStringLiteral("first_seen_ms"), holder.firstSeenMs);
    if (holder.permits > 1)
        o.insert(QStringLiteral("permits"), static_cast<double>(holder.permits));
    o.insert(QStringLiteral("state"), core::holderStateName(holder.state));
    if (!holder.details.isEmpty())
        o.insert(QStringLiteral("details"), QJsonObject::fromVariantMap(holder.details));
    return o;
}

QJsonArray holdersToJson(const QList<core::Holder> &holders, qint64 nowMs,
                         const QHash<QString, core::HolderClientLiveness> &clients) {
    QJsonArray a;
    for (const core::Holder &h : holders) {
        QJsonObject o = holderToJson(h, nowMs);
        if (const auto it = clients.constFind(h.id); it != clients.cend())
            o.insert(QStringLiteral("client"), clientToJson(it->liveness));
        a.append(o);
    }
    return a;
}

// Redis: the master that serves the semaphore ("node": "host:port") and, on a Cluster, the hash slot
// of its keys ("slot"); with --from-replicas, the node it was read on ("read_from":
// "host:port (replica)"). Consul has none of them.
void putPlacement(QJsonObject &o, const QString &node, int slot, const QString &readFrom) {
    if (!node.isEmpty())
        o.insert(QStringLiteral("node"), node);
    if (slot >= 0)
        o.insert(QStringLiteral("slot"), slot);
    if (!readFrom.isEmpty())
        o.insert(QStringLiteral("read_from"), readFrom);
}

QJsonObject snapshotToJson(const core::Snapshot &s,
                           const QHash<QString, core::HolderClientLiveness> &clients) {
    QJsonObject o;
    o.insert(QStringLiteral("kind"), core::kindName(s.ref.kind));
    o.insert(QStringLiteral("name"), s.ref.name);
    putLimit(o, s.limit);
    o.insert(QStringLiteral("limit_source"), core::limitSourceName(s.limitSource));
    o.insert(QStringLiteral("used"), static_cast<double>(s.usedCount()));
    if (!s.freeSlots.isEmpty()) {
        QJsonArray free;
        for (qint64 slot : s.freeSlots)
            free.append(static_cast<double>(slot));
        o.insert(QStringLiteral("free_slots"), free);
    }
    putOptional(o, QStringLiteral("counter"), s.counter);
    putOptional(o, QStringLiteral("version"), s.version);
    if (s.serverNowMs > 0)
        o.insert(QStringLiteral("server_now_ms"), static_cast<double>(s.serverNowMs));
    o.insert(QStringLiteral("keys"), stringsToJson(s.keys));
    putPlacement(o, s.node, s.slot, s.readFrom);
    o.insert(QStringLiteral("holders"), holdersToJson(s.holders, s.serverNowMs, clients));
    o.insert(QStringLiteral("warnings"), stringsToJson(s.warnings));
    if (!s.notes.isEmpty())
        o.insert(QStringLiteral("notes"), stringsToJson(s.notes));
    if (!s.details.isEmpty())
        o.insert(QStringLiteral("details"), QJsonObject::fromVariantMap(s.details));
    return o;
}

QJsonObject listRowToJson(const core::DiscoveredSemaphore &found,
                          const std::optional<core::Snapshot> &snapshot) {
    QJsonObject o;
    o.insert(QStringLiteral("kind"), core::kindName(found.ref.kind));
    o.insert(QStringLiteral("name"), found.ref.name);
    QStringList warnings = found.warnings;
    if (snapshot) {
        putLimit(o, snapshot->limit);
        o.insert(QStringLiteral("limit_source"), core::limitSourceName(snapshot->limitSource));
        o.insert(QStringLiteral("used"), static_cast<double>(snapshot->usedCount()));
        o.insert(QStringLiteral("waiters"),
                 static_cast<double>(snapshot->countInState(core::HolderState::Waiting)));
        o.insert(QStringLiteral("expired"),
                 static_cast<double>(snapshot->countInState(core::HolderState::ExpiredPresent)));
        putOptional(o, QStringLiteral("counter"), snapshot->counter);
        if (!snapshot->notes.isEmpty())
            o.insert(QStringLiteral("notes"), stringsToJson(snapshot->notes));
        for (const QString &w : snapshot->warnings) {
            if (!warnings.contains(w))
                warnings << w;
        }
    }
    o.insert(QStringLiteral("keys"), stringsToJson(found.keys));
    putPlacement(o, snapshot && !snapshot->node.isEmpty() ? snapshot->node : found.node,
                 snapshot && snapshot->slot >= 0 ? snapshot->slot : found.slot,
                 snapshot && !snapshot->readFrom.isEmpty() ? snapshot->readFrom : found.readFrom);
    o.insert(QStringLiteral("warnings"), stringsToJson(warnings));
    return o;
}

QJsonObject grantToJson(const core::Grant &g) {
    QJsonObject o;
    o.insert(QStringLiteral("kind"), core::kindName(g.ref.kind));
    o.insert(QStringLiteral("name"), g.ref.name);
    o.insert(QStringLiteral("holder"), g.holder);
    putOptional(o, QStringLiteral("token"), g.token);
    putOptional(o, QStringLiteral("slot"), g.slot);
    putOptional(o, QStringLiteral("rank"), g.rank);
    putOptional(o, QStringLiteral("expires_at_ms"), g.expiresAtMs);
    if (!g.details.isEmpty())
        o.insert(QStringLiteral("details"), QJsonObject::fromVariantMap(g.details));
    return o;
}

QJsonObject maintenanceToJson(const core::MaintenanceResult &result) {
    QJsonObject o;
    o.insert(QStringLiteral("ok"), result.ok);
    o.insert(QStringLiteral("affected"), static_cast<double>(result.affected));
    o.insert(QStringLiteral("message"), result.message);
    return o;
}

} // namespace semscope::cli
