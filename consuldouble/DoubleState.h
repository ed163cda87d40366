#pragma once

#include "consul/GoDuration.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>
#include <functional>
#include <optional>

namespace semscope::consul {

// The data model of the Consul API test double, without any HTTP: one Raft-like global index,
// the KV table with tombstones and lock-delays, and the sessions table. Rules follow
// Consul's state store (hashicorp/consul agent/consul/state/kvs.go, session.go, txn.go).
class DoubleState {
public:
    struct KvEntry {
        QString key;
        QByteArray value;
        bool hasValue = false; // a PUT with an empty body stores nil -> "Value":null
        quint64 flags = 0;
        QString session;
        quint64 lockIndex = 0;
        quint64 createIndex = 0;
        quint64 modifyIndex = 0;
    };

    struct ServiceCheck {
        QString id;
        QString ns;
    };

    struct Session {
        QString id;
        QString name;
        QString node;
        qint64 lockDelayNs = 15'000'000'000;
        QString behavior = QStringLiteral("release");
        QString ttl; // as given, "" for none
        qint64 ttlMs = 0;
        QStringList nodeChecks;
        QList<ServiceCheck> serviceChecks;
        quint64 createIndex = 0;
        quint64 modifyIndex = 0;
        qint64 deadlineMs = -1; // clock ms at which the TTL timer fires; -1: no TTL
    };

    struct SessionSpec {
        QString name;
        std::optional<QString> node;
        std::optional<qint64> lockDelayNs;
        QString behavior;
        QString ttl;
        std::optional<QStringList> nodeChecks;
        QList<ServiceCheck> serviceChecks;
    };

    struct TxnOp {
        QString verb;
        QString key;
        QByteArray value;
        bool hasValue = false;
        quint64 flags = 0;
        quint64 index = 0;
        QString session;
    };
    struct TxnResult {
        bool ok = false;
        QList<KvEntry> results; // entries to report ("Value" null unless hasValue)
        int errorOp = -1;
        QString what;
    };

    explicit DoubleState(QString node = QStringLiteral("semscope-double"));

    void setClock(std::function<qint64()> clock) { m_clock = std::move(clock); }
    qint64 now() const { return m_clock(); }

    quint64 index() const { return m_index; }
    quint64 kvTableIndex() const { return m_kvIndex; }
    quint64 sessionsIndex() const { return m_sessionsIndex; }
    QString nodeName() const { return m_node; }

    // --- KV ---
    const KvEntry *get(const QString &key) const;
    QList<KvEntry> list(const QString &prefix) const;
    // Index of one key for blocking (its ModifyIndex or tombstone), 0 if never seen.
    quint64 keyIndex(const QString &key) const;
    // max(ModifyIndex of entries, tombstone index) under `prefix`, 0 if there is none.
    quint64 prefixIndex(const QString &prefix) const;

    struct PutOptions {
        std::optional<quint64> flags;
        std::optional<quint64> cas;
        std::optional<QString> acquire;
        std::optional<QString> release;
    };
    // Returns true/false like the endpoint; *error set means a 500 with that text.
    bool put(const QString &key, const QByteArray &value, const PutOptions &opts, QString *error);
    bool remove(const QString &key, bool recurse, std::optional<quint64> cas);
    void reapTombstones() {
        m_tombstones.clear();
        m_tombstoneMaxByFolder.clear();
    }

    // --- sessions ---
    // Returns the new session id, or empty with *error (the 500 body).
    QString createSession(const SessionSpec &spec, QString *error);
    void destroySession(const QString &id); // invalidates exactly like expiry
    const Session *renewSession(const QString &id);
    const Session *session(const QString &id) const;
    QList<Session> sessions() const;
    QList<Session> sessionsOnNode(const QString &node) const;

    void setTtlMultiplier(int multiplier) { m_ttlMultiplier = multiplier; }
    int ttlMultiplier() const { return m_ttlMultiplier; }
    void setMinTtlMs(qint64 ms) { m_minTtlMs = ms; }
    qint64 minTtlMs() const { return m_minTtlMs; }

    bool serfHealthCritical() const { return m_serfCritical; }
    // Turning the check critical invalidates every session bound to it.
    void setSerfHealthCritical(bool critical);
    // Invalidates every session whose TTL timer has fired; returns how many.
    int expireDueSessions();
    // The earliest TTL deadline, or -1.
    qint64 nextDeadlineMs() const;

    // --- transactions (all writes share one index; any failure rolls everything back) ---
    TxnResult applyTxn(const QList<TxnOp> &ops);

private:
    quint64 nextIndex() { return ++m_index; }
    void invalidateSession(const QString &id, quint64 index);
    bool lockDelayed(const QString &key) const;
    // Single KV operation shared by the endpoint and transactions; `index` is the write index.
    bool applyPut(const QString &key, const QByteArray &value, bool hasValue, const PutOptions &opts,
                  quint64 index, QString *error, QString *txnWhat);
    bool applyDelete(const QString &key, quint64 index);

    std::function<qint64()> m_clock;
    QString m_node;
    quint64 m_index = 10; // a fresh agent has done a few writes already; never 0 or 1
    quint64 m_kvIndex = 1;
    quint64 m_sessionsIndex = 1;
    QMap<QString, KvEntry> m_kv; // sorted like Consul's radix tree
    QMap<QString, quint64> m_tombstones;
    QHash<QString, quint64> m_tombstoneMaxByFolder; // "" and every "a/", "a/b/" above a tombstone
    QHash<QString, qint64> m_lockDelayUntil;
    QMap<QString, Session> m_sessions;
    int m_ttlMultiplier = 2;
    qint64 m_minTtlMs = 10'000;
    bool m_serfCritical = false;
};

} // namespace semscope::consul
