#pragma once

#include "ConsulClient.h"
#include "PrefixView.h"
#include "core/Cancellation.h"
#include "core/SemaphoreStore.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <optional>

namespace semscope::consul {

class ConsulSemaphoreStore;

// One acquire of a Consul semaphore slot, following Consul's Go client
// (hashicorp/consul api/semaphore.go, Semaphore.Acquire):
// session (TTL, behaviour delete) -> read the prefix -> prune dead holders -> if a slot is free,
// one /v1/txn that takes the contender key with the session and CASes `.lock` with the holder
// added (in the dialect it was read, with its flags) -> otherwise write the contender key and wait
// on a blocking query until the prefix changes. Deletes itself when done.
//
// With a wait, the whole acquire ends by then: when the time is up the request in flight is
// aborted and the answer is Busy (with the holders last seen) if the semaphore was seen full, or
// an error if Consul never answered that far.
//
// An acquire that ends without a grant answers only once its session is destroyed (behaviour
// delete: its contender key goes with it), or after kSessionCleanupMs for an agent that stopped
// answering: a caller that ends the process right after the answer (semscope-cli on Ctrl-C during
// `acquire --wait`, or after printing "busy") left the session and a "waiting" contender key behind.
class ConsulAcquire : public QObject {
public:
    static constexpr int kSessionCleanupMs = 1000;

    ConsulAcquire(ConsulSemaphoreStore *store, const core::SemaphoreRef &ref,
                  const core::AcquireRequest &request, core::Cancellation cancel,
                  core::Callback<core::AcquireResult> done);
    void start();

private:
    void createSession();
    void read();
    void onView(const PrefixView &view);
    void take(const PrefixView &view, const QStringList &liveHolders, qint64 limit);
    void writeContender(const PrefixView &view);
    void waitForChange(const PrefixView &view);
    QByteArray contenderValue(const char *state) const;
    void onDeadline();
    core::AcquireResult busyResult(const QStringList &liveHolders) const;
    void fail(const QString &message);
    void finish(core::AcquireResult result);
    void answer(core::AcquireResult result);
    void answerPending();
    qint64 remainingMs() const;
    void checkCancelled();

    ConsulSemaphoreStore *m_store;
    ConsulClient &m_client;
    core::SemaphoreRef m_ref;
    QString m_prefix;
    core::AcquireRequest m_request;
    core::Cancellation m_cancel;
    core::Callback<core::AcquireResult> m_done;
    QString m_sid;
    QString m_sessionName;
    bool m_contenderWritten = false;
    quint64 m_waitIndex = 0;
    int m_attempts = 0;
    int m_raceRetries = 0;
    int m_readRetries = 0;
    bool m_finished = false;
    std::optional<ConsulClient::RequestId> m_inflight;
    QElapsedTimer m_elapsed;
    QTimer m_cancelTimer;
    QTimer m_deadline;
    std::optional<core::AcquireResult> m_pending; // said once the session is destroyed
    std::optional<QStringList> m_lastSeenFull;    // holders when the semaphore was last seen full
};

} // namespace semscope::consul
