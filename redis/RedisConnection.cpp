#include "RedisConnection.h"

#include "connection/CommandTimeouts.h"
#include "connection/Handshake.h"
#include "connection/ReconnectBackoff.h"
#include "connection/ReplyDispatch.h"
#include "connection/SentinelFollower.h"
#include "transport/Logging.h"
#include "transport/ReplyReader.h"
#include "transport/RespEncoder.h"
#include "transport/SocketTransport.h"

#include <QPointer>
#include <QTimer>
#include <deque>

namespace semscope::redis {

class RedisConnection::Private : public SentinelFollower::Link {
public:
    Private(RedisConnection *owner, ConnectionSettings s)
        : q(owner)
        , settings(std::move(s))
        , timeouts(settings.commandTimeoutMs, owner, [this]() { checkTimeouts(); }) {
        parser.setMaxReplyBytes(settings.maxReplyBytes);
        connectTimer.setSingleShot(true);
        reconnectTimer.setSingleShot(true);
        QObject::connect(&connectTimer, &QTimer::timeout, q, [this]() { failConnection(connectTimedOut()); });
        QObject::connect(&reconnectTimer, &QTimer::timeout, q, [this]() { startAttempt(); });
    }

    RedisConnection *q;
    ConnectionSettings settings;
    SocketTransport *socket = nullptr;
    ReplyReader parser;
    ReplyDispatch dispatcher;
    CommandTimeouts timeouts;
    State state = State::Disconnected;
    bool handshakeDone = false;
    int handshakeLeft = 0;
    // The socket (and TLS) is up, and the handshake is written: what fails from here on failed at
    // a server that accepted us, which tells "nothing there" from "something else there".
    bool socketReady = false;
    qint64 bytesReceived = 0; // on this connection
    QTimer connectTimer;
    QTimer reconnectTimer;
    ReconnectBackoff backoff;
    // Bumped whenever the current connection ends; code that ran callbacks compares it to know
    // whether the connection it was serving is still the same one.
    quint64 connectionGeneration = 0;
    // Shared with running dispatch loops so they notice when a callback deleted the connection.
    std::shared_ptr<bool> alive = std::make_shared<bool>(true);
    int dispatchDepth = 0;
    // Sentinel: finds the master before each attempt and follows failovers (null otherwise).
    std::unique_ptr<SentinelFollower> sentinel;
    QString servingNode;     // "host:port" of the node of the current connection
    QString lastServingNode; // of the last connection that completed its handshake
    QString servingSentinel; // Sentinel: the sentinel that named servingNode

    QString endpoint() const { return settings.endpoint(); }

    // SentinelFollower::Link
    bool isDisconnected() const override { return state == State::Disconnected; }
    bool isReconnecting() const override { return state == State::Reconnecting; }
    bool isReady() const override { return state == State::Connected && handshakeDone; }
    bool attemptScheduled() const override { return reconnectTimer.isActive(); }
    void attemptNow() override {
        reconnectTimer.stop();
        backoff.reset();
        startAttempt();
    }
    void endConnection(const QString &reason) override { failConnection(reason); }
    void followSwitch(const QString &reason) override { failConnection(reason, Ending::Switching); }
    void connectTo(const SentinelResolver::Result &named) override {
        settings.host = named.master.host;
        settings.port = named.master.port;
        servingNode = named.master.text();
        servingSentinel = named.sentinel;
        socket->setTarget(named.master.host, named.master.port);
        qCDebug(lcRedisTransport).noquote()
            << endpoint() << "master" << servingNode << "named by sentinel" << named.sentinel;
        connectSocket();
    }
    QString currentNode() const override { return servingNode; }
    quint64 generation() const override { return connectionGeneration; }
    std::shared_ptr<bool> aliveGuard() const override { return alive; }

    void setState(State s) {
        if (state == s)
            return;
        state = s;
        Q_EMIT q->stateChanged(s);
    }

    void ensureSocket() {
        if (socket)
            return;
        socket = new SocketTransport(settings, q);
        QObject::connect(socket, &SocketTransport::ready, q, [this]() { onReady(); });
        QObject::connect(socket, &SocketTransport::readyRead, q, [this]() { onReadyRead(); });
        QObject::connect(socket, &SocketTransport::failed, q,
                         [this](const QString &reason) { failConnection(reason + closedSilentlyHint()); });
        QObject::connect(socket, &SocketTransport::warning, q, [this](const QString &message) {
            qCInfo(lcRedisTransport).noquote() << endpoint() + QStringLiteral(": ") + message;
            Q_EMIT q->warning(endpoint() + QStringLiteral(": ") + message);
        });
    }

    // What the connect timeout means depends on how far the attempt got.
    QString connectTimedOut() const {
        const int ms = settings.connectTimeoutMs;
        if (socket && socket->awaitingTlsHandshake())
            return QStringLiteral("connected, but the TLS handshake got no answer within %1 ms").arg(ms);
        if (!socketReady || dispatcher.inFlight.empty())
            return QStringLiteral("connect timed out after %1 ms").arg(ms);
        return QStringLiteral("connected, but %1 got no answer within %2 ms (a Redis server busy with a long "
                              "command, or not a Redis server)")
            .arg(QString::fromUtf8(dispatcher.inFlight.front().name))
            .arg(ms);
    }

    // A server that closes a plain connection before answering a word of the handshake is, most
    // often, a TLS-only port (Redis refusing a client for its own reasons says why first).
    QString closedSilentlyHint() const {
        if (!socketReady || handshakeDone || bytesReceived > 0 || dispatcher.inFlight.empty() ||
            settings.transport != ConnectionSettings::Transport::Tcp)
            return {};
        return QStringLiteral(" before it answered %1 (a TLS port? then use rediss://)")
            .arg(QString::fromUtf8(dispatcher.inFlight.front().name));
    }

    void startAttempt() {
        parser.reset();
        handshakeDone = false;
        handshakeLeft = 0;
        socketReady = false;
        bytesReceived = 0;
        if (sentinel) {
            if (sentinel->holding())
                return; // the end of the failover starts the attempt
            sentinel->resolveThenConnect();
            return;
        }
        connectSocket();
    }

    void connectSocket() {
        qCDebug(lcRedisTransport).noquote() << "connecting to" << endpoint();
        if (settings.connectTimeoutMs > 0)
            connectTimer.start(settings.connectTimeoutMs);
        socket->connectToServer();
    }

    void onReady() {
        socketReady = true;
        // The handshake goes out in one write; queued commands only after its replies.
        const QList<HandshakeStep> steps = handshakeSteps(settings, bool(sentinel), servingNode);
        if (steps.isEmpty()) {
            finishHandshake();
            return;
        }
        handshakeLeft = int(steps.size());
        QByteArray wire;
        const quint64 gen = connectionGeneration;
        for (const HandshakeStep &step : steps) {
            wire += encodeCommand(step.args);
            PendingCommand p;
            p.name = step.name();
            p.callback = [this, gen, step](const RedisReply &reply) {
                if (reply.isTransportError() || gen != connectionGeneration)
                    return; // the connection failed; failConnection() handles it
                onHandshakeReply(judgeHandshakeReply(step, reply), gen);
            };
            dispatcher.inFlight.push_back(std::move(p));
        }
        socket->write(wire);
    }

    void onHandshakeReply(const HandshakeVerdict &verdict, quint64 gen) {
        using Outcome = HandshakeVerdict::Outcome;
        switch (verdict.outcome) {
        case Outcome::StaleMaster:
            sentinel->onStaleMaster(verdict.message);
            return;
        case Outcome::Failed:
            failConnection(verdict.message);
            return;
        case Outcome::Warned: {
            const auto guard = alive;
            Q_EMIT q->warning(endpoint() + QStringLiteral(": ") + verdict.message);
            if (!*guard || gen != connectionGeneration)
                return;
            break;
        }
        case Outcome::Passed:
            break;
        }
        if (--handshakeLeft == 0)
            finishHandshake();
    }

    void finishHandshake() {
        handshakeDone = true;
        if (sentinel)
            sentinel->handshakeDone();
        connectTimer.stop();
        backoff.reset();
        qCDebug(lcRedisTransport).noquote() << "connected to" << endpoint();
        // Write everything before telling anyone, so commands issued from the signals below queue
        // up behind the ones that waited.
        const QList<QByteArray> channels = dispatcher.channels();
        if (!channels.isEmpty()) {
            QList<QByteArray> args = {QByteArrayLiteral("SUBSCRIBE")};
            args << channels;
            socket->write(encodeCommand(args));
        }
        if (!dispatcher.queue.empty())
            socket->write(dispatcher.releaseQueue());
        timeouts.arm(dispatcher);
        const auto guard = alive;
        const QString previousNode = lastServingNode;
        lastServingNode = servingNode;
        setState(State::Connected);
        if (*guard && state == State::Connected && previousNode != servingNode)
            Q_EMIT q->servingNodeChanged(previousNode, servingNode);
        if (*guard && state == State::Connected)
            Q_EMIT q->connected();
    }

    void send(QByteArray wire, PendingCommand pending) {
        if (isReady()) {
            // Waiting before written: a TLS socket's write-through flush also reads, and may hand
            // this command's reply to onReadyRead() before write() returns.
            dispatcher.inFlight.push_back(std::move(pending));
            socket->write(wire);
        } else {
            dispatcher.queue.push_back({std::move(wire), std::move(pending)});
        }
        timeouts.arm(dispatcher);
    }

    void postReply(ReplyCallback callback, RedisReply reply) {
        if (!callback)
            return;
        QTimer::singleShot(0, q,
                           [callback = std::move(callback), reply = std::move(reply)]() { callback(reply); });
    }

    void onReadyRead() {
        const QByteArray bytes = socket->readAll();
        bytesReceived += bytes.size();
        parser.feed(bytes);
        const auto guard = alive;
        const quint64 gen = connectionGeneration;
        ++dispatchDepth;
        for (;;) {
            std::optional<RedisReply> reply = parser.next();
            if (!reply)
                break;
            dispatch(*reply);
            if (!*guard)
                return; // a callback deleted the connection; touch nothing
            if (gen != connectionGeneration) {
                --dispatchDepth;
                return; // a callback closed it, or the reply ended it; the rest belongs to the old one
            }
        }
        --dispatchDepth;
        if (parser.hasError())
            failConnection(parser.errorString());
    }

    void dispatch(const RedisReply &reply) {
        if (dispatcher.routePush(reply))
            return;
        if (dispatcher.inFlight.empty()) {
            failConnection(QStringLiteral("protocol error: a reply arrived that no command was waiting for"));
            return;
        }
        PendingCommand pending = std::move(dispatcher.inFlight.front());
        dispatcher.inFlight.pop_front();
        const quint64 gen = connectionGeneration;
        const auto guard = alive;
        if (pending.callback)
            pending.callback(reply);
        // Through Sentinel, READONLY means the node we talk to was demoted and we missed the
        // switch: that command failed with the server's words; the rest go to the new master.
        if (*guard && gen == connectionGeneration && sentinel && reply.isServerError() &&
            reply.str.startsWith("READONLY"))
            sentinel->onStaleMaster(QStringLiteral("%1 is a replica now (READONLY)").arg(servingNode));
    }

    void checkTimeouts() {
        if (timeouts.inFlightOverdue(dispatcher)) {
            failConnection(QStringLiteral("%1 timed out after %2 ms")
                               .arg(QString::fromUtf8(dispatcher.inFlight.front().name))
                               .arg(timeouts.timeoutMs()));
            return;
        }
        std::deque<PendingCommand> expired = timeouts.takeOverdueQueued(dispatcher);
        timeouts.arm(dispatcher);
        const auto guard = alive;
        if (!expired.empty())
            ++dispatchDepth;
        for (PendingCommand &p : expired) {
            if (p.callback) {
                p.callback(RedisReply::transportError(
                    QStringLiteral("%1: %2 timed out after %3 ms waiting for the connection")
                        .arg(endpoint(), QString::fromUtf8(p.name))
                        .arg(timeouts.timeoutMs())));
            }
        }
        if (!expired.empty() && *guard)
            --dispatchDepth;
    }

    // How a connection ends decides what comes next.
    enum class Ending {
        Lost,      // reconnect if the settings say so
        Closing,   // by the owner: nothing comes next
        Switching, // the sentinels announced a failover: follow it even without autoReconnect,
                   // since that is a move the owner asked for by connecting through them
    };

    // Ends the current connection or attempt: every command written fails once with `reason`, and
    // so do those waiting to be written unless the sentinels moved the master; then (unless
    // closing) a reconnect is scheduled.
    void failConnection(const QString &reason, Ending ending = Ending::Lost) {
        const bool closing = ending == Ending::Closing;
        const QString message = endpoint() + QStringLiteral(": ") + reason;
        ++connectionGeneration;
        if (socket)
            socket->abort();
        connectTimer.stop();
        timeouts.stop();
        reconnectTimer.stop();
        parser.reset();
        handshakeDone = false;
        handshakeLeft = 0;
        socketReady = false;
        std::deque<PendingCommand> failed;
        failed.swap(dispatcher.inFlight);
        // A switch to the new master keeps what was never written: it goes there, once.
        std::deque<QueuedCommand> waiting;
        if (ending != Ending::Switching)
            waiting.swap(dispatcher.queue);

        const bool reconnect = ending == Ending::Switching || (!closing && settings.autoReconnect);
        int delay = 0;
        if (reconnect) {
            delay = backoff.next();
            reconnectTimer.start(delay);
        }
        timeouts.arm(dispatcher); // for what waits in the queue
        if (closing)
            qCDebug(lcRedisTransport).noquote() << message;
        else
            qCInfo(lcRedisTransport).noquote()
                << message << (reconnect ? QStringLiteral("(retrying in %1 ms)").arg(delay) : QString());

        const auto guard = alive;
        ++dispatchDepth;
        // From here on a signal or callback may delete the connection: check the guard after each
        // one, but keep calling the callbacks we took, which no longer belong to it.
        setState(reconnect ? State::Reconnecting : State::Disconnected);
        if (*guard && !closing)
            Q_EMIT q->connectionLost(message);
        if (*guard && reconnect && reconnectTimer.isActive())
            Q_EMIT q->reconnectScheduled(delay);
        const RedisReply error = RedisReply::transportError(message);
        for (PendingCommand &p : failed) {
            if (p.callback)
                p.callback(error);
        }
        for (QueuedCommand &item : waiting) {
            if (item.pending.callback)
                item.pending.callback(error);
        }
        if (*guard)
            --dispatchDepth;
    }
};

RedisConnection::RedisConnection(ConnectionSettings settings, QObject *parent)
    : QObject(parent)
    , d(std::make_unique<Private>(this, settings))
    , m_settingsCopy(std::move(settings)) {
    if (d->settings.usesSentinel()) {
        d->sentinel = std::make_unique<SentinelFollower>(d->settings, *d);
        connect(d->sentinel.get(), &SentinelFollower::failoverStarted, this,
                &RedisConnection::failoverStarted);
        connect(d->sentinel.get(), &SentinelFollower::failoverAborted, this,
                &RedisConnection::failoverAborted);
    } else {
        d->servingNode = d->settings.nodeAddress();
    }
}

RedisConnection::~RedisConnection() {
    *d->alive = false;
    d->sentinel.reset();
    if (d->socket) {
        d->socket->disconnect(this);
        d->socket->abort();
        if (d->dispatchDepth > 0) {
            // We are inside one of the socket's own signals; let it unwind before it goes.
            d->socket->setParent(nullptr);
            d->socket->deleteLater();
        } else {
            delete d->socket;
        }
        d->socket = nullptr;
    }
}

RedisConnection::State RedisConnection::state() const {
    return d->state;
}

void RedisConnection::open() {
    if (d->state != State::Disconnected)
        return;
    d->ensureSocket();
    if (d->sentinel)
        d->sentinel->watch();
    d->backoff.reset();
    d->setState(State::Connecting);
    d->startAttempt();
}

void RedisConnection::close() {
    if (d->sentinel)
        d->sentinel->stopWatching();
    if (d->state == State::Disconnected)
        return;
    d->failConnection(QStringLiteral("connection closed"), Private::Ending::Closing);
}

void RedisConnection::command(const QList<QByteArray> &args, ReplyCallback callback) {
    if (args.isEmpty()) {
        d->postReply(std::move(callback), RedisReply::error(QByteArrayLiteral("ERR empty command")));
        return;
    }
    if (d->state == State::Disconnected) {
        d->postReply(std::move(callback),
                     RedisReply::transportError(endpoint() + QStringLiteral(": not connected")));
        return;
    }
    PendingCommand pending;
    pending.callback = std::move(callback);
    pending.name = commandName(args);
    pending.deadline = d->timeouts.deadlineFromNow();
    d->send(encodeCommand(args), std::move(pending));
}

void RedisConnection::pipeline(const QList<QList<QByteArray>> &commands,
                               std::function<void(const QList<RedisReply> &)> callback) {
    struct Collector {
        QList<RedisReply> replies;
        qsizetype left = 0;
        std::function<void(const QList<RedisReply> &)> callback;
    };
    if (commands.isEmpty()) {
        if (callback)
            QTimer::singleShot(0, this, [callback = std::move(callback)]() { callback({}); });
        return;
    }
    for (const auto &args : commands) {
        if (args.isEmpty()) {
            QList<RedisReply> replies(commands.size(),
                                      RedisReply::error(QByteArrayLiteral("ERR empty command in pipeline")));
            if (callback)
                QTimer::singleShot(0, this,
                                   [callback = std::move(callback), replies]() { callback(replies); });
            return;
        }
    }
    if (d->state == State::Disconnected) {
        QList<RedisReply> replies(commands.size(),
                                  RedisReply::transportError(endpoint() + QStringLiteral(": not connected")));
        if (callback)
            QTimer::singleShot(0, this, [callback = std::move(callback), replies]() { callback(replies); });
        return;
    }
    auto collector = std::make_shared<Collector>();
    collector->replies.resize(commands.size());
    collector->left = commands.size();
    collector->callback = std::move(callback);
    QByteArray wire;
    std::deque<PendingCommand> pendings;
    const qint64 deadline = d->timeouts.deadlineFromNow();
    for (qsizetype i = 0; i < commands.size(); ++i) {
        wire += encodeCommand(commands.at(i));
        PendingCommand p;
        p.name = commandName(commands.at(i));
        p.deadline = deadline;
        p.callback = [collector, i](const RedisReply &reply) {
            collector->replies[i] = reply;
            if (--collector->left == 0 && collector->callback)
                collector->callback(collector->replies);
        };
        pendings.push_back(std::move(p));
    }
    if (d->isReady()) {
        for (PendingCommand &p : pendings)
            d->dispatcher.inFlight.push_back(std::move(p));
        d->socket->write(wire); // after: see Private::send()
    } else {
        // Queued as one write (the first entry) plus empty writes that only hold their callbacks.
        bool first = true;
        for (PendingCommand &p : pendings) {
            d->dispatcher.queue.push_back({first ? wire : QByteArray(), std::move(p)});
            first = false;
        }
    }
    d->timeouts.arm(d->dispatcher);
}

void RedisConnection::eval(const LuaScript &script, const QList<QByteArray> &keys,
                           const QList<QByteArray> &args, ReplyCallback callback) {
    if (!script.isValid()) {
        d->postReply(std::move(callback),
                     RedisReply::error(QByteArrayLiteral("ERR empty Lua script (missing resource?)")));
        return;
    }
    QList<QByteArray> tail;
    tail.reserve(1 + keys.size() + args.size());
    tail << QByteArray::number(keys.size()) << keys << args;
    QList<QByteArray> evalsha = {QByteArrayLiteral("EVALSHA"), script.sha1()};
    evalsha << tail;
    QPointer<RedisConnection> self(this);
    // Errors only are rewritten: a script's hot path hands its reply on untouched.
    auto answer = [script, callback = std::move(callback)](const RedisReply &reply) {
        if (callback)
            reply.isServerError() ? callback(script.withoutErrorPlace(reply)) : callback(reply);
    };
    command(evalsha, [self, script, tail, answer = std::move(answer)](const RedisReply &reply) {
        if (reply.isServerError() && reply.str.startsWith("NOSCRIPT") && self) {
            // EVAL runs the script and leaves it cached for the next EVALSHA.
            QList<QByteArray> evalArgs = {QByteArrayLiteral("EVAL"), script.source()};
            evalArgs << tail;
            self->command(evalArgs, answer);
            return;
        }
        answer(reply);
    });
}

QString RedisConnection::servingNode() const {
    return d->state == State::Connected ? d->servingNode : QString();
}

QString RedisConnection::lastServingNode() const {
    return d->lastServingNode;
}

QString RedisConnection::servingSentinel() const {
    return d->servingSentinel;
}

int RedisConnection::pendingCount() const {
    return int((d->handshakeDone ? d->dispatcher.inFlight.size() : 0) + d->dispatcher.queue.size());
}

void RedisConnection::subscribe(const QByteArray &channel, std::function<void(const QByteArray &)> onMessage,
                                std::function<void()> onSubscribed) {
    const bool newChannel = d->dispatcher.subscribe(channel, std::move(onMessage), std::move(onSubscribed));
    if (newChannel && d->isReady())
        d->socket->write(encodeCommand({QByteArrayLiteral("SUBSCRIBE"), channel}));
    // Otherwise the handshake subscribes to everything in `subscriptions`.
}

void RedisConnection::unsubscribe(const QByteArray &channel) {
    if (!d->dispatcher.unsubscribe(channel))
        return;
    if (d->isReady())
        d->socket->write(encodeCommand({QByteArrayLiteral("UNSUBSCRIBE"), channel}));
}

} // namespace semscope::redis
