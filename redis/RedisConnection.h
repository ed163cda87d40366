#pragma once

#include "ConnectionSettings.h"
#include "LuaScript.h"
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
// Sentinel and Cluster fit on top of this class: a router owns several RedisConnection objects
// (one per node), and MOVED/ASK replies are plain Error replies it can inspect and resend.
class RedisConnection : public QObject
{
    Q_OBJECT
public:
    enum class State { Disconnected, Connecting, Connected, Reconnecting };
    Q_ENUM(State)

    using ReplyCallback = std::function<void(const RedisReply &)>;

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

    void command(const QList<QByteArray> &args, ReplyCallback callback);
    // Several commands written in one go; the callback gets the replies in order.
    void pipeline(const QList<QList<QByteArray>> &commands, std::function<void(const QList<RedisReply> &)> callback);
    // EVALSHA, and on NOSCRIPT the same call as EVAL (which also caches the script on the server).
    void eval(const LuaScript &script, const QList<QByteArray> &keys, const QList<QByteArray> &args,
              ReplyCallback callback);

    int pendingCount() const;

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
    // Warnings that are not errors, e.g. "TLS certificate verification is disabled".
    void warning(const QString &message);

private:
    class Private;
    std::unique_ptr<Private> d;
    ConnectionSettings m_settingsCopy;
};

} // namespace semscope::redis
