#pragma once

#include "ConnectionSettings.h"
#include "LuaScript.h"
#include "RedisCommands.h"
#include "RedisReply.h"

#include <QList>
#include <QObject>
#include <functional>
#include <memory>

namespace semscope::redis {

// One connection to one Redis server, driven by the Qt event loop of the thread that owns it.
// Commands are pipelined: any number may be in flight, replies are matched in order. Callbacks run
// on the owning thread. When the connection drops, every pending callback fires once with a
// TransportError at once, then the connection reconnects with backoff (if autoReconnect).
//
// Cluster fits on top of this class: a router owns several RedisConnection objects (one per node),
// and MOVED/ASK replies are plain Error replies it can inspect and resend. This class stays
// single-node and does no routing.
//
// Sentinel (settings.usesSentinel()) is still one node at a time: before each attempt a
// SentinelResolver asks the sentinels where the master is, the handshake adds ROLE and refuses a
// node that is not a master, and the resolver's +switch-master subscription ends the connection at
// once when the master moves (also a READONLY reply does: the node was demoted). Commands in
// flight then fail once with that reason, never sent again (a write may have run on the old
// master), and the next attempt goes to the new master without backoff — also with autoReconnect
// off, since following the sentinels is what such a connection is for (a command-line run's
// clean-up after a failover reaches the new master). servingNodeChanged() tells each move;
// endpoint() keeps naming the group.
//
// Details callers can rely on:
// - Commands issued before the handshake is done, or while reconnecting, wait in a queue for the
//   current or next connection attempt. If that attempt fails they fail with its reason, so a
//   command never waits for more than one attempt (plus the backoff delay) or its command timeout.
//   Commands issued while Disconnected (never opened, closed, or autoReconnect off after a drop)
//   fail at once (from the event loop) with "not connected".
// - A command that sees no reply within commandTimeoutMs fails the whole connection: RESP has no
//   way to skip one reply, so every pending command gets a TransportError and it reconnects.
//   A command still waiting in the queue when its time is up fails alone.
// - Reconnects back off from 100 ms, doubling up to 5 s; a successful handshake resets the delay.
//   A rejected AUTH or SELECT counts as a failed attempt (it is retried the same way).
// - Callbacks never run inside the call that issued the command. A callback may issue new
//   commands, close() or delete the connection; each pending callback still fires exactly once.
//   Destroying the connection drops the callbacks of commands still pending without calling them
//   (call close() first to have them fail instead).
// - In pub/sub mode, arrays starting with "message"/"subscribe"/"unsubscribe" are taken as push
//   messages; hence a subscribing connection should not also carry ordinary commands.
// - connectionLost() is emitted for every failed attempt and every drop, not for close().
// - TLS with tlsInsecure emits warning() on each connect.
//
// This class keeps the state machine (attempt, handshake, connected, ended) and its wiring; each job
// it drives has its own unit in redis/connection/: Handshake (the steps and what their replies
// mean), ReplyDispatch (replies to callbacks in order, pub/sub pushes), CommandTimeouts and
// ReconnectBackoff, SentinelFollower (asking the sentinels, following failovers).
class RedisConnection : public QObject, public RedisCommands {
    Q_OBJECT
public:
    enum class State { Disconnected, Connecting, Connected, Reconnecting };
    Q_ENUM(State)

    explicit RedisConnection(ConnectionSettings settings, QObject *parent = nullptr);
    ~RedisConnection() override;

    const ConnectionSettings &settings() const { return m_settingsCopy; }
    QString endpoint() const { return m_settingsCopy.endpoint(); }
    State state() const;

    // Starts connecting (TCP/TLS/Unix, then AUTH, SELECT, CLIENT SETNAME). Commands sent before the
    // handshake completes are queued and go out right after it.
    void open();
    // Closes the connection; pending commands fail with a TransportError. No reconnect follows.
    void close();

    void command(const QList<QByteArray> &args, ReplyCallback callback) override;
    // Several commands written in one go; the callback gets the replies in order.
    void pipeline(const QList<QList<QByteArray>> &commands,
                  std::function<void(const QList<RedisReply> &)> callback) override;
    // EVALSHA, and on NOSCRIPT the same call as EVAL (which also caches the script on the server).
    void eval(const LuaScript &script, const QList<QByteArray> &keys, const QList<QByteArray> &args,
              ReplyCallback callback) override;

    int pendingCount() const;
    // "host:port" (or the socket path) of the node this connection talks to now; empty while not
    // connected. For Sentinel, the master of the moment.
    QString servingNode() const;
    // The node of the last completed handshake, also while reconnecting.
    QString lastServingNode() const;
    // Sentinel: "host:port" of the sentinel that named the master of the last attempt; empty otherwise.
    QString servingSentinel() const;

    // Puts this connection into pub/sub mode (use a dedicated connection for it): every message on
    // `channel` reaches `onMessage`. Subscriptions are renewed after a reconnect. `onSubscribed`
    // fires each time the server confirms the subscription (so a waiter can re-check state it may
    // have missed while not subscribed).
    void subscribe(const QByteArray &channel, std::function<void(const QByteArray &message)> onMessage,
                   std::function<void()> onSubscribed = {});
    void unsubscribe(const QByteArray &channel);

Q_SIGNALS:
    void stateChanged(semscope::redis::RedisConnection::State state);
    void connected();
    // The connection is gone; `reason` names the endpoint and what failed, never the password.
    void connectionLost(const QString &reason);
    void reconnectScheduled(int delayMs);
    // A handshake completed on another node than the last one: `previous` is empty on the first
    // connect; for Sentinel a change is a failover (or a switch the sentinels made).
    void servingNodeChanged(const QString &previous, const QString &current);
    // Sentinel: a sentinel chose a replica to promote; this connection ended and holds commands
    // back until servingNodeChanged() names the new master.
    void failoverStarted();
    // Sentinel: the sentinels gave that failover up (`reason`: the -failover-abort-* event); the
    // connection goes back to the master it had, at once.
    void failoverAborted(const QString &reason);
    // Warnings that are not errors, e.g. "TLS certificate verification is disabled".
    void warning(const QString &message);

private:
    class Private;
    std::unique_ptr<Private> d;
    ConnectionSettings m_settingsCopy;
};

} // namespace semscope::redis
