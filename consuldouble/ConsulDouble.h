#pragma once

#include "DoubleState.h"
#include "HttpWire.h"

#include <QHostAddress>
#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QUrl>
#include <functional>
#include <memory>

class QSslConfiguration;
class QTcpServer;
class QTcpSocket;
class QTimer;

namespace semscope::consul {

// A strict stand-in for a Consul agent's HTTP API (the subset semscope uses, as
// developer.hashicorp.com/consul/api-docs describes it for /v1/kv, /v1/session and /v1/txn): KV with
// Create/Modify/LockIndex and tombstones, blocking queries, sessions with TTL x multiplier,
// behaviour release/delete, lock-delay, a serfHealth check that can be turned critical, /v1/txn with
// 409 rollbacks, and Consul's exact bodies and headers. It backs the tests, `semscope-cli sandbox
// consul` and the GUI demo. Single-threaded: it lives in the thread that created it.
class ConsulDouble : public QObject {
    Q_OBJECT
public:
    explicit ConsulDouble(QObject *parent = nullptr);
    ~ConsulDouble() override;

    bool listen(const QHostAddress &address = QHostAddress::LocalHost, quint16 port = 0);
    // Serves HTTPS with `tls` (certificate and key) instead, like an agent with `ports.https`.
    bool listenTls(const QSslConfiguration &tls, const QHostAddress &address = QHostAddress::LocalHost,
                   quint16 port = 0);
    void close();
    QUrl url() const;
    quint16 port() const;
    QString errorString() const;

    DoubleState &state() { return m_state; }
    QString datacenter() const { return m_datacenter; }
    QString nodeName() const { return m_state.nodeName(); }

    // --- behaviour knobs ---
    void setTtlMultiplier(int multiplier) { m_state.setTtlMultiplier(multiplier); }
    void setMinSessionTtlMs(qint64 ms) { m_state.setMinTtlMs(ms); }
    // Replaces the clock sessions expire by (ms, monotonic). After moving it, call checkSessionTimers().
    void setClock(std::function<qint64()> clock);
    void checkSessionTimers();
    void setSerfHealthCritical(bool critical);
    void invalidateSession(const QString &id);
    // Turns ACLs on (default policy deny): only this token may use the API. Empty turns them off.
    void setAclToken(const QString &token) { m_aclToken = token; }
    void setBlockingJitter(bool on) { m_jitter = on; }
    // Forgets tombstones: list indexes under a prefix can then go backwards, as on a real server.
    void reapTombstones() { m_state.reapTombstones(); }

    // --- fault hooks ---
    // The next `count` requests whose "METHOD path" contains `match` get `status` with `body`.
    void failRequests(int count, int status = 500, const QByteArray &body = "No cluster leader",
                      const QString &match = {});
    void setLatencyMs(int ms) { m_latencyMs = ms; }
    void setKnownLeader(bool known) { m_knownLeader = known; }
    // Closes the connection of every blocking query that is waiting now; returns how many.
    int dropBlockingQueries();
    // While on, every query that would block has its connection dropped instead.
    void setDropBlockingQueries(bool on) { m_dropBlocking = on; }

    // --- observation ---
    qint64 requestCount() const { return m_requestCount; }
    QStringList requestLog() const { return m_log; } // "GET /v1/kv/x?recurse" (last 10,000)
    void clearRequestLog() { m_log.clear(); }
    int openBlockingQueries() const;
    qint64 blockingTimeouts() const { return m_blockingTimeouts; }

Q_SIGNALS:
    void requestHandled(const QString &method, const QString &target, int status);
    void blockingQueryParked(const QString &target);

private:
    struct Connection;
    struct Parked;
    struct BlockSpec {
        quint64 minIndex = 0;
        qint64 waitMs = 0;
        std::function<quint64()> watch;
    };
    struct Reply {
        HttpResponse response;
        std::optional<BlockSpec> block;
    };

    void onNewConnection();
    void onReadyRead(QTcpSocket *socket);
    void processNext(QTcpSocket *socket);
    void send(QTcpSocket *socket, const HttpRequest &req, const HttpResponse &response);
    void afterSend(QTcpSocket *socket);
    void wakeParked();
    void finishParked(const std::shared_ptr<Parked> &p, bool timedOut);
    void scheduleSessionTimer();

    Reply route(const HttpRequest &req, bool mayBlock);
    Reply handleKv(const HttpRequest &req, const QString &key, bool mayBlock);
    Reply handleKvGet(const HttpRequest &req, const QString &key, bool mayBlock);
    Reply handleKvPut(const HttpRequest &req, const QString &key);
    Reply handleKvDelete(const HttpRequest &req, const QString &key);
    Reply handleSession(const HttpRequest &req, const QString &rest, bool mayBlock);
    Reply handleSessionCreate(const HttpRequest &req);
    Reply handleTxn(const HttpRequest &req);
    Reply handleOther(const HttpRequest &req, bool *handled);

    Reply text(int status, const QByteArray &body) const;
    Reply json(const HttpRequest &req, const QByteArray &compact, int status = 200) const;
    void addQueryMeta(const HttpRequest &req, HttpResponse &r, quint64 index) const;
    // Parses index/wait; returns an error reply when they are malformed.
    std::optional<Reply> blockingParams(const HttpRequest &req, quint64 *index, qint64 *waitMs) const;
    std::optional<Reply> maybeBlock(const HttpRequest &req, bool mayBlock, quint64 reported,
                                    std::function<quint64()> watch, Reply &&reply) const;
    QByteArray sessionJson(const DoubleState::Session &s) const;
    QByteArray sessionListJson(const QList<DoubleState::Session> &list) const;

    DoubleState m_state;
    QTcpServer *m_server = nullptr;
    bool m_tls = false;
    QTimer *m_sessionTimer = nullptr;
    QString m_datacenter = QStringLiteral("dc1");
    QString m_aclToken;
    bool m_knownLeader = true;
    bool m_jitter = false;
    bool m_dropBlocking = false;
    int m_latencyMs = 0;
    struct FaultRule {
        int remaining = 0;
        int status = 500;
        QByteArray body;
        QString match;
    };
    QList<FaultRule> m_faults;
    qint64 m_requestCount = 0;
    qint64 m_blockingTimeouts = 0;
    QStringList m_log;
    QHash<QTcpSocket *, std::shared_ptr<Connection>> m_connections;
    QList<std::shared_ptr<Parked>> m_parked;
};

// KV entry as Consul renders it: {"LockIndex","Key","Flags","Value","Session"?,"CreateIndex","ModifyIndex"}.
QByteArray kvEntryJson(const DoubleState::KvEntry &e);

} // namespace semscope::consul
