#include "StoreFromOptions.h"

#include "ConsulOptions.h"
#include "RedisOptions.h"
#include "core/audit/AuditedSemaphoreStore.h"
#include "redis/RedisSemaphoreStore.h"

#include <QPointer>

namespace semscope::cli {

namespace {

std::unique_ptr<core::SemaphoreStore> makeStore(CliContext &ctx, QString *error, StoreReconnect reconnect) {
    const bool redis = ctx.isSet(QStringLiteral("redis"));
    const bool consul = ctx.isSet(QStringLiteral("consul"));
    if (redis && consul) {
        *error = QStringLiteral("give either --redis or --consul, not both");
        return nullptr;
    }
    if (consul || (!redis && qEnvironmentVariableIsSet("CONSUL_HTTP_ADDR")))
        return openConsulStore(ctx, error); // --consul URL, or CONSUL_HTTP_ADDR as Consul's tools read it
    if (!redis) {
        *error = QStringLiteral("no store given: pass --redis URL (or --consul URL)");
        return nullptr;
    }
    const std::optional<redis::ConnectionSettings> settings = redisSettingsFromOptions(ctx, error);
    if (!settings)
        return nullptr;
    redis::ConnectionSettings s = *settings;
    s.autoReconnect = reconnect == StoreReconnect::WithBackoff;
    return std::make_unique<redis::RedisSemaphoreStore>(s);
}

} // namespace

std::unique_ptr<core::SemaphoreStore> openStore(CliContext &ctx, QString *error, StoreAudit audit,
                                                StoreReconnect reconnect) {
    std::unique_ptr<core::SemaphoreStore> store = makeStore(ctx, error, reconnect);
    if (!store)
        return store;
    ctx.watchConnection(*store);
    if (audit == StoreAudit::NotAudited)
        return store;
    const QString endpoint = store->endpoint();
    auto audited =
        std::make_unique<core::AuditedSemaphoreStore>(std::move(store), &ctx.auditLog(), endpoint, QString());
    QObject::connect(audited.get(), &core::AuditedSemaphoreStore::auditFailed,
                     [&ctx](const QString &why) { ctx.warnAuditNotWritten(why); });
    return audited;
}

namespace {

// --from-replicas means something on a Cluster only: elsewhere one line says it was ignored (once
// the mode is known), then the command goes on against the master as usual.
void noteReplicaOption(CliContext &ctx, redis::RedisSemaphoreStore &store, std::function<void()> ready) {
    redis::topology::RedisTopology &topology = store.topology();
    if (!topology.settings().discoverFromReplicas) {
        ready();
        return;
    }
    const QString endpoint = store.endpoint();
    if (topology.settings().usesSentinel()) {
        ctx.err() << QStringLiteral(
                         "semscope-cli: note: --from-replicas applies to a Redis Cluster only; %1 is a "
                         "Sentinel group: reading its master\n")
                         .arg(endpoint);
        ready();
        return;
    }
    QPointer<redis::topology::RedisTopology> guard(&topology);
    topology.detect([&ctx, guard, endpoint, ready](const QString &) {
        if (!guard)
            return;
        if (guard->mode() != redis::topology::RedisTopology::Mode::Cluster)
            ctx.err() << QStringLiteral(
                             "semscope-cli: note: --from-replicas applies to a Redis Cluster only; %1 is "
                             "a standalone server: reading it\n")
                             .arg(endpoint);
        ready();
    });
}

} // namespace

void whenReachable(CliContext &ctx, core::SemaphoreStore &store, std::function<void()> ready) {
    core::SemaphoreStore *backendStore = &store;
    if (auto *audited = qobject_cast<core::AuditedSemaphoreStore *>(&store))
        backendStore = &audited->inner();
    auto *redisStore = qobject_cast<redis::RedisSemaphoreStore *>(backendStore);
    if (!redisStore) {
        ready();
        return;
    }
    ready = [&ctx, redisStore, ready = std::move(ready)] { noteReplicaOption(ctx, *redisStore, ready); };
    redis::RedisConnection &conn = redisStore->connection();
    if (conn.state() == redis::RedisConnection::State::Connected) {
        ready();
        return;
    }
    // One of the two signals comes first; the other is then ignored.
    auto settled = std::make_shared<bool>(false);
    const QString endpoint = store.endpoint();
    QObject::connect(&conn, &redis::RedisConnection::connected, &conn, [settled, ready] {
        if (*settled)
            return;
        *settled = true;
        ready();
    });
    QObject::connect(&conn, &redis::RedisConnection::connectionLost, &conn,
                     [settled, &ctx, endpoint, &conn](const QString &reason) {
                         // Through Sentinel a connection reconnects although the command line's
                         // connections do not: the sentinels are asked again (a failover, a node
                         // that was not the master); the next outcome settles it. A store that
                         // reconnects anyway (watch, serve) still ends on a first connect that fails.
                         const bool throughSentinel = !conn.settings().sentinels.isEmpty();
                         if (*settled ||
                             (throughSentinel && conn.state() == redis::RedisConnection::State::Reconnecting))
                             return;
                         *settled = true;
                         QString why = reason;
                         if (why.startsWith(endpoint + QStringLiteral(": ")))
                             why = why.mid(endpoint.size() + 2); // the line names the endpoint already
                         ctx.fail(ExitUsage, endpoint, QStringLiteral("cannot connect: ") + why);
                     });
}

} // namespace semscope::cli
