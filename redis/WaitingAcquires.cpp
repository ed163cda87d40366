#include "WaitingAcquires.h"

#include "kinds/KindReplies.h"

#include <QDeadlineTimer>
#include <QTimer>
#include <algorithm>
#include <climits>

namespace semscope::redis {

using core::AcquireResult;

namespace {
constexpr qint64 kFirstBackoffMs = 25;
constexpr qint64 kMaxBackoffMs = 1000;
constexpr int kCancelCheckMs = 100;
} // namespace

struct WaitingAcquires::Waiter {
    quint64 id = 0;
    topology::RedisTopology *conn = nullptr; // of the store it waits in
    RedisKind *kind = nullptr;
    WaitQueueKind *queue = nullptr; // set when the layout has a waiter queue and a release channel
    QByteArray channel;
    core::SemaphoreRef ref;
    core::AcquireRequest request;
    core::Cancellation cancel;
    core::Callback<AcquireResult> done;
    QDeadlineTimer deadline;
    // Its place in the store's retry schedule, if it has one.
    std::optional<std::multimap<qint64, quint64>::iterator> retryAt;
    QByteArray rawHolder;
    qint64 ticket = -1; // its queue entry, once a busy reply said which
    // Hand-offs that arrived while an attempt was on the wire and the ticket they name was not
    // known yet: the attempt's reply says whether they are this waiter's.
    QList<WaitQueueKind::HandOff> early;
    bool started = false;     // made its first attempt
    bool inFlight = false;    // an attempt is on the wire
    bool wakePending = false; // woken while an attempt was on the wire: retry once it answers busy
    int attempts = 0;
    qint64 backoffMs = kFirstBackoffMs;
    AcquireResult lastBusy;
};

// Waiters of one notify channel (one semaphore, this store), in arrival order (which is the order of
// their first attempts and so of their places in the Redis queue).
struct WaitingAcquires::Channel {
    bool subscribing = false;
    bool subscribed = false;
    WaitQueueKind *queue = nullptr; // reads its messages
    QList<quint64> waiters;
    QHash<QByteArray, quint64> byHolder; // raw holder id -> waiter
};

WaitingAcquires::WaitingAcquires(ConnectionSettings settings, QByteArray notifyTag, QObject *parent)
    : QObject(parent)
    , m_settings(std::move(settings))
    , m_notifyTag(std::move(notifyTag)) {
    // One timer for every waiter's retry and one for noticing cancellations, instead of two timer
    // objects per waiting acquire (each made, connected and deleteLater()'d per acquire).
    m_clock.start();
    m_retryTimer = new QTimer(this);
    m_cancelTimer = new QTimer(this);
    m_retryTimer->setSingleShot(true);
    m_retryTimer->setTimerType(Qt::PreciseTimer);
    connect(m_retryTimer, &QTimer::timeout, this, &WaitingAcquires::onRetryTimer);
    m_cancelTimer->setInterval(kCancelCheckMs);
    connect(m_cancelTimer, &QTimer::timeout, this, &WaitingAcquires::onCancelCheck);
}

WaitingAcquires::~WaitingAcquires() {
    shutDown();
}

void WaitingAcquires::shutDown() {
    m_shuttingDown = true;
    m_retryTimer->stop();
    m_cancelTimer->stop();
    m_waiters.clear();
    m_pubsub.reset();
}

void WaitingAcquires::wait(topology::RedisTopology &conn, RedisKind *kind, const core::SemaphoreRef &ref,
                           const core::AcquireRequest &req, core::Cancellation cancel,
                           core::Callback<core::AcquireResult> done) {
    auto w = std::make_unique<Waiter>();
    w->id = m_nextWaiterId++;
    w->conn = &conn;
    w->kind = kind;
    w->ref = ref;
    w->request = req;
    w->cancel = std::move(cancel);
    w->done = std::move(done);
    w->deadline = QDeadlineTimer(req.waitMs);
    w->rawHolder = req.holder.toUtf8();
    w->queue = dynamic_cast<WaitQueueKind *>(kind);
    if (w->queue) {
        // Made once per semaphore: a load test starts tens of thousands of waits per second.
        auto it = m_notifyChannels.constFind(ref.name);
        if (it == m_notifyChannels.cend())
            it = m_notifyChannels.insert(ref.name, w->queue->notifyChannel(ref.name, m_notifyTag));
        w->channel = *it;
    }
    startWaiting(std::move(w));
}

RedisConnection &WaitingAcquires::pubsub() {
    if (!m_pubsub) {
        ConnectionSettings settings = m_settings;
        settings.clientName += QStringLiteral("-pubsub");
        settings.commandTimeoutMs = 0; // a subscription is silent for as long as nobody releases
        m_pubsub = std::make_unique<RedisConnection>(settings);
        m_pubsub->open();
    }
    return *m_pubsub;
}

void WaitingAcquires::startWaiting(std::unique_ptr<Waiter> waiter) {
    const quint64 id = waiter->id;
    Waiter &w = *waiter;
    if (!m_cancelTimer->isActive())
        m_cancelTimer->start();
    m_waiters.emplace(id, std::move(waiter));

    if (!w.queue) {
        attempt(id);
        return;
    }
    std::shared_ptr<Channel> &ch = m_channels[w.channel];
    if (!ch)
        ch = std::make_shared<Channel>();
    ch->queue = w.queue;
    ch->waiters << id;
    ch->byHolder.insert(w.rawHolder, id);
    if (ch->subscribed) {
        attempt(id);
        return;
    }
    // Until the subscription is confirmed the waiter only sleeps; should it never be confirmed, the
    // deadline still ends the wait with one last attempt.
    scheduleRetry(w, w.deadline.remainingTime());
    if (!ch->subscribing) {
        ch->subscribing = true;
        const QByteArray channel = w.channel;
        pubsub().subscribe(
            channel, [this, channel](const QByteArray &message) { onReleaseMessage(channel, message); },
            [this, channel] { onSubscribed(channel); });
    }
}

void WaitingAcquires::onSubscribed(const QByteArray &channel) {
    if (m_shuttingDown)
        return;
    const std::shared_ptr<Channel> ch = m_channels.value(channel);
    if (!ch)
        return;
    ch->subscribed = true;
    // First confirmation: the queued waiters make their first attempts, in arrival order. A later
    // confirmation follows a reconnect, when hand-offs may have been missed: everyone retries, and an
    // attempt picks up a slot handed to it meanwhile.
    const QList<quint64> ids = ch->waiters;
    for (quint64 id : ids)
        attempt(id);
}

void WaitingAcquires::onReleaseMessage(const QByteArray &channel, const QByteArray &message) {
    if (m_shuttingDown)
        return;
    const std::shared_ptr<Channel> ch = m_channels.value(channel);
    if (!ch)
        return;
    const std::optional<WaitQueueKind::HandOff> handOff =
        ch->queue ? ch->queue->parseHandOff(message) : std::nullopt;
    if (handOff)
        deliverHandOff(*ch, *handOff);
}

void WaitingAcquires::deliverHandOff(const QString &semaphore, const WaitQueueKind::HandOff &h) {
    if (m_shuttingDown)
        return;
    const auto channel = m_notifyChannels.constFind(semaphore);
    if (channel == m_notifyChannels.cend())
        return;
    if (const std::shared_ptr<Channel> ch = m_channels.value(*channel))
        deliverHandOff(*ch, h);
}

void WaitingAcquires::deliverHandOff(const Channel &ch, const WaitQueueKind::HandOff &h) {
    const auto id = ch.byHolder.constFind(h.holder);
    if (id == ch.byHolder.cend())
        return; // a hand-off to a waiter that is gone: its leave gives the slot back
    const auto it = m_waiters.find(*id);
    if (it == m_waiters.end() || !it->second->started)
        return;
    Waiter *w = it->second.get();
    if (h.ticket == w->ticket) {
        finishWaiter(w->id, grantFromHandOff(*w, h), false);
        return;
    }
    // The ticket is not known yet (first attempt on the wire) or is about to change (a retry after the
    // waiter lease ran out queues it anew): its reply decides. Anything else is a stale hand-off to an
    // earlier acquisition of the same holder id, which gave that slot back when it left.
    if (w->inFlight)
        w->early << h;
}

AcquireResult WaitingAcquires::grantFromHandOff(const Waiter &w, const WaitQueueKind::HandOff &h) const {
    AcquireResult r;
    r.status = AcquireResult::Status::Granted;
    r.grant.ref = w.ref;
    r.grant.rawHolder = w.rawHolder;
    r.grant.holder = kinds::printableId(w.rawHolder);
    r.grant.token = h.token;
    r.grant.expiresAtMs = h.expiresAtMs;
    return r;
}

void WaitingAcquires::attempt(quint64 id) {
    auto it = m_waiters.find(id);
    if (it == m_waiters.end())
        return;
    Waiter &w = *it->second;
    if (w.inFlight) {
        w.wakePending = true;
        return;
    }
    if (w.cancel.isCancelled()) {
        AcquireResult r;
        r.error = QStringLiteral("acquire cancelled");
        finishWaiter(id, r, w.started);
        return;
    }
    cancelRetry(w);
    w.started = true;
    w.inFlight = true;
    w.wakePending = false;
    ++w.attempts;
    core::AcquireRequest req = w.request;
    // Still waiting: a queue layout keeps (or puts) this waiter in its queue.
    req.waitMs = std::max<qint64>(1, w.deadline.remainingTime());
    if (w.queue) {
        // The first attempt is the hot path of a contended semaphore and its busy answer is rarely
        // the last word: the holder list is only asked for on later attempts, one of which ends a
        // wait that times out.
        w.queue->attemptQueued(*w.conn, w.ref, req, m_notifyTag, w.attempts > 1, w.ticket,
                               [this, id](const AcquireResult &r, qint64 ticket) {
                                   if (!m_shuttingDown)
                                       onAttemptResult(id, r, ticket);
                               });
        return;
    }
    w.kind->tryAcquire(*w.conn, w.ref, req, [this, id](const AcquireResult &r) {
        if (!m_shuttingDown)
            onAttemptResult(id, r, -1);
    });
}

void WaitingAcquires::onAttemptResult(quint64 id, AcquireResult result, qint64 ticket) {
    auto it = m_waiters.find(id);
    if (it == m_waiters.end())
        return;
    Waiter &w = *it->second;
    w.inFlight = false;
    const QList<WaitQueueKind::HandOff> early = std::exchange(w.early, {});
    if (result.status == AcquireResult::Status::Busy && ticket >= 0) {
        w.ticket = ticket;
        for (const WaitQueueKind::HandOff &h : early) {
            if (h.ticket == ticket) {
                finishWaiter(id, grantFromHandOff(w, h), false);
                return;
            }
        }
    }
    if (result.status == AcquireResult::Status::Granted) {
        finishWaiter(id, result, false);
        return;
    }
    if (result.status == AcquireResult::Status::Error) {
        finishWaiter(id, result, true);
        return;
    }
    w.lastBusy = result;
    if (w.cancel.isCancelled()) {
        AcquireResult r;
        r.error = QStringLiteral("acquire cancelled");
        finishWaiter(id, r, true);
        return;
    }
    const qint64 remaining = w.deadline.remainingTime();
    if (remaining <= 0) {
        finishWaiter(id, result, true);
        return;
    }
    if (w.wakePending) {
        attempt(id);
        return;
    }
    qint64 delay = 0;
    if (w.queue) {
        // Woken by release messages; otherwise at the expiry that makes room, and in time to
        // renew the waiter lease.
        delay = w.queue->waiterLeaseMs() / 2;
        if (result.retryAfterMs)
            delay = std::min(delay, *result.retryAfterMs + 1);
    } else {
        delay = w.backoffMs;
        w.backoffMs = std::min(w.backoffMs * 2, kMaxBackoffMs);
        if (result.retryAfterMs)
            delay = std::min(delay, *result.retryAfterMs + 1);
    }
    scheduleRetry(w, std::min(delay, remaining));
}

void WaitingAcquires::scheduleRetry(Waiter &w, qint64 delayMs) {
    cancelRetry(w);
    const qint64 due = m_clock.elapsed() + std::clamp<qint64>(delayMs, 0, INT_MAX / 2);
    w.retryAt = m_retries.emplace(due, w.id);
    if (m_retries.begin() == *w.retryAt)
        armRetryTimer();
}

void WaitingAcquires::cancelRetry(Waiter &w) {
    if (!w.retryAt)
        return;
    m_retries.erase(*w.retryAt);
    w.retryAt.reset();
    // The timer may now fire early for nothing; onRetryTimer() then re-arms it. Not re-arming here
    // keeps the common case (a waiter served before its renewal is due) free of timer churn.
}

void WaitingAcquires::armRetryTimer() {
    if (m_retries.empty()) {
        m_retryTimer->stop();
        return;
    }
    const qint64 delay = std::max<qint64>(0, m_retries.begin()->first - m_clock.elapsed());
    m_retryTimer->start(static_cast<int>(std::min<qint64>(delay, INT_MAX)));
}

void WaitingAcquires::onRetryTimer() {
    const qint64 now = m_clock.elapsed();
    QList<quint64> due;
    while (!m_retries.empty() && m_retries.begin()->first <= now) {
        const quint64 id = m_retries.begin()->second;
        m_retries.erase(m_retries.begin());
        auto it = m_waiters.find(id);
        if (it != m_waiters.end()) {
            it->second->retryAt.reset();
            due << id;
        }
    }
    armRetryTimer();
    for (quint64 id : due)
        attempt(id);
}

void WaitingAcquires::onCancelCheck() {
    if (m_waiters.empty()) {
        m_cancelTimer->stop();
        return;
    }
    QList<quint64> cancelled;
    for (const auto &[id, w] : m_waiters) {
        if (w->cancel.isCancelled() && !w->inFlight)
            cancelled << id;
    }
    for (quint64 id : cancelled) {
        AcquireResult r;
        r.error = QStringLiteral("acquire cancelled");
        finishWaiter(id, r, true);
    }
}

std::unique_ptr<WaitingAcquires::Waiter> WaitingAcquires::takeWaiter(quint64 id) {
    auto it = m_waiters.find(id);
    if (it == m_waiters.end())
        return nullptr;
    std::unique_ptr<Waiter> w = std::move(it->second);
    m_waiters.erase(it);
    cancelRetry(*w);
    if (w->queue) {
        if (const std::shared_ptr<Channel> ch = m_channels.value(w->channel)) {
            ch->waiters.removeOne(id);
            const auto h = ch->byHolder.constFind(w->rawHolder);
            if (h != ch->byHolder.cend() && *h == id)
                ch->byHolder.erase(h);
        }
    }
    return w;
}

void WaitingAcquires::forget(const topology::RedisTopology &conn) {
    QList<quint64> gone;
    for (const auto &[id, w] : m_waiters) {
        if (w->conn == &conn)
            gone << id;
    }
    for (quint64 id : gone)
        takeWaiter(id);
    // A channel reads its messages with the layout of a waiter's store, which may be the one going.
    for (const std::shared_ptr<Channel> &ch : std::as_const(m_channels)) {
        const auto first = ch->waiters.isEmpty() ? m_waiters.end() : m_waiters.find(ch->waiters.constFirst());
        ch->queue = first == m_waiters.end() ? nullptr : first->second->queue;
    }
}

void WaitingAcquires::finishWaiter(quint64 id, AcquireResult result, bool leaveQueue) {
    std::unique_ptr<Waiter> w = takeWaiter(id);
    if (!w)
        return;
    result.attempts = w->attempts;
    if (result.status == AcquireResult::Status::Busy && w->lastBusy.status == AcquireResult::Status::Busy &&
        result.holders.isEmpty())
        result.holders = w->lastBusy.holders;
    if (w->queue && leaveQueue && w->started) {
        // The caller hears once the waiter is out of the queue, not before: a CLI interrupted by a
        // signal exits on this answer, and an entry it left behind would be handed the next slot.
        w->queue->leaveQueue(*w->conn, w->ref, w->rawHolder, w->ticket,
                             [this, done = std::move(w->done), result] {
                                 if (!m_shuttingDown)
                                     done(result);
                             });
        return;
    }
    w->done(result);
}

} // namespace semscope::redis
