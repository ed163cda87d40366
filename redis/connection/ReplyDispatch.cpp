#include "ReplyDispatch.h"

namespace semscope::redis {

QByteArray commandName(const QList<QByteArray> &args) {
    return args.isEmpty() ? QByteArray() : args.constFirst().left(32).toUpper();
}

QByteArray ReplyDispatch::releaseQueue() {
    QByteArray wire;
    for (QueuedCommand &item : queue) {
        wire += item.wire;
        inFlight.push_back(std::move(item.pending));
    }
    queue.clear();
    return wire;
}

bool ReplyDispatch::subscribe(const QByteArray &channel, std::function<void(const QByteArray &)> onMessage,
                              std::function<void()> onSubscribed) {
    m_pubsubUsed = true;
    const bool known = m_subscriptions.contains(channel);
    m_subscriptions.insert(channel, {std::move(onMessage), std::move(onSubscribed)});
    return !known;
}

bool ReplyDispatch::unsubscribe(const QByteArray &channel) {
    return m_subscriptions.remove(channel) != 0;
}

bool ReplyDispatch::routePush(const RedisReply &reply) const {
    if (!m_pubsubUsed || !reply.isArray() || reply.elements.size() < 3 ||
        !reply.elements.constFirst().isString())
        return false;
    const QByteArray kind = reply.elements.constFirst().str.toLower();
    if (kind == "message") {
        const auto it = m_subscriptions.constFind(reply.elements.at(1).str);
        if (it != m_subscriptions.constEnd() && it->onMessage) {
            const auto onMessage = it->onMessage; // the handler may unsubscribe itself
            onMessage(reply.elements.at(2).str);
        }
        return true;
    }
    if (kind == "subscribe") {
        const auto it = m_subscriptions.constFind(reply.elements.at(1).str);
        if (it != m_subscriptions.constEnd() && it->onSubscribed) {
            const auto onSubscribed = it->onSubscribed;
            onSubscribed();
        }
        return true;
    }
    return kind == "unsubscribe" || kind == "psubscribe" || kind == "punsubscribe" || kind == "pmessage";
}

} // namespace semscope::redis
