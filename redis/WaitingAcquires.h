#pragma once

#include "RedisConnection.h"
#include "RedisKind.h"
#include "core/SemaphoreStore.h"
#include "kinds/WaitQueueKind.h"
#include "topology/RedisTopology.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <map>
#include <memory>
#include <optional>

class QTimer;

namespace semscope::redis {

// The waiting acquires of one RedisSemaphoreStore (AcquireRequest::waitMs > 0):
// - layouts with a waiter queue (`leased`): the waiter subscribes to this store's notify channel for
//   the semaphore *before* its first attempt (so no hand-off can slip by unseen) and joins the FIFO
//   queue on that attempt. The release that frees a slot for it grants it in Redis and publishes the
//   grant on that channel, which completes the acquire: one attempt per grant. When the store made
//   that release itself, the grant comes back in the release's reply (deliverHandOff) and nothing
//   is published. The waiter retries only at the lease expiry that would make room for it (nobody
//   releases a crashed holder's slot), to renew its waiter lease, or after the subscription was
//   re-established (hand-offs may have been lost; the retry picks up a slot handed to it). No
//   polling.
// - other layouts: retries at the earliest lease expiry the layout reports, or with a capped
//   backoff (25 ms doubling to 1 s) when it reports none.
// Cancellation is noticed within 100 ms (a local check, no Redis traffic); a waiter that gives up
// leaves the queue before its caller hears. Each waiter's commands go through the topology of the
// store it waits in; the subscriptions use one more connection in pub/sub mode, opened on first need.
//
// Several stores of one thread on the same server may share one object (RedisSemaphoreStore's
// sharing constructor): one notify tag and one pub/sub connection for all of them, so a release by
// any of them hands a slot to a waiter of any of them in its own reply, with nothing published.
class WaitingAcquires : public QObject {
public:
    // `notifyTag` names the store's notify channels (WaitQueueKind::notifyChannel); `settings` are
    // those of the pub/sub connection.
    WaitingAcquires(ConnectionSettings settings, QByteArray notifyTag, QObject *parent = nullptr);
    ~WaitingAcquires() override;

    const QByteArray &notifyTag() const { return m_notifyTag; }

    // Waits for a slot of `ref` until the request's wait ends, sending its attempts through `conn`;
    // `req` names its holder already.
    void wait(topology::RedisTopology &conn, RedisKind *kind, const core::SemaphoreRef &ref,
              const core::AcquireRequest &req, core::Cancellation cancel,
              core::Callback<core::AcquireResult> done);
    // Drops the waiters whose attempts go through `conn` unanswered: their store is going.
    void forget(const topology::RedisTopology &conn);
    // A slot the store's own release freed for one of these waiters (it came back in the reply).
    void deliverHandOff(const QString &semaphore, const WaitQueueKind::HandOff &h);
    // Drops every waiter unanswered and closes the pub/sub connection: the store is going, and
    // replies its connections still deliver while they close must reach nobody.
    void shutDown();
    // The store's one pub/sub connection (opened on first use): the waiters' notify channels, and
    // the release channels the store watches for its callers (RedisSemaphoreStore::watchReleases).
    RedisConnection &pubsub();

private:
    struct Waiter;
    struct Channel;

    void startWaiting(std::unique_ptr<Waiter> waiter);
    void attempt(quint64 id);
    void onAttemptResult(quint64 id, core::AcquireResult result, qint64 ticket);
    core::AcquireResult grantFromHandOff(const Waiter &w, const WaitQueueKind::HandOff &h) const;
    void onReleaseMessage(const QByteArray &channel, const QByteArray &message);
    void deliverHandOff(const Channel &ch, const WaitQueueKind::HandOff &h);
    void onSubscribed(const QByteArray &channel);
    void scheduleRetry(Waiter &w, qint64 delayMs);
    void cancelRetry(Waiter &w);
    void armRetryTimer();
    void onRetryTimer();
    void onCancelCheck();
    void finishWaiter(quint64 id, core::AcquireResult result, bool leaveQueue);
    // Takes a waiter out of the bookkeeping (its entry, channel and retry) and hands it over.
    std::unique_ptr<Waiter> takeWaiter(quint64 id);

    ConnectionSettings m_settings;
    std::unique_ptr<RedisConnection> m_pubsub;
    std::map<quint64, std::unique_ptr<Waiter>> m_waiters;
    QHash<QByteArray, std::shared_ptr<Channel>> m_channels;
    QByteArray m_notifyTag;                      // names the store's notify channels
    QHash<QString, QByteArray> m_notifyChannels; // semaphore name -> its notify channel
    QElapsedTimer m_clock;
    std::multimap<qint64, quint64> m_retries; // due (m_clock ms) -> waiter
    QTimer *m_retryTimer = nullptr;           // children, so they follow the store to another thread
    QTimer *m_cancelTimer = nullptr;
    quint64 m_nextWaiterId = 1;
    bool m_shuttingDown = false;
};

} // namespace semscope::redis
