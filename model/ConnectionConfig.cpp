#include "ConnectionConfig.h"

#include "core/Redaction.h"
#include "redis/ConnectionSettings.h"

#include <QSettings>
#include <QUrl>
#include <QUuid>

namespace semscope::model {

QString environmentName(Environment env) {
    switch (env) {
    case Environment::Development:
        return QStringLiteral("development");
    case Environment::Staging:
        return QStringLiteral("staging");
    case Environment::Production:
        return QStringLiteral("production");
    }
    return QStringLiteral("development");
}

Environment environmentFromName(const QString &name) {
    const QString n = name.trimmed().toLower();
    if (n == QLatin1String("production") || n == QLatin1String("prod"))
        return Environment::Production;
    if (n == QLatin1String("staging"))
        return Environment::Staging;
    return Environment::Development;
}

ConnectionConfig ConnectionConfig::create(core::Backend backend) {
    ConnectionConfig c;
    c.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    c.backend = backend;
    if (backend == core::Backend::Consul)
        c.discoverMatch.clear(); // whole KV store
    return c;
}

std::optional<redis::ConnectionSettings> ConnectionConfig::redisSettings(QString *error) const {
    redis::ConnectionSettings s;
    if (!url.trimmed().isEmpty()) {
        auto parsed = redis::ConnectionSettings::fromUrl(url.trimmed(), error);
        if (!parsed)
            return std::nullopt;
        s = *parsed;
    } else if (!socketPath.isEmpty()) {
        s.transport = redis::ConnectionSettings::Transport::Unix;
        s.socketPath = socketPath;
    } else {
        s.transport =
            tls ? redis::ConnectionSettings::Transport::Tls : redis::ConnectionSettings::Transport::Tcp;
        s.host = host;
        s.port = port;
    }
    if (url.trimmed().isEmpty())
        s.db = db;
    if (!user.isEmpty())
        s.user = user;
    if (hasSecret && !secret.isEmpty())
        s.password = secret;
    // The dialog's Sentinel password wins over SEMSCOPE_SENTINEL_AUTH (which fromUrl consulted).
    if (s.usesSentinel() && hasSentinelSecret && !sentinelSecret.isEmpty())
        s.sentinelPassword = sentinelSecret;
    s.discoverFromReplicas = discoverFromReplicas;
    if (tls || s.transport == redis::ConnectionSettings::Transport::Tls) {
        if (s.transport == redis::ConnectionSettings::Transport::Tcp)
            s.transport = redis::ConnectionSettings::Transport::Tls;
        s.caFile = caFile;
        s.certFile = certFile;
        s.keyFile = keyFile;
        s.tlsInsecure = tlsInsecure;
    }
    return s;
}

bool ConnectionConfig::lacksKeptSecret() const {
    return (hasSecret && secret.isEmpty()) ||
           (usesSentinel() && hasSentinelSecret && sentinelSecret.isEmpty());
}

bool ConnectionConfig::usesSentinel() const {
    if (backend != core::Backend::Redis)
        return false;
    const QString u = url.trimmed();
    return u.startsWith(QLatin1String("redis+sentinel://"), Qt::CaseInsensitive) ||
           u.startsWith(QLatin1String("rediss+sentinel://"), Qt::CaseInsensitive);
}

QString ConnectionConfig::sentinelSecretKey(const QString &connectionId) {
    return connectionId + QStringLiteral("/sentinel");
}

QString ConnectionConfig::endpoint() const {
    if (backend == core::Backend::Consul)
        return address;
    QString error;
    auto s = redisSettings(&error);
    if (!s)
        return url;
    return s->endpoint();
}

QString ConnectionConfig::auditLabel() const {
    return name.isEmpty() ? endpoint() : QStringLiteral("%1 (%2)").arg(name, endpoint());
}

namespace {

// The URL without its password: stripped when it parses, else masked (it may still carry one).
QString urlWithoutPassword(const QString &text) {
    const QUrl parsed(text.trimmed(), QUrl::StrictMode);
    if (parsed.isValid() && !parsed.scheme().isEmpty())
        return parsed.toString(QUrl::RemovePassword);
    return core::redactedUrl(text);
}

} // namespace

void ConnectionConfig::takeSecretFromUrl() {
    const QUrl parsed(url.trimmed(), QUrl::StrictMode);
    if (!parsed.isValid() || parsed.password().isEmpty()) {
        url = urlWithoutPassword(url);
        return;
    }
    if (secret.isEmpty())
        secret = parsed.password(QUrl::FullyDecoded);
    hasSecret = true;
    if (user.isEmpty())
        user = parsed.userName(QUrl::FullyDecoded);
    url = parsed.toString(QUrl::RemovePassword);
}

bool ConnectionConfig::pin(const core::SemaphoreRef &ref) {
    for (const core::SemaphoreRef &p : std::as_const(pinned)) {
        if (p.kind == ref.kind && p.name == ref.name)
            return false;
    }
    core::SemaphoreRef bare;
    bare.kind = ref.kind;
    bare.name = ref.name; // limits and timeouts belong to the profile store, not here
    pinned << bare;
    return true;
}

namespace {

// "lock:invoice-run": the kind's name (which never holds a colon), then the key's name as typed.
QStringList pinnedToStrings(const QList<core::SemaphoreRef> &refs) {
    QStringList out;
    for (const core::SemaphoreRef &r : refs)
        out << core::kindName(r.kind) + QLatin1Char(':') + r.name;
    return out;
}

QList<core::SemaphoreRef> pinnedFromStrings(const QStringList &list) {
    QList<core::SemaphoreRef> out;
    for (const QString &s : list) {
        const qsizetype colon = s.indexOf(QLatin1Char(':'));
        const auto kind = colon > 0 ? core::kindFromName(s.left(colon)) : std::nullopt;
        if (!kind || colon + 1 >= s.size())
            continue; // a hand-edited entry that names no kind is ignored, not guessed at
        core::SemaphoreRef ref;
        ref.kind = *kind;
        ref.name = s.mid(colon + 1);
        out << ref;
    }
    return out;
}

} // namespace

void ConnectionConfig::save(QSettings &settings) const {
    settings.setValue(QStringLiteral("id"), id);
    settings.setValue(QStringLiteral("name"), name);
    settings.setValue(QStringLiteral("backend"),
                      backend == core::Backend::Consul ? QStringLiteral("consul") : QStringLiteral("redis"));
    settings.setValue(QStringLiteral("environment"), environmentName(environment));
    settings.setValue(QStringLiteral("readOnly"), readOnly);
    settings.setValue(QStringLiteral("discoverMatch"), discoverMatch);
    settings.setValue(QStringLiteral("pinned"), pinnedToStrings(pinned));
    settings.setValue(QStringLiteral("url"), urlWithoutPassword(url));
    settings.setValue(QStringLiteral("host"), host);
    settings.setValue(QStringLiteral("port"), port);
    settings.setValue(QStringLiteral("socketPath"), socketPath);
    settings.setValue(QStringLiteral("db"), db);
    settings.setValue(QStringLiteral("user"), user);
    settings.setValue(QStringLiteral("tls"), tls);
    settings.setValue(QStringLiteral("caFile"), caFile);
    settings.setValue(QStringLiteral("certFile"), certFile);
    settings.setValue(QStringLiteral("keyFile"), keyFile);
    settings.setValue(QStringLiteral("tlsInsecure"), tlsInsecure);
    settings.setValue(QStringLiteral("discoverFromReplicas"), discoverFromReplicas);
    settings.setValue(QStringLiteral("address"), address);
    settings.setValue(QStringLiteral("datacenter"), datacenter);
    settings.setValue(QStringLiteral("hasSecret"), hasSecret);
    settings.setValue(QStringLiteral("hasSentinelSecret"), hasSentinelSecret);
}

ConnectionConfig ConnectionConfig::load(const QSettings &settings) {
    ConnectionConfig c;
    c.id = settings.value(QStringLiteral("id")).toString();
    c.name = settings.value(QStringLiteral("name")).toString();
    c.backend = settings.value(QStringLiteral("backend")).toString() == QLatin1String("consul")
                    ? core::Backend::Consul
                    : core::Backend::Redis;
    c.environment = environmentFromName(settings.value(QStringLiteral("environment")).toString());
    c.readOnly = settings.value(QStringLiteral("readOnly"), false).toBool();
    c.discoverMatch = settings.value(QStringLiteral("discoverMatch"), c.discoverMatch).toString();
    c.pinned = pinnedFromStrings(settings.value(QStringLiteral("pinned")).toStringList());
    c.url = settings.value(QStringLiteral("url")).toString();
    c.host = settings.value(QStringLiteral("host"), c.host).toString();
    c.port = quint16(settings.value(QStringLiteral("port"), c.port).toUInt());
    c.socketPath = settings.value(QStringLiteral("socketPath")).toString();
    c.db = settings.value(QStringLiteral("db"), 0).toInt();
    c.user = settings.value(QStringLiteral("user")).toString();
    c.tls = settings.value(QStringLiteral("tls"), false).toBool();
    c.caFile = settings.value(QStringLiteral("caFile")).toString();
    c.certFile = settings.value(QStringLiteral("certFile")).toString();
    c.keyFile = settings.value(QStringLiteral("keyFile")).toString();
    c.tlsInsecure = settings.value(QStringLiteral("tlsInsecure"), false).toBool();
    c.discoverFromReplicas = settings.value(QStringLiteral("discoverFromReplicas"), false).toBool();
    c.address = settings.value(QStringLiteral("address"), c.address).toString();
    c.datacenter = settings.value(QStringLiteral("datacenter")).toString();
    c.hasSecret = settings.value(QStringLiteral("hasSecret"), false).toBool();
    c.hasSentinelSecret = settings.value(QStringLiteral("hasSentinelSecret"), false).toBool();
    return c;
}

} // namespace semscope::model
