#pragma once

#include "core/ClientLiveness.h"
#include "core/SemaphoreTypes.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QTimer>
#include <optional>

namespace semscope::model {

class ConnectionController;

// Is each shown holder's client still there? Polls, at the page's refresh interval, the store behind
// one connection (SemaphoreStore::readClientLiveness: a Redis server's client list, a Consul
// session's node's health checks). The reads run on the connection's worker thread; the answers
// come back here as values. Remembers since when a client has been gone (from
// the first read that missed it), which no single read can say.
class ClientLivenessWatcher : public QObject {
    Q_OBJECT
public:
    explicit ClientLivenessWatcher(QObject *parent = nullptr);

    // nullptr: stops and forgets everything. A new connection starts afresh.
    void setController(ConnectionController *controller);
    // The holders on show (the last snapshot). Those whose record names no client get no answer.
    void setHolders(const QList<core::Holder> &holders);
    void setIntervalMs(int ms);
    int intervalMs() const { return m_timer.interval(); }
    void start(); // polls now and then every interval
    void stop();
    void pollNow();

    // The latest answer for a holder; nullopt when its record names no client (or nothing read yet).
    std::optional<core::ClientLiveness> livenessOf(const QString &holderId) const;
    int readsCompleted() const { return m_reads; }

Q_SIGNALS:
    // An answer changed (or first arrived); read the new ones with livenessOf().
    void livenessChanged();

private:
    // Applies a fresh answer for identity `key`, remembering when it was first seen gone.
    core::ClientLiveness remember(const QString &key, core::ClientLiveness l, qint64 nowMs);
    void publish(QHash<QString, core::ClientLiveness> byHolder);

    QPointer<ConnectionController> m_controller;
    QTimer m_timer;
    QList<core::Holder> m_holders;
    QHash<QString, core::ClientLiveness> m_byHolder;
    QHash<QString, qint64> m_goneSince; // identity key -> first read (ms) that did not find it
    QSet<QString> m_seenConnected;      // identity keys found connected at some read
    QSet<QString> m_goneAtFirstLook;    // identity keys gone at the first read that asked
    quint64 m_generation = 0;           // answers of an older connection are dropped
    bool m_inFlight = false;
    int m_reads = 0;
};

} // namespace semscope::model
