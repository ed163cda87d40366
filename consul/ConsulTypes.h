#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QUrl>
#include <optional>

namespace semscope::consul {

// Flags the Go API writes on a semaphore's `.lock` and contender keys (api/semaphore.go).
inline constexpr quint64 kSemaphoreFlagValue = 0xe0f69a2baa414de0ULL; // 16210313421097356768
// Flags of a `consul lock -n 1` / api.Lock key (api/lock.go).
inline constexpr quint64 kLockFlagValue = 0x2ddccbc058a50c18ULL; // 3304740253564472344

enum class Consistency { Default, Stale, Consistent };

// Where and how to reach an agent. Mirrors what Consul's own tools read from the environment.
struct ConsulConfig {
    QUrl address = QUrl(QStringLiteral("http://127.0.0.1:8500"));
    QString token;      // X-Consul-Token
    QString datacenter; // ?dc=, empty: the agent's
    QString caFile;     // PEM bundle to verify an https agent with
    bool insecure = false;
    Consistency consistency = Consistency::Default;
    // Non-blocking requests: the whole exchange, not only silence. 30 s, or SEMSCOPE_CONSUL_TIMEOUT.
    int requestTimeoutMs = defaultRequestTimeoutMs();
    // The largest answer read; beyond it the request fails (a KV prefix or session list this big
    // is far past any semaphore).
    qint64 maxBodyBytes = 8 * 1024 * 1024;

    // CONSUL_HTTP_ADDR ("127.0.0.1:8500", "https://host:8501", "unix://" is not supported),
    // CONSUL_HTTP_TOKEN, CONSUL_HTTP_SSL, CONSUL_CACERT, CONSUL_HTTP_SSL_VERIFY. A CONSUL_HTTP_ADDR
    // that is not an HTTP address sets *addressError and leaves `address` empty, so the token
    // never goes to a default agent the operator did not name.
    static ConsulConfig fromEnvironment(QString *addressError = nullptr);
    // 30 s, or SEMSCOPE_CONSUL_TIMEOUT from the environment (a duration from 100ms to 1h, e.g.
    // "5s"), read once; a bad value is said once as a warning and 30 s is used.
    static int defaultRequestTimeoutMs();
    // Accepts "host:port" as well as full URLs; nullopt with *error for anything else (the text is
    // quoted without any user info, which may hold a password).
    static std::optional<QUrl> parseAddress(const QString &text, bool https, QString *error);
};

struct QueryMeta {
    quint64 index = 0;
    bool knownLeader = true;
    qint64 lastContactMs = 0;
};

// The raw outcome of one HTTP exchange.
struct HttpResult {
    int status = 0; // 0: no HTTP response (connection failed, aborted, timed out)
    QByteArray body;
    QList<QPair<QByteArray, QByteArray>> headers; // as received
    QueryMeta meta;
    QString
        error; // empty on 2xx; else one line ("connection refused", "Unexpected response code: 500 (...)")
    bool aborted = false;
    // Whether the agent was heard: it sent a complete HTTP answer within the deadline and the size
    // limit, to this origin, and (for the typed calls) a body of the promised shape. A well-formed
    // 4xx/5xx is heard (the agent refused); anything else that failed was not, whatever status it
    // carried. This is what tells "the agent said no" from "the agent could not be asked".
    bool heard = false;

    bool ok() const { return error.isEmpty(); }
    QByteArray header(const QByteArray &name) const;
};

struct KvEntry {
    QString key;
    QByteArray value;
    bool hasValue = false; // "Value": null when false
    quint64 flags = 0;
    QString session;
    quint64 lockIndex = 0;
    quint64 createIndex = 0;
    quint64 modifyIndex = 0;
};

struct SessionInfo {
    QString id;
    QString name;
    QString node;
    qint64 lockDelayNs = 0;
    QString behavior;
    QString ttl;
    QStringList nodeChecks;
    QStringList serviceChecks;
    quint64 createIndex = 0;
    quint64 modifyIndex = 0;

    std::optional<qint64> ttlMs() const;
};

// Parses a KV listing ("[{...}]"); Flags and indices are read exactly (see RawJson).
std::optional<QList<KvEntry>> parseKvEntries(const QByteArray &body, QString *error);
std::optional<QList<SessionInfo>> parseSessions(const QByteArray &body, QString *error);
std::optional<KvEntry> kvEntryFromJson(const class RawJson &v, QString *error);

} // namespace semscope::consul
