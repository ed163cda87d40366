#pragma once

#include "redis/ConnectionSettings.h"
#include "redis/topology/SentinelResolver.h"

#include <QObject>
#include <QTimer>
#include <memory>

namespace semscope::redis {

// How a RedisConnection through Sentinel follows its master (RedisConnection.h tells the rules):
// before each attempt it asks the sentinels where the master is; a failover the sentinels start
// ends the connection and holds every attempt back until they announce the new master (or give the
// failover up, or kFailoverHoldMs pass); an announced switch ends the connection to the old master
// at once and starts the next attempt without backoff; a node that turns out not to be the master
// (ROLE in the handshake, a READONLY reply later) makes it ask the sentinels again.
//
// The connection keeps its state machine; the follower drives it through Link.
class SentinelFollower : public QObject {
    Q_OBJECT
public:
    // What the follower needs of its connection.
    class Link {
    public:
        virtual ~Link() = default;
        virtual bool isDisconnected() const = 0;
        virtual bool isReconnecting() const = 0;
        virtual bool isReady() const = 0;          // connected and the handshake done
        virtual bool attemptScheduled() const = 0; // a reconnect waits for its backoff
        // Cancels a scheduled attempt and starts one now, with the backoff reset.
        virtual void attemptNow() = 0;
        // Ends the connection or attempt; it reconnects only if its settings say so.
        virtual void endConnection(const QString &reason) = 0;
        // Ends it to follow the sentinels: commands not written yet wait for the next attempt,
        // which follows also without autoReconnect.
        virtual void followSwitch(const QString &reason) = 0;
        // Connects the socket to the master the sentinels named.
        virtual void connectTo(const SentinelResolver::Result &named) = 0;
        virtual QString currentNode() const = 0; // "host:port" of the current attempt
        // Bumped whenever the connection ends: a late answer for an earlier one is dropped.
        virtual quint64 generation() const = 0;
        // False once the connection is destroyed (a callback of a failed command may delete it).
        virtual std::shared_ptr<bool> aliveGuard() const = 0;
    };

    SentinelFollower(const ConnectionSettings &settings, Link &link, QObject *parent = nullptr);
    ~SentinelFollower() override;

    // Listen to the sentinels' announcements (open()) or stop, dropping any hold (close()).
    void watch();
    void stopWatching();
    // A failover is under way: no attempt until the sentinels name the new master.
    bool holding() const { return m_holding; }
    // Asks where the master is now, then connects there (the sentinels have their own short
    // timeouts; the connect timeout starts once the address is known).
    void resolveThenConnect();
    // The handshake completed: the node really is the master.
    void handshakeDone() { m_staleMasterAttempts = 0; }
    // The node the sentinels named is not the master (`reason` says how that showed).
    void onStaleMaster(const QString &reason);

Q_SIGNALS:
    // Said once per failover; see RedisConnection's signals of the same names.
    void failoverStarted();
    void failoverAborted(const QString &reason);

private:
    void onFailoverStarted();
    void onFailoverAborted(const QString &reason);
    void endHold();
    void onMasterSwitched(const SentinelResolver::Address &from, const SentinelResolver::Address &to);
    void recheckMaster();

    ConnectionSettings m_settings;
    Link &m_link;
    std::unique_ptr<SentinelResolver> m_resolver;
    SentinelResolver::Address m_master; // of the current attempt
    bool m_holding = false;
    QTimer m_holdTimer;
    int m_staleMasterAttempts = 0; // nodes in a row the sentinels named that were not a master
};

} // namespace semscope::redis
