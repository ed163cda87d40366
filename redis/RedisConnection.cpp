#include "RedisConnection.h"

#include "ClientLiveness.h"

#include "core/SemaphoreTypes.h"
#include "topology/SentinelResolver.h"
#include "transport/Logging.h"
#include "transport/ReplyReader.h"
#include "transport/RespEncoder.h"
#include "transport/SocketTransport.h"

#include <QElapsedTimer>
#include <QHash>
#include <QPointer>
#include <QTimer>
#include <deque>

namespace semscope::redis {

namespace {

constexpr int kInitialBackoffMs = 100;
constexpr int kMaxBackoffMs = 5000;
// Through Sentinel: how many times in a row a connection that does not reconnect by itself asks the
// sentinels again when the node they named is not a master (a sentinel that has not caught up with
// a failover names the demoted node for a moment; one that keeps naming it is wrong, not late).
constexpr int kStaleMasterAttempts = 3;
// Longest a Sentinel connection waits for +switch-master after a failover started.
constexpr int kFailoverHoldMs = 10000;

struct Pending {
    RedisConnection::ReplyCallback callback;
    QByteArray name;     // the command's name for timeout messages; never its arguments
    qint64 deadline = 0; // on the connection's monotonic clock; 0: none
};

struct Queued {
    QByteArray wire;
    Pending pending;
};

struct Subscription {
    std::function<void(const QByteArray &)> onMessage;
    std::function<void()> onSubscribed;
};

QByteArray commandName(const QList<QByteArray> &args) {
    return args.isEmpty() ? QByteArray() : args.constFirst().left(32).toUpper();
}

} // namespace

class RedisConnection::Private {
public:
    Private(RedisConnection *owner, ConnectionSettings s)
        : q(owner)
        , settings(std::move(s)) {
        clock.start();
        parser.setMaxReplyBytes(settings.maxReplyBytes);
        connectTimer.setSingleShot(true);
        reconnectTimer.setSingleShot(true);
        commandTimer.setSingleShot(true);
        QObject::connect(&connectTimer, &QTimer::timeout, q, [this]() {
            failConnection(QStringLiteral("connect timed out after %1 ms").arg(settings.connectTimeoutMs));
        });
        QObject::connect(&reconnectTimer, &QTimer::timeout, q, [this]() { startAttempt(); });
        QObject::connect(&commandTimer, &QTimer::timeout, q, [this]() { checkTimeouts(); });
    }

    RedisConnection *q;
    ConnectionSettings settings;
    SocketTransport *socket = nullptr;
    ReplyReader parser;
    std::deque<Pending> inFlight; // written, waiting for their replies, in order
    std::deque<Queued> queue;     // not written yet: waiting for the handshake
    State state = State::Disconnected;
    bool handshakeDone = false;
    int handshakeLeft = 0;
    QTimer connectTimer;
    QTimer reconnectTimer;
    QTimer commandTimer;
    QElapsedTimer clock;
    int backoffMs = kInitialBackoffMs;
    int staleMasterAttempts = 0; // nodes in a row the sentinels named that were not a master
    // Bumped whenever the current connection ends; code that ran callbacks compares it to know
    // whether the connection it was serving is still the same one.
    quint64 generation = 0;
    // Shared with running dispatch loops so they notice when a callback deleted the connection.
    std::shared_ptr<bool> alive = std::make_shared<bool>(true);
    int dispatchDepth = 0;
    QHash<QByteArray, Subscription> subscriptions;
    bool pubsubUsed = false;
    // Sentinel: finds the master before each attempt and reports failovers (null otherwise).
    std::unique_ptr<SentinelResolver> resolver;
    // A failover is under way: no attempt until the sentinels name the new master (or the hold
    // times out, e.g. the failover was aborted).
    bool holdingForSwitch = false;
    QTimer holdTimer;
    QString servingNode;     // "host:port" of the node of the current connection
    QString lastServingNode; // of the last connection that completed its handshake
    QString servingSentinel; // Sentinel: the sentinel that named servingNode

    QString endpoint() const { return settings.endpoint(); }
    qint64 deadlineFromNow() const {
        return settings.commandTimeoutMs > 0 ? clock.elapsed() + settings.commandTimeoutMs : 0;
    }

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
                         [this](const QString &reason) { failConnection(reason); });
        QObject::connect(socket, &SocketTransport::warning, q, [this](const QString &message) {
            qCInfo(lcRedisTransport).noquote() << endpoint() + QStringLiteral(": ") + message;
            Q_EMIT q->warning(endpoint() + QStringLiteral(": ") + message);
        });
    }

    void startAttempt() {
        parser.reset();
        handshakeDone = false;
        handshakeLeft = 0;
        if (resolver) {
            if (holdingForSwitch)
                return; // onMasterSwitched() or the hold timer starts the attempt
            resolveThenConnect();
            return;
        }
        connectSocket();
    }

    // The sentinels are about to promote a replica: writes to the old master from now on may be
    // lost when it is demoted. End the connection (what is in flight fails once, not replayed) and
    // send nothing until the switch is announced; commands issued meanwhile wait in the queue.
    void onFailoverStarted() {
        if (state == State::Disconnected || holdingForSwitch)
            return;
        holdingForSwitch = true;
        holdTimer.start(kFailoverHoldMs);
        const QString reason =
            core::kFailoverInterruption +
            QStringLiteral("the sentinels are promoting a replica of '%1'; commands in flight were not sent "
                           "again (a write among them may or may not have run on the old master)")
                .arg(settings.sentinelMaster);
        failConnection(reason, Ending::Switching);
    }

    void endHold() {
        if (!holdingForSwitch)
            return;
        holdingForSwitch = false;
        holdTimer.stop();
        if (state == State::Reconnecting) {
            reconnectTimer.stop();
            backoffMs = kInitialBackoffMs;
            startAttempt();
        }
    }

    void connectSocket() {
        qCDebug(lcRedisTransport).noquote() << "connecting to" << endpoint();
        if (settings.connectTimeoutMs > 0)
            connectTimer.start(settings.connectTimeoutMs);
        socket->connectToServer();
    }

    // Sentinel: ask where the master is now, then connect there. The sentinels have their own
    // (short) timeouts; the connect timeout starts once the address is known.
    void resolveThenConnect() {
        const quint64 gen = generation;
        resolver->resolve([this, gen](const SentinelResolver::Result &r) {
            if (gen != generation || state == State::Disconnected)
                return; // closed, or failed otherwise meanwhile
            if (!r.ok) {
                failConnection(r.error);
                return;
            }
            settings.host = r.master.host;
            settings.port = r.master.port;
            servingNode = r.master.text();
            servingSentinel = r.sentinel;
            socket->setTarget(r.master.host, r.master.port);
            qCDebug(lcRedisTransport).noquote()
                << endpoint() << "master" << servingNode << "named by sentinel" << r.sentinel;
            connectSocket();
        });
    }

    // A sentinel says the master moved. The connection to the old one ends now: what is in flight
    // fails once with this reason (a write may or may not have run there; nothing is sent again),
    // and the next attempt starts at once instead of after the backoff.
    void onMasterSwitched(const SentinelResolver::Address &from, const SentinelResolver::Address &to) {
        if (state == State::Disconnected)
            return;
        if (holdingForSwitch) {
            endHold(); // the connection ended when the failover started
            return;
        }
        // Connected or connecting to the new master already (the sentinel named it before the
        // announcement reached us): nothing went to the old one, so nothing is ended or failed.
        if (servingNode == to.text() && !reconnectTimer.isActive()) {
            qCDebug(lcRedisTransport).noquote()
                << endpoint() << "the sentinels announce" << servingNode
                << "as the master: this connection is already there or on its way";
            return;
        }
        const QString reason =
            core::kFailoverInterruption +
            QStringLiteral("the master of '%1' moved from %2 to %3; commands in flight were not "
                           "sent again (a write among them may or may not have run on the old master)")
                .arg(settings.sentinelMaster, from.text(), to.text());
        if (state != State::Reconnecting || !reconnectTimer.isActive()) {
            const auto guard = alive;
            failConnection(reason, Ending::Switching); // the current connection or attempt
            if (!*guard)
                return;
        }
        if (reconnectTimer.isActive()) {
            reconnectTimer.stop();
            backoffMs = kInitialBackoffMs;
            startAttempt();
        }
    }

    // A switch may have gone by while no sentinel was listened to: compare once more.
    void recheckMaster() {
        if (state != State::Connected || !handshakeDone)
            return;
        const quint64 gen = generation;
        resolver->resolve([this, gen](const SentinelResolver::Result &r) {
            if (gen != generation || !r.ok || r.master.text() == servingNode)
                return;
            SentinelResolver::Address from;
            from.host = settings.host;
            from.port = settings.port;
            onMasterSwitched(from, r.master);
        });
    }

    void onReady() {
        // AUTH, SELECT and CLIENT SETNAME go out in one write; queued commands only after their
        // replies, so they never run unauthenticated or in the wrong database.
        struct Step {
            QList<QByteArray> args;
            QString what;
            bool required;
            // Optional: a reason to refuse a reply that is not an error.
            std::function<QString(const RedisReply &)> check = {};
            // A refusal by `check` means the sentinels named a node that is not the master.
            bool staleMaster = false;
        };
        QList<Step> steps;
        if (!settings.password.isEmpty()) {
            QList<QByteArray> auth = {QByteArrayLiteral("AUTH")};
            if (!settings.user.isEmpty())
                auth << settings.user.toUtf8();
            auth << settings.password.toUtf8();
            steps.append({auth, QStringLiteral("authentication failed"), true});
        }
        if (settings.db != 0) {
            steps.append({{QByteArrayLiteral("SELECT"), QByteArray::number(settings.db)},
                          QStringLiteral("SELECT %1 failed").arg(settings.db),
                          true});
        }
        if (!settings.clientName.isEmpty()) {
            // "<name>:<pid>@<host>": a holder's owner record names its process, and this is how
            // the holder card finds that process among the server's clients (ClientLiveness.h).
            const QByteArray name = processClientName(settings.clientName).toUtf8();
            steps.append({{QByteArrayLiteral("CLIENT"), QByteArrayLiteral("SETNAME"), name},
                          QStringLiteral("CLIENT SETNAME failed"),
                          false});
        }
        if (settings.clusterReadOnly) {
            // Part of the handshake, so that a reconnected replica connection reads again at once.
            steps.append({{QByteArrayLiteral("READONLY")}, QStringLiteral("READONLY failed"), true});
        }
        if (resolver) {
            // A sentinel that has not caught up can name a node that was demoted: talk only to a
            // master (the next attempt asks the sentinels again).
            steps.append({{QByteArrayLiteral("ROLE")},
                          QStringLiteral("role check failed"),
                          true,
                          [node = servingNode](const RedisReply &reply) {
                              const QByteArray role = reply.isArray() && !reply.elements.isEmpty()
                                                          ? reply.elements.constFirst().str
                                                          : QByteArray();
                              if (role == "master")
                                  return QString();
                              return QStringLiteral("%1 is not a master (ROLE says '%2')")
                                  .arg(node, QString::fromUtf8(role.left(20)));
                          },
                          true});
        }
        if (steps.isEmpty()) {
            finishHandshake();
            return;
        }
        handshakeLeft = int(steps.size());
        QByteArray wire;
        const quint64 gen = generation;
        for (const Step &step : steps) {
            wire += encodeCommand(step.args);
            Pending p;
            p.name = step.args.constFirst();
            p.callback = [this, gen, what = step.what, required = step.required, check = step.check,
                          staleMaster = step.staleMaster](const RedisReply &reply) {
                if (reply.isTransportError() || gen != generation)
                    return; // the connection failed; failConnection() handles it
                if (check && !reply.isError()) {
                    const QString refusal = check(reply);
                    if (!refusal.isEmpty()) {
                        if (staleMaster)
                            failOnStaleMaster(refusal);
                        else
                            failConnection(refusal);
                        return;
                    }
                }
                if (reply.isServerError()) {
                    if (required) {
                        failConnection(what + QStringLiteral(": ") + reply.errorMessage());
                        return;
                    }
                    const auto guard = alive;
                    Q_EMIT q->warning(endpoint() + QStringLiteral(": ") + what + QStringLiteral(": ") +
                                      reply.errorMessage());
                    if (!*guard || gen != generation)
                        return;
                }
                if (--handshakeLeft == 0)
                    finishHandshake();
            };
            inFlight.push_back(std::move(p));
        }
        socket->write(wire);
    }

    // The node the sentinels named is not the master (ROLE in the handshake, or READONLY later):
    // ask them again, as after a failover they announce, even on a connection that does not
    // reconnect by itself - but only a few times in a row on such a connection, then give up
    // saying so.
    void failOnStaleMaster(const QString &reason) {
        ++staleMasterAttempts;
        if (settings.autoReconnect) {
            failConnection(reason + QStringLiteral("; asking the sentinels again"));
        } else if (staleMasterAttempts < kStaleMasterAttempts) {
            failConnection(reason + QStringLiteral("; asking the sentinels again"), Ending::Switching);
        } else {
            const int attempts = staleMasterAttempts;
            staleMasterAttempts = 0;
            failConnection(reason + QStringLiteral("; the sentinels named a node that is not the master "
                                                   "%1 times in a row")
                                        .arg(attempts));
        }
    }

    void finishHandshake() {
        handshakeDone = true;
        staleMasterAttempts = 0;
        connectTimer.stop();
        backoffMs = kInitialBackoffMs;
        qCDebug(lcRedisTransport).noquote() << "connected to" << endpoint();
        // Write everything before telling anyone, so commands issued from the signals below queue
        // up behind the ones that waited.
        if (!subscriptions.isEmpty()) {
            QList<QByteArray> args = {QByteArrayLiteral("SUBSCRIBE")};
            args << subscriptions.keys();
            socket->write(encodeCommand(args));
        }
        if (!queue.empty()) {
            QByteArray wire;
            for (Queued &item : queue) {
                wire += item.wire;
                inFlight.push_back(std::move(item.pending));
            }
            queue.clear();
            socket->write(wire);
        }
        armCommandTimer();
        const auto guard = alive;
        const QString previousNode = lastServingNode;
        lastServingNode = servingNode;
        setState(State::Connected);
        if (*guard && state == State::Connected && previousNode != servingNode)
            Q_EMIT q->servingNodeChanged(previousNode, servingNode);
        if (*guard && state == State::Connected)
            Q_EMIT q->connected();
    }

    void send(QByteArray wire, Pending pending) {
        if (state == State::Connected && handshakeDone) {
            // Waiting before written: a TLS socket's write-through flush also reads, and may hand
            // this command's reply to onReadyRead() before write() returns.
            inFlight.push_back(std::move(pending));
            socket->write(wire);
        } else {
            queue.push_back({std::move(wire), std::move(pending)});
        }
        armCommandTimer();
    }

    void postReply(ReplyCallback callback, RedisReply reply) {
        if (!callback)
            return;
        QTimer::singleShot(0, q,
                           [callback = std::move(callback), reply = std::move(reply)]() { callback(reply); });
    }

    void onReadyRead() {
        parser.feed(socket->readAll());
        const auto guard = alive;
        const quint64 gen = generation;
        ++dispatchDepth;
        for (;;) {
            std::optional<RedisReply> reply = parser.next();
            if (!reply)
                break;
            dispatch(*reply);
            if (!*guard)
                return; // a callback deleted the connection; touch nothing
            if (gen != generation) {
                --dispatchDepth;
                return; // a callback closed it, or the reply ended it; the rest belongs to the old one
            }
        }
        --dispatchDepth;
        if (parser.hasError())
            failConnection(parser.errorString());
    }

    bool dispatchPush(const RedisReply &reply) {
        if (!pubsubUsed || !reply.isArray() || reply.elements.size() < 3 ||
            !reply.elements.constFirst().isString())
            return false;
        const QByteArray kind = reply.elements.constFirst().str.toLower();
        if (kind == "message") {
            const auto it = subscriptions.constFind(reply.elements.at(1).str);
            if (it != subscriptions.constEnd() && it->onMessage) {
                const auto onMessage = it->onMessage; // the handler may unsubscribe itself
                onMessage(reply.elements.at(2).str);
            }
            return true;
        }
        if (kind == "subscribe") {
            const auto it = subscriptions.constFind(reply.elements.at(1).str);
            if (it != subscriptions.constEnd() && it->onSubscribed) {
                const auto onSubscribed = it->onSubscribed;
                onSubscribed();
            }
            return true;
        }
        return kind == "unsubscribe" || kind == "psubscribe" || kind == "punsubscribe" || kind == "pmessage";
    }

    void dispatch(const RedisReply &reply) {
        if (dispatchPush(reply))
            return;
        if (inFlight.empty()) {
            failConnection(QStringLiteral("protocol error: a reply arrived that no command was waiting for"));
            return;
        }
        Pending pending = std::move(inFlight.front());
        inFlight.pop_front();
        const quint64 gen = generation;
        const auto guard = alive;
        if (pending.callback)
            pending.callback(reply);
        // Through Sentinel, READONLY means the node we talk to was demoted and we missed the
        // switch: that command failed with the server's words; the rest go to the new master.
        if (*guard && gen == generation && resolver && reply.isServerError() &&
            reply.str.startsWith("READONLY"))
            failOnStaleMaster(QStringLiteral("%1 is a replica now (READONLY)").arg(servingNode));
    }

    void armCommandTimer() {
        if (settings.commandTimeoutMs <= 0 || commandTimer.isActive())
            return;
        qint64 earliest = 0;
        // FIFO order with one timeout for all: each queue's front has its earliest deadline.
        if (!inFlight.empty() && inFlight.front().deadline > 0)
            earliest = inFlight.front().deadline;
        if (!queue.empty() && queue.front().pending.deadline > 0 &&
            (earliest == 0 || queue.front().pending.deadline < earliest))
            earliest = queue.front().pending.deadline;
        if (earliest == 0)
            return;
        commandTimer.start(
            int(qBound<qint64>(0, earliest - clock.elapsed(), qint64(settings.commandTimeoutMs))));
    }

    void checkTimeouts() {
        const qint64 now = clock.elapsed();
        if (!inFlight.empty() && inFlight.front().deadline > 0 && inFlight.front().deadline <= now) {
            failConnection(QStringLiteral("%1 timed out after %2 ms")
                               .arg(QString::fromUtf8(inFlight.front().name))
                               .arg(settings.commandTimeoutMs));
            return;
        }
        std::deque<Pending> expired;
        while (!queue.empty() && queue.front().pending.deadline > 0 &&
               queue.front().pending.deadline <= now) {
            expired.push_back(std::move(queue.front().pending));
            queue.pop_front();
        }
        armCommandTimer();
        const auto guard = alive;
        if (!expired.empty())
            ++dispatchDepth;
        for (Pending &p : expired) {
            if (p.callback) {
                p.callback(RedisReply::transportError(
                    QStringLiteral("%1: %2 timed out after %3 ms waiting for the connection")
                        .arg(endpoint(), QString::fromUtf8(p.name))
                        .arg(settings.commandTimeoutMs)));
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
        ++generation;
        if (socket)
            socket->abort();
        connectTimer.stop();
        commandTimer.stop();
        reconnectTimer.stop();
        parser.reset();
        handshakeDone = false;
        handshakeLeft = 0;
        std::deque<Pending> failed;
        failed.swap(inFlight);
        // A switch to the new master keeps what was never written: it goes there, once.
        std::deque<Queued> waiting;
        if (ending != Ending::Switching)
            waiting.swap(queue);

        const bool reconnect = ending == Ending::Switching || (!closing && settings.autoReconnect);
        int delay = 0;
        if (reconnect) {
            delay = backoffMs;
            backoffMs = qMin(backoffMs * 2, kMaxBackoffMs);
            reconnectTimer.start(delay);
        }
        armCommandTimer(); // for what waits in the queue
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
        for (Pending &p : failed) {
            if (p.callback)
                p.callback(error);
        }
        for (Queued &item : waiting) {
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
        d->resolver = std::make_unique<SentinelResolver>(d->settings);
        connect(d->resolver.get(), &SentinelResolver::masterSwitched, this,
                [this](const SentinelResolver::Address &from, const SentinelResolver::Address &to) {
                    d->onMasterSwitched(from, to);
                });
        connect(d->resolver.get(), &SentinelResolver::subscribed, this, [this] { d->recheckMaster(); });
        connect(d->resolver.get(), &SentinelResolver::failoverStarted, this, [this] {
            // Said once per failover, and not after a callback of a failed command deleted us.
            const bool news = d->state != State::Disconnected && !d->holdingForSwitch;
            const auto guard = d->alive;
            d->onFailoverStarted();
            if (*guard && news)
                Q_EMIT failoverStarted();
        });
        connect(d->resolver.get(), &SentinelResolver::failoverAborted, this, [this](const QString &reason) {
            if (!d->holdingForSwitch)
                return; // not holding: nothing to resume (or said already)
            qCInfo(lcRedisTransport).noquote()
                << endpoint() + QStringLiteral(": failover of '%1' aborted (%2): back to the master")
                                    .arg(d->settings.sentinelMaster, reason);
            const auto guard = d->alive;
            d->endHold();
            if (*guard)
                Q_EMIT failoverAborted(reason);
        });
        d->holdTimer.setSingleShot(true);
        connect(&d->holdTimer, &QTimer::timeout, this, [this] { d->endHold(); });
    } else {
        d->servingNode = d->settings.nodeAddress();
    }
}

RedisConnection::~RedisConnection() {
    *d->alive = false;
    d->resolver.reset();
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
    if (d->resolver)
        d->resolver->watch();
    d->backoffMs = kInitialBackoffMs;
    d->setState(State::Connecting);
    d->startAttempt();
}

void RedisConnection::close() {
    if (d->resolver)
        d->resolver->stopWatching();
    d->holdingForSwitch = false;
    d->holdTimer.stop();
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
    Pending pending;
    pending.callback = std::move(callback);
    pending.name = commandName(args);
    pending.deadline = d->deadlineFromNow();
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
    std::deque<Pending> pendings;
    const qint64 deadline = d->deadlineFromNow();
    for (qsizetype i = 0; i < commands.size(); ++i) {
        wire += encodeCommand(commands.at(i));
        Pending p;
        p.name = commandName(commands.at(i));
        p.deadline = deadline;
        p.callback = [collector, i](const RedisReply &reply) {
            collector->replies[i] = reply;
            if (--collector->left == 0 && collector->callback)
                collector->callback(collector->replies);
        };
        pendings.push_back(std::move(p));
    }
    if (d->state == State::Connected && d->handshakeDone) {
        for (Pending &p : pendings)
            d->inFlight.push_back(std::move(p));
        d->socket->write(wire); // after: see Private::send()
    } else {
        // Queued as one write (the first entry) plus empty writes that only hold their callbacks.
        bool first = true;
        for (Pending &p : pendings) {
            d->queue.push_back({first ? wire : QByteArray(), std::move(p)});
            first = false;
        }
    }
    d->armCommandTimer();
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
    command(evalsha,
            [self, source = script.source(), tail, callback = std::move(callback)](const RedisReply &reply) {
                if (reply.isServerError() && reply.str.startsWith("NOSCRIPT") && self) {
                    // EVAL runs the script and leaves it cached for the next EVALSHA.
                    QList<QByteArray> evalArgs = {QByteArrayLiteral("EVAL"), source};
                    evalArgs << tail;
                    self->command(evalArgs, callback);
                    return;
                }
                if (callback)
                    callback(reply);
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
    return int((d->handshakeDone ? d->inFlight.size() : 0) + d->queue.size());
}

void RedisConnection::subscribe(const QByteArray &channel, std::function<void(const QByteArray &)> onMessage,
                                std::function<void()> onSubscribed) {
    d->pubsubUsed = true;
    const bool known = d->subscriptions.contains(channel);
    d->subscriptions.insert(channel, {std::move(onMessage), std::move(onSubscribed)});
    if (!known && d->state == State::Connected && d->handshakeDone)
        d->socket->write(encodeCommand({QByteArrayLiteral("SUBSCRIBE"), channel}));
    // Otherwise the handshake subscribes to everything in `subscriptions`.
}

void RedisConnection::unsubscribe(const QByteArray &channel) {
    if (d->subscriptions.remove(channel) == 0)
        return;
    if (d->state == State::Connected && d->handshakeDone)
        d->socket->write(encodeCommand({QByteArrayLiteral("UNSUBSCRIBE"), channel}));
}

} // namespace semscope::redis
