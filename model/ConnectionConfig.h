#pragma once

#include "core/Kind.h"
#include "core/SemaphoreTypes.h"
#include "redis/ConnectionSettings.h"

#include <QString>
#include <optional>

class QSettings;

namespace semscope::model {

// Where a connection points. The colour of its badge and the force-release confirmation depend on it.
enum class Environment { Development, Staging, Production };
QString environmentName(Environment env);
Environment environmentFromName(const QString &name);

// One saved connection as the operator entered it. The secret (Redis password or Consul token) is
// held only in memory: save() never writes it; it goes to the keyring (SecretStore) or is asked for.
struct ConnectionConfig {
    QString id; // stable key for QSettings and the keyring; made once, never shown
    QString name;
    core::Backend backend = core::Backend::Redis;
    Environment environment = Environment::Development;
    bool readOnly = false;
    QString discoverMatch = QStringLiteral("*"); // SCAN MATCH glob (Redis) or KV prefix (Consul)
    // Keys the operator opened by name (File → Open key…) with the kind they confirmed: listed on
    // every scan whatever their name says, also while they do not exist (a lock between holders).
    QList<core::SemaphoreRef> pinned;
    // Adds `ref` (kind and name) unless it is pinned already; false when it was.
    bool pin(const core::SemaphoreRef &ref);

    // Redis. A non-empty url wins over host/port/socket.
    QString url;
    QString host = QStringLiteral("127.0.0.1");
    quint16 port = 6379;
    QString socketPath;
    int db = 0;
    QString user;
    bool tls = false;
    QString caFile;
    QString certFile;
    QString keyFile;
    bool tlsInsecure = false;
    // Cluster: discovery reads each master's replicas (READONLY) to spare the masters.
    bool discoverFromReplicas = false;

    // Consul
    QString address = QStringLiteral("http://127.0.0.1:8500");
    QString datacenter;

    // True when the connection needs a password/token. The value itself is `secret`.
    bool hasSecret = false;
    QString secret; // never persisted by save()
    // Sentinel (redis+sentinel:// URL): the sentinels' own password, apart from the data nodes'.
    // Kept like `secret`: in the keyring under sentinelSecretKey(id), never in the settings file.
    bool hasSentinelSecret = false;
    QString sentinelSecret; // never persisted by save()

    static ConnectionConfig create(core::Backend backend);
    // The connection needs a password, token or Sentinel password that this copy does not carry:
    // it is kept in the SecretStore (the registry's copies never carry them).
    bool lacksKeptSecret() const;
    bool isProduction() const { return environment == Environment::Production; }
    // A Redis connection through sentinels (redis+sentinel:// or rediss+sentinel:// URL).
    bool usesSentinel() const;
    // The keyring entry of the Sentinel password: the connection's id with a suffix, so removing a
    // connection can remove both and neither can be mistaken for the other.
    static QString sentinelSecretKey(const QString &connectionId);

    // "redis://10.0.0.5:6379/0", "unix:///run/redis.sock", "http://127.0.0.1:8500": safe to show.
    QString endpoint() const;
    // "payments (redis://10.0.0.5:6379/0)", or the endpoint alone for an unnamed connection: how the
    // audit log names a connection.
    QString auditLabel() const;
    // Redis transport settings including the in-memory secret. nullopt (and *error) for a bad URL.
    std::optional<redis::ConnectionSettings> redisSettings(QString *error = nullptr) const;

    // A password typed into the URL (redis://user:pw@host) moved to `secret` (and the user name to
    // `user` when none is set), leaving the URL without it: what the dialog hands over is saved
    // with the secret in the keyring, never in the settings file.
    void takeSecretFromUrl();

    // Into the current group. Never a secret: not `secret`, and not a password left in the URL
    // (stripped, or "***" in a URL that cannot be parsed).
    void save(QSettings &settings) const;
    static ConnectionConfig load(const QSettings &settings);
};

} // namespace semscope::model
