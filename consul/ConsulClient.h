#pragma once

#include "ConsulTypes.h"
#include "core/SemaphoreStore.h"

#include <QHash>
#include <QObject>
#include <QUrlQuery>
#include <functional>

class QNetworkAccessManager;
class QNetworkReply;

namespace semscope::consul {

// Asynchronous client for the parts of Consul's HTTP API semscope uses. Every call returns at once
// with an id (for abort()) and calls back later on this object's thread. HTTP errors, transport
// errors and malformed bodies all arrive as a filled `error` string, never as an exception.
// Every request is bounded (BoundedReply): a total deadline (requestTimeoutMs, or a blocking
// query's wait plus its jitter and a margin), an answer of at most maxBodyBytes, and redirects
// followed only to the same origin, so the ACL token never leaves the configured agent.
class ConsulClient : public QObject {
    Q_OBJECT
public:
    using RequestId = quint64;

    // Read options shared by every GET; index > 0 makes it a blocking query.
    struct ReadOptions {
        quint64 index = 0;
        qint64 waitMs = 0;                      // 0: the server default (5 min)
        std::optional<Consistency> consistency; // default: the client's configured mode
    };
    struct KvGetOptions : ReadOptions {
        bool recurse = false;
    };
    struct KvPutOptions {
        std::optional<quint64> flags;
        std::optional<quint64> cas;
        QString acquire;
        QString release;
    };
    struct KvDeleteOptions {
        std::optional<quint64> cas;
        bool recurse = false;
    };
    struct SessionRequest {
        QString name;
        QString ttl;      // Go duration, "15s"; empty: no TTL
        QString behavior; // "release" | "delete"; empty: server default
        std::optional<QString> lockDelay;
        std::optional<QString> node;
        std::optional<QStringList> nodeChecks;
    };
    struct TxnOp {
        QString verb;
        QString key;
        std::optional<QByteArray> value;
        std::optional<quint64> flags;
        std::optional<quint64> index;
        QString session;
    };

    struct KvResult {
        HttpResult http;
        bool found = false; // false on 404
        QList<KvEntry> entries;
    };
    struct KeysResult {
        HttpResult http;
        QStringList keys;
    };
    struct BoolResult {
        HttpResult http;
        bool value = false;
    };
    struct SessionsResult {
        HttpResult http;
        bool found = true; // renew: false on 404
        QList<SessionInfo> sessions;
    };
    struct CreateSessionResult {
        HttpResult http;
        QString id;
    };
    struct TxnResult {
        HttpResult http;
        bool committed = false;
        bool rolledBack = false; // 409
        QList<KvEntry> results;
        QList<QPair<int, QString>> errors; // OpIndex, What
    };

    explicit ConsulClient(ConsulConfig config, QObject *parent = nullptr);
    ~ConsulClient() override;

    const ConsulConfig &config() const { return m_config; }
    QString endpoint() const; // base URL without credentials

    RequestId kvGet(const QString &key, const KvGetOptions &opts, core::Callback<KvResult> done);
    RequestId kvKeys(const QString &prefix, const QString &separator, const ReadOptions &opts,
                     core::Callback<KeysResult> done);
    RequestId kvGetRaw(const QString &key, core::Callback<HttpResult> done);
    RequestId kvPut(const QString &key, const QByteArray &value, const KvPutOptions &opts,
                    core::Callback<BoolResult> done);
    RequestId kvDelete(const QString &key, const KvDeleteOptions &opts, core::Callback<BoolResult> done);

    RequestId sessionCreate(const SessionRequest &request, core::Callback<CreateSessionResult> done);
    RequestId sessionDestroy(const QString &id, core::Callback<BoolResult> done);
    RequestId sessionRenew(const QString &id, core::Callback<SessionsResult> done);
    RequestId sessionInfo(const QString &id, const ReadOptions &opts, core::Callback<SessionsResult> done);
    RequestId sessionList(const ReadOptions &opts, core::Callback<SessionsResult> done);
    RequestId sessionNode(const QString &node, const ReadOptions &opts, core::Callback<SessionsResult> done);

    RequestId txn(const QList<TxnOp> &ops, core::Callback<TxnResult> done);

    // Any request, for diagnostics and tests: path like "/v1/kv/x", query without '?'.
    RequestId request(const QByteArray &method, const QString &path, const QString &query,
                      const QByteArray &body, core::Callback<HttpResult> done, qint64 timeoutMs = -1);

    // Cancels a request; its callback still runs once, with `aborted` set.
    void abort(RequestId id);
    // A caller's own deadline passed with a request unanswered (acquire --wait): the agent was not
    // heard in time, as when a request's deadline passes (reachabilityChanged). Abort it after.
    void noteUnanswered(const QString &why);
    int pendingRequests() const { return int(m_pending.size()); }

    // Blocking-query index bookkeeping (developer.hashicorp.com/consul/api-docs/features/blocking,
    // "Implementation details"): an index that goes backwards means the server's data was reset, so
    // start again from 0 (a non-blocking read).
    static quint64 nextWaitIndex(quint64 previous, quint64 returned);

Q_SIGNALS:
    // The agent was heard (HttpResult::heard: a complete, well-formed answer of any HTTP status)
    // after not being heard, or stopped being heard: no HTTP response (refused, reset), no complete
    // answer in time, an answer larger than maxBodyBytes, cut off or malformed, a redirect elsewhere.
    // Emitted before the request's callback runs, so a caller can tell "the agent said no" from
    // "the agent could not be asked" (Redis fails its connection on the same grounds).
    void reachabilityChanged(bool reachable, const QString &why);

private:
    struct Pending;
    // request() without the reachability report: the typed calls report once they have read the body.
    RequestId send(const QByteArray &method, const QString &path, const QString &query,
                   const QByteArray &body, core::Callback<HttpResult> done, qint64 timeoutMs = -1);
    // Emits reachabilityChanged() when `r` changes whether the agent is heard.
    void noteHeard(const HttpResult &r);
    // A body that does not have the shape the call promises: the agent was not heard.
    static void malformed(HttpResult &http, const QString &why);
    core::Callback<HttpResult> boolReply(core::Callback<BoolResult> done);
    core::Callback<HttpResult> sessionsReply(core::Callback<SessionsResult> done);
    QString readQuery(const ReadOptions &opts, QString query) const;
    QNetworkAccessManager *takeManager(bool blocking);
    void releaseManager(QNetworkAccessManager *nam, bool blocking);
    void onFinished(QNetworkReply *reply);

    ConsulConfig m_config;
    std::optional<bool> m_reachable;
    QNetworkAccessManager *m_nam;
    QList<QNetworkAccessManager *>
        m_idleBlocking; // each blocking query gets its own manager (6-per-host cap)
    RequestId m_nextId = 1;
    QHash<RequestId, QNetworkReply *> m_pending;
};

// "key" -> "key" percent-encoded for a URL path, keeping '/'.
QString encodeKeyPath(const QString &key);

} // namespace semscope::consul
