#include "RedisSemaphoreStore.h"

#include "RawKeyReader.h"
#include "RedisDiscovery.h"
#include "core/SnapshotRules.h"
#include "kinds/BuiltinKinds.h"
#include "kinds/KindReplies.h"
#include "kinds/WaitQueueKind.h"
#include "topology/HashSlot.h"
#include "topology/TopologyEventSource.h"

#include <QDeadlineTimer>
#include <QPointer>
#include <QRandomGenerator>
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

struct RedisSemaphoreStore::Waiter {
    quint64 id = 0;
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
struct RedisSemaphoreStore::Channel {
    bool subscribing = false;
    bool subscribed = false;
    WaitQueueKind *queue = nullptr; // reads its messages
    QList<quint64> waiters;
    QHash<QByteArray, quint64> byHolder; // raw holder id -> waiter
};

RedisSemaphoreStore::RedisSemaphoreStore(ConnectionSettings settings, QObject *parent)
    : RedisSemaphoreStore(std::move(settings), builtinRedisKinds(), parent) {}

RedisSemaphoreStore::RedisSemaphoreStore(ConnectionSettings settings,
                                         std::vector<std::unique_ptr<RedisKind>> kinds, QObject *parent)
    : core::SemaphoreStore(parent)
    , m_conn(std::make_unique<topology::RedisTopology>(std::move(settings)))
    , m_kinds(std::move(kinds))
    , m_notifyTag(QByteArray::number(QRandomGenerator::global()->generate64(), 36)) {
    // One timer for every waiter's retry and one for noticing cancellations, instead of two timer
    // objects per waiting acquire (each made, connected and deleteLater()'d per acquire).
    m_clock.start();
    m_retryTimer = new QTimer(this);
    m_cancelTimer = new QTimer(this);
    m_retryTimer->setSingleShot(true);
    m_retryTimer->setTimerType(Qt::PreciseTimer);
    connect(m_retryTimer, &QTimer::timeout, this, &RedisSemaphoreStore::onRetryTimer);
    m_cancelTimer->setInterval(kCancelCheckMs);
    connect(m_cancelTimer, &QTimer::timeout, this, &RedisSemaphoreStore::onCancelCheck);
    connect(&m_conn->entry(), &RedisConnection::connected, this,
            [this] { Q_EMIT connectionStateChanged(QStringLiteral("connected")); });
    connect(&m_conn->entry(), &RedisConnection::connectionLost, this, [this](const QString &reason) {
        Q_EMIT connectionStateChanged(QStringLiteral("lost: ") + reason);
    });
    connect(&m_conn->entry(), &RedisConnection::reconnectScheduled, this, [this](int delayMs) {
        Q_EMIT connectionStateChanged(
            QStringLiteral("reconnecting in %1 s")
                .arg(QString::number(delayMs / 1000.0, 'f', delayMs < 1000 ? 1 : 0)));
    });
    // Failovers and map changes reach whoever holds the store (the GUI's event lists, the pages).
    auto *events = new topology::TopologyEventSource(*m_conn, this);
    connect(events, &topology::TopologyEventSource::event, this, &core::SemaphoreStore::topologyEvent);
    m_conn->open();
}

RedisSemaphoreStore::~RedisSemaphoreStore() {
    // Connections may answer their pending callbacks while they close; none of them may reach a
    // half-destroyed store or a waiter's caller.
    m_shuttingDown = true;
    m_retryTimer->stop();
    m_cancelTimer->stop();
    m_waiters.clear();
    m_pubsub.reset();
    m_conn.reset();
}

QString RedisSemaphoreStore::endpoint() const {
    return m_conn->entry().endpoint();
}

QString RedisSemaphoreStore::locationOf(const core::SemaphoreRef &ref) const {
    const RedisKind *kind = kindFor(ref.kind);
    const QList<QByteArray> keys = kind ? kind->keysOf(ref.name) : QList<QByteArray>{};
    return m_conn->nodeOfKey(keys.isEmpty() ? ref.name.toUtf8() : keys.first());
}

RedisKind *RedisSemaphoreStore::kindFor(core::Kind kind) const {
    for (const auto &k : m_kinds) {
        if (k->kind() == kind)
            return k.get();
    }
    return nullptr;
}

QString RedisSemaphoreStore::noKindMessage(core::Kind kind) const {
    return QStringLiteral("kind %1 is not a Redis layout this store knows").arg(core::kindName(kind));
}

RedisConnection &RedisSemaphoreStore::pubsub() {
    if (!m_pubsub) {
        ConnectionSettings settings = m_conn->settings();
        settings.clientName += QStringLiteral("-pubsub");
        settings.commandTimeoutMs = 0; // a subscription is silent for as long as nobody releases
        m_pubsub = std::make_unique<RedisConnection>(settings);
        m_pubsub->open();
    }
    return *m_pubsub;
}

void RedisSemaphoreStore::whenSlotsChecked(RedisKind *kind, const QString &name,
                                           std::function<void(const QString &split)> go) {
    const QList<QByteArray> keys = kind->keysOf(name);
    const QList<int> keySlots = topology::distinctSlots(keys);
    using Mode = topology::RedisTopology::Mode;
    if (keySlots.size() <= 1 || m_conn->mode() == Mode::Standalone) {
        go({});
        return;
    }
    auto answer = [this, keySlots, go] {
        if (m_conn->mode() != Mode::Cluster) {
            go({});
            return;
        }
        QStringList slotNames;
        QStringList masters;
        for (int s : keySlots) {
            slotNames << QString::number(s);
            const QString m = m_conn->nodeOfSlot(s);
            if (!masters.contains(m))
                masters << m;
        }
        go(masters.size() > 1
               ? QStringLiteral("keys in slots %1 on different masters (%2): this read is not atomic")
                     .arg(slotNames.join(QStringLiteral(", ")), masters.join(QStringLiteral(", ")))
               : QStringLiteral("keys in slots %1 (all on %2): this read is not atomic")
                     .arg(slotNames.join(QStringLiteral(", ")), masters.join(QStringLiteral(", "))));
    };
    if (m_conn->mode() == Mode::Cluster && !m_conn->clusterMap().isEmpty()) {
        answer();
        return;
    }
    m_conn->detect([answer](const QString &) { answer(); });
}

QString RedisSemaphoreStore::writeRefusal(const QString &split) {
    QString where = split;
    where.remove(QStringLiteral(": this read is not atomic"));
    return QStringLiteral("refused: this layout keeps its %1 of a Redis Cluster; no atomic script can "
                          "span slots (its own clients cannot update it atomically there either), so "
                          "semscope does not write it")
        .arg(where);
}

void RedisSemaphoreStore::discover(const core::DiscoverRequest &request, core::Cancellation cancel,
                                   core::Callback<core::DiscoverProgress> progress,
                                   core::Callback<core::DiscoverResult> done) {
    discoverSemaphores(*m_conn, request, std::move(cancel), std::move(progress), std::move(done));
}

void RedisSemaphoreStore::snapshot(const core::SemaphoreRef &ref, core::Callback<core::Snapshot> done) {
    RedisKind *kind = kindFor(ref.kind);
    if (!kind) {
        core::Snapshot snap;
        snap.ref = ref;
        snap.warnings << noKindMessage(ref.kind);
        done(snap);
        return;
    }
    withReads([this, kind, ref, done = std::move(done)](RedisCommands &reads, bool fromReplicas) {
        whenSlotsChecked(kind, ref.name, [this, &reads, fromReplicas, kind, ref, done](const QString &split) {
            auto placed = [this, keys = kind->keysOf(ref.name), profile = ref.profile, fromReplicas,
                           done](core::Snapshot snap) {
                core::applyProfileLimit(snap, profile);
                const int slot = keys.isEmpty() ? 0 : topology::hashSlot(keys.first());
                snap.node = m_conn->nodeOfSlot(slot);
                if (m_conn->mode() == topology::RedisTopology::Mode::Cluster)
                    snap.slot = slot;
                if (fromReplicas)
                    snap.readFrom = m_conn->readNodeOfSlot(slot);
                done(snap);
            };
            if (split.isEmpty()) {
                kind->snapshot(reads, ref, placed);
                return;
            }
            kind->snapshotKeyByKey(reads, ref, [placed, split](core::Snapshot snap) {
                snap.warnings.prepend(split);
                snap.writeRefusal = writeRefusal(split); // what every write would answer, said up front
                placed(snap);
            });
        });
    });
}

void RedisSemaphoreStore::withReads(std::function<void(RedisCommands &reads, bool fromReplicas)> go) {
    using Mode = topology::RedisTopology::Mode;
    if (!m_conn->settings().discoverFromReplicas || m_conn->mode() == Mode::Standalone) {
        go(*m_conn, false);
        return;
    }
    if (m_conn->mode() == Mode::Cluster && m_conn->readNodesChosen()) {
        go(m_conn->replicaReads(), true);
        return;
    }
    // The mode first, then (Cluster) one replica per master; both are asked once and kept.
    QPointer<topology::RedisTopology> guard(m_conn.get());
    m_conn->detect([guard, go](const QString &) {
        if (!guard)
            return;
        if (guard->mode() != Mode::Cluster) {
            go(*guard, false);
            return;
        }
        guard->chooseReadNodes([guard, go](const QList<topology::RedisTopology::ReadNode> &) {
            if (guard)
                go(guard->replicaReads(), true);
        });
    });
}

void RedisSemaphoreStore::doAcquire(const core::SemaphoreRef &ref, const core::AcquireRequest &request,
                                    core::Cancellation cancel, core::Callback<core::AcquireResult> done) {
    RedisKind *kind = kindFor(ref.kind);
    if (!kind) {
        AcquireResult refused;
        refused.error = noKindMessage(ref.kind);
        done(refused);
        return;
    }
    core::AcquireRequest req = request;
    if (req.holder.isEmpty())
        req.holder = kinds::makeHolderId();
    if (!m_slotsChecked.contains(ref.name) && topology::distinctSlots(kind->keysOf(ref.name)).size() > 1) {
        // Checked once per semaphore (a load test acquires thousands of times a second).
        whenSlotsChecked(
            kind, ref.name,
            [this, ref, req, cancel = std::move(cancel), done = std::move(done)](const QString &split) {
                if (!split.isEmpty()) {
                    AcquireResult result;
                    result.error = writeRefusal(split);
                    done(result);
                    return;
                }
                m_slotsChecked.insert(ref.name);
                acquire(ref, req, cancel, done);
            });
        return;
    }
    if (req.replicas > 0) {
        done = [this, req, done = std::move(done)](core::AcquireResult r) {
            if (r.status != core::AcquireResult::Status::Granted) {
                done(r);
                return;
            }
            confirmReplicated(std::move(r), req, done);
        };
    }
    if (req.waitMs <= 0) {
        kind->tryAcquire(*m_conn, ref, req, std::move(done));
        return;
    }
    auto w = std::make_unique<Waiter>();
    w->id = m_nextWaiterId++;
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

void RedisSemaphoreStore::startWaiting(std::unique_ptr<Waiter> waiter) {
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

void RedisSemaphoreStore::onSubscribed(const QByteArray &channel) {
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

void RedisSemaphoreStore::onReleaseMessage(const QByteArray &channel, const QByteArray &message) {
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

void RedisSemaphoreStore::deliverHandOff(const QString &semaphore, const WaitQueueKind::HandOff &h) {
    if (m_shuttingDown)
        return;
    const auto channel = m_notifyChannels.constFind(semaphore);
    if (channel == m_notifyChannels.cend())
        return;
    if (const std::shared_ptr<Channel> ch = m_channels.value(*channel))
        deliverHandOff(*ch, h);
}

void RedisSemaphoreStore::deliverHandOff(const Channel &ch, const WaitQueueKind::HandOff &h) {
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

AcquireResult RedisSemaphoreStore::grantFromHandOff(const Waiter &w, const WaitQueueKind::HandOff &h) const {
    AcquireResult r;
    r.status = AcquireResult::Status::Granted;
    r.grant.ref = w.ref;
    r.grant.rawHolder = w.rawHolder;
    r.grant.holder = kinds::printableId(w.rawHolder);
    r.grant.token = h.token;
    r.grant.expiresAtMs = h.expiresAtMs;
    return r;
}

void RedisSemaphoreStore::attempt(quint64 id) {
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
        w.queue->attemptQueued(*m_conn, w.ref, req, m_notifyTag, w.attempts > 1, w.ticket,
                               [this, id](const AcquireResult &r, qint64 ticket) {
                                   if (!m_shuttingDown)
                                       onAttemptResult(id, r, ticket);
                               });
        return;
    }
    w.kind->tryAcquire(*m_conn, w.ref, req, [this, id](const AcquireResult &r) {
        if (!m_shuttingDown)
            onAttemptResult(id, r, -1);
    });
}

void RedisSemaphoreStore::onAttemptResult(quint64 id, AcquireResult result, qint64 ticket) {
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

void RedisSemaphoreStore::scheduleRetry(Waiter &w, qint64 delayMs) {
    cancelRetry(w);
    const qint64 due = m_clock.elapsed() + std::clamp<qint64>(delayMs, 0, INT_MAX / 2);
    w.retryAt = m_retries.emplace(due, w.id);
    if (m_retries.begin() == *w.retryAt)
        armRetryTimer();
}

void RedisSemaphoreStore::cancelRetry(Waiter &w) {
    if (!w.retryAt)
        return;
    m_retries.erase(*w.retryAt);
    w.retryAt.reset();
    // The timer may now fire early for nothing; onRetryTimer() then re-arms it. Not re-arming here
    // keeps the common case (a waiter served before its renewal is due) free of timer churn.
}

void RedisSemaphoreStore::armRetryTimer() {
    if (m_retries.empty()) {
        m_retryTimer->stop();
        return;
    }
    const qint64 delay = std::max<qint64>(0, m_retries.begin()->first - m_clock.elapsed());
    m_retryTimer->start(static_cast<int>(std::min<qint64>(delay, INT_MAX)));
}

void RedisSemaphoreStore::onRetryTimer() {
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

void RedisSemaphoreStore::onCancelCheck() {
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

void RedisSemaphoreStore::finishWaiter(quint64 id, AcquireResult result, bool leaveQueue) {
    auto it = m_waiters.find(id);
    if (it == m_waiters.end())
        return;
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
    result.attempts = w->attempts;
    if (result.status == AcquireResult::Status::Busy && w->lastBusy.status == AcquireResult::Status::Busy &&
        result.holders.isEmpty())
        result.holders = w->lastBusy.holders;
    if (w->queue && leaveQueue && w->started) {
        // The caller hears once the waiter is out of the queue, not before: a CLI interrupted by a
        // signal exits on this answer, and an entry it left behind would be handed the next slot.
        w->queue->leaveQueue(*m_conn, w->ref, w->rawHolder, w->ticket,
                             [this, done = std::move(w->done), result] {
                                 if (!m_shuttingDown)
                                     done(result);
                             });
        return;
    }
    w->done(result);
}

void RedisSemaphoreStore::doRefresh(const core::Grant &grant, qint64 ttlMs,
                                    core::Callback<core::RefreshResult> done) {
    RedisKind *kind = kindFor(grant.ref.kind);
    if (!kind) {
        done(core::RefreshResult{core::RefreshResult::Status::Error, std::nullopt,
                                 noKindMessage(grant.ref.kind)});
        return;
    }
    const int replicas = grant.details.value(QStringLiteral("replicas")).toInt();
    if (replicas > 0) {
        const qint64 timeoutMs = grant.details.value(QStringLiteral("replicaTimeoutMs")).toLongLong();
        done = [this, grant, replicas, timeoutMs, done = std::move(done)](core::RefreshResult r) {
            if (r.status != core::RefreshResult::Status::Ok) {
                done(r);
                return;
            }
            waitForReplicas(grant.ref, replicas, timeoutMs, [this, grant, r, done](const QString &failure) {
                if (failure.isEmpty()) {
                    done(r);
                    return;
                }
                // The extended lease may vanish in a failover: the holder must not count on it.
                release(grant, [failure, done](const core::ReleaseResult &released) {
                    core::RefreshResult lost;
                    lost.status = core::RefreshResult::Status::Lost;
                    if (released.status == core::ReleaseResult::Status::Error)
                        lost.error = failure + QStringLiteral(": releasing it failed too: ") + released.error;
                    else
                        lost.error = failure + QStringLiteral(": released");
                    done(lost);
                });
            });
        };
    }
    whenSlotsChecked(kind, grant.ref.name,
                     [this, kind, grant, ttlMs, done = std::move(done)](const QString &split) {
                         if (!split.isEmpty())
                             done(core::RefreshResult{core::RefreshResult::Status::Error, std::nullopt,
                                                      writeRefusal(split)});
                         else
                             kind->refresh(*m_conn, grant, ttlMs, done);
                     });
}

void RedisSemaphoreStore::waitForReplicas(const core::SemaphoreRef &ref, int replicas, qint64 timeoutMs,
                                          std::function<void(const QString &failure)> done) {
    // WAIT blocks this connection on the server for up to its timeout; keep that well inside the
    // connection's own command timeout.
    const qint64 timeout = std::clamp<qint64>(timeoutMs, 1, 5000);
    // WAIT counts the writes of the connection it is sent on and names no key: on a Cluster it must
    // go to the master that took the grant, not wherever its argument happens to hash.
    RedisKind *kind = kindFor(ref.kind);
    const QList<QByteArray> keys = kind ? kind->keysOf(ref.name) : QList<QByteArray>{};
    RedisConnection &conn = m_conn->mode() == topology::RedisTopology::Mode::Cluster && !keys.isEmpty()
                                ? m_conn->nodeConnection(m_conn->nodeOfKey(keys.constFirst()))
                                : m_conn->entry();
    conn.command({QByteArrayLiteral("WAIT"), QByteArray::number(replicas), QByteArray::number(timeout)},
                 [replicas, timeout, done = std::move(done)](const RedisReply &reply) {
                     if (reply.isError()) {
                         done(QStringLiteral("WAIT for %1 replicas failed: %2")
                                  .arg(replicas)
                                  .arg(reply.errorMessage()));
                         return;
                     }
                     const qint64 acked = reply.integer;
                     if (acked >= replicas) {
                         done(QString());
                         return;
                     }
                     done(QStringLiteral("not replicated to %1 replica%2 within %3 ms (acknowledged by %4)")
                              .arg(replicas)
                              .arg(replicas == 1 ? QString() : QStringLiteral("s"))
                              .arg(timeout)
                              .arg(acked));
                 });
}

void RedisSemaphoreStore::confirmReplicated(core::AcquireResult granted, const core::AcquireRequest &request,
                                            core::Callback<core::AcquireResult> done) {
    granted.grant.details.insert(QStringLiteral("replicas"), request.replicas);
    granted.grant.details.insert(QStringLiteral("replicaTimeoutMs"), request.replicaTimeoutMs);
    auto check = [this, request, done](core::AcquireResult r) {
        waitForReplicas(
            r.grant.ref, request.replicas, request.replicaTimeoutMs, [this, r, done](const QString &failure) {
                if (failure.isEmpty()) {
                    done(r);
                    return;
                }
                // Not on enough replicas: a failover now could lose it and admit someone else. Give
                // it back (compare-and-act on this very grant) and say so.
                release(r.grant, [r, failure, done](const core::ReleaseResult &released) {
                    core::AcquireResult refused;
                    refused.status = core::AcquireResult::Status::Error;
                    refused.attempts = r.attempts;
                    if (released.status == core::ReleaseResult::Status::Error)
                        refused.error =
                            failure +
                            QStringLiteral("; releasing it failed too (it stands until its TTL): ") +
                            released.error;
                    else
                        refused.error = failure + QStringLiteral(": released");
                    done(refused);
                });
            });
    };
    if (request.waitMs <= 0) {
        check(std::move(granted));
        return;
    }
    // A waiter may have been granted by another client's release: refresh first, so that this
    // connection's own write stands behind the grant and WAIT covers it.
    RedisKind *kind = kindFor(granted.grant.ref.kind);
    const core::Grant grant = granted.grant;
    kind->refresh(*m_conn, grant, request.ttlMs,
                  [granted = std::move(granted), check, done](const core::RefreshResult &refreshed) mutable {
                      if (refreshed.status != core::RefreshResult::Status::Ok) {
                          core::AcquireResult lost;
                          lost.status = core::AcquireResult::Status::Error;
                          lost.error = QStringLiteral("the grant was lost before it could be replicated: ") +
                                       refreshed.error;
                          done(lost);
                          return;
                      }
                      if (refreshed.expiresAtMs)
                          granted.grant.expiresAtMs = refreshed.expiresAtMs;
                      check(std::move(granted));
                  });
}

void RedisSemaphoreStore::doRelease(const core::Grant &grant, core::Callback<core::ReleaseResult> done) {
    RedisKind *kind = kindFor(grant.ref.kind);
    if (!kind) {
        done(core::ReleaseResult{core::ReleaseResult::Status::Error, noKindMessage(grant.ref.kind)});
        return;
    }
    auto *queue = dynamic_cast<WaitQueueKind *>(kind);
    if (!queue) {
        whenSlotsChecked(
            kind, grant.ref.name, [this, kind, grant, done = std::move(done)](const QString &split) {
                if (!split.isEmpty())
                    done(core::ReleaseResult{core::ReleaseResult::Status::Error, writeRefusal(split)});
                else
                    kind->release(*m_conn, grant, done);
            });
        return;
    }
    // A slot freed for one of this store's own waiters comes back in the reply: the waiter is served
    // from here, with nothing published. (Waiters of other stores, even in this process, are told
    // through pub/sub: handing them over between threads cost the load tester more CPU per pair
    // than the PUBLISH saved the server.)
    queue->releaseHandingOff(
        *m_conn, grant, m_notifyTag,
        [this, name = grant.ref.name, done = std::move(done)](const core::ReleaseResult &r,
                                                              const QList<WaitQueueKind::HandOff> &handOffs) {
            for (const WaitQueueKind::HandOff &h : handOffs)
                deliverHandOff(name, h);
            done(r);
        });
}

void RedisSemaphoreStore::doForceRelease(const core::SemaphoreRef &ref, const core::Holder &observed,
                                         std::optional<qint64> observedVersion,
                                         core::Callback<core::ForceReleaseResult> done) {
    RedisKind *kind = kindFor(ref.kind);
    if (!kind) {
        done(core::ForceReleaseResult{core::ForceReleaseResult::Status::Error, noKindMessage(ref.kind)});
        return;
    }
    whenSlotsChecked(
        kind, ref.name,
        [this, kind, ref, observed, observedVersion, done = std::move(done)](const QString &split) {
            if (!split.isEmpty())
                done(core::ForceReleaseResult{core::ForceReleaseResult::Status::Error, writeRefusal(split)});
            else
                kind->forceRelease(*m_conn, ref, observed, observedVersion, done);
        });
}

void RedisSemaphoreStore::doPurgeExpired(const core::SemaphoreRef &ref,
                                         core::Callback<core::MaintenanceResult> done) {
    RedisKind *kind = kindFor(ref.kind);
    if (!kind) {
        done(core::MaintenanceResult{false, 0, noKindMessage(ref.kind)});
        return;
    }
    whenSlotsChecked(kind, ref.name, [this, kind, ref, done = std::move(done)](const QString &split) {
        if (!split.isEmpty())
            done(core::MaintenanceResult{false, 0, writeRefusal(split)});
        else
            kind->purgeExpired(*m_conn, ref, done);
    });
}

void RedisSemaphoreStore::doRepair(const core::SemaphoreRef &ref,
                                   core::Callback<core::MaintenanceResult> done) {
    RedisKind *kind = kindFor(ref.kind);
    if (!kind) {
        done(core::MaintenanceResult{false, 0, noKindMessage(ref.kind)});
        return;
    }
    whenSlotsChecked(kind, ref.name, [this, kind, ref, done = std::move(done)](const QString &split) {
        if (!split.isEmpty())
            done(core::MaintenanceResult{false, 0, writeRefusal(split)});
        else
            kind->repair(*m_conn, ref, done);
    });
}

void RedisSemaphoreStore::doSetLimit(const core::SemaphoreRef &ref, qint64 limit,
                                     core::Callback<core::MaintenanceResult> done) {
    RedisKind *kind = kindFor(ref.kind);
    if (!kind) {
        done(core::MaintenanceResult{false, 0, noKindMessage(ref.kind)});
        return;
    }
    whenSlotsChecked(kind, ref.name, [this, kind, ref, limit, done = std::move(done)](const QString &split) {
        if (!split.isEmpty())
            done(core::MaintenanceResult{false, 0, writeRefusal(split)});
        else
            kind->setLimit(*m_conn, ref, limit, done);
    });
}

void RedisSemaphoreStore::readRawKeys(const core::SemaphoreRef &ref,
                                      std::function<void(core::RawKeys)> done) {
    snapshot(ref, [this, done](core::Snapshot s) {
        // Routed by the key in each command (its second argument), like every other command.
        RawKeyReader::Send send = [this](const QList<QByteArray> &args, RawKeyReader::ReplyCallback cb) {
            m_conn->command(args, std::move(cb));
        };
        RawKeyReader::read(send, s.keys, done);
    });
}

} // namespace semscope::redis
