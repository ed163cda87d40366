#pragma once

#include "HoldInterval.h"
#include "LatencyHistogram.h"
#include "LoadTestConfig.h"
#include "core/Cancellation.h"
#include "core/SemaphoreStore.h"

#include <QObject>
#include <QStringList>
#include <QThread>
#include <QTimer>
#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <vector>

namespace semscope::core {

// Counters every worker updates and the engine reads for live progress.
struct LoadTestCounters {
    std::atomic<qint64> grants{0};
    std::atomic<qint64> attempts{0};
    std::atomic<qint64> busy{0};
    std::atomic<qint64> errors{0};
    std::atomic<qint64> releases{0};
    std::atomic<qint64> notHeld{0};
    std::atomic<qint64> retryWakes{0}; // retry pauses a release ended early
    std::atomic<qint64> refreshes{0};
    std::atomic<qint64> lostRefreshes{0};
    std::atomic<qint64> failoverInterruptions{0};
    std::atomic<qint64> replicationRefusals{0}; // isReplicationRefusal
    std::atomic<qint64> crashes{0};
    std::atomic<int> holders{0};
    std::atomic<int> crashedSlots{0}; // LoadTestProgress::crashedSlots
    std::atomic<int> maxHolders{0};
    std::atomic<qint64> liveOverAdmissions{0};
    std::atomic<qint64> pairsDone{0};
    // --ops: pairs begun (an acquire sent for them), never more than ops, so a run ends on exactly
    // ops pairs however many clients are busy when the last one is begun.
    std::atomic<qint64> pairsBegun{0};
    std::atomic<bool> stopping{false};
    std::chrono::steady_clock::time_point origin = std::chrono::steady_clock::now();

    qint64 nowNs() const {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - origin)
            .count();
    }
};

// The clients of one worker thread and the stores they share. Lives in its worker thread; every
// slot is invoked queued from the engine. Statistics that the engine reads while the run goes on
// are behind `statsMutex`; everything else is read only after the thread has stopped.
class LoadTestWorker : public QObject {
    Q_OBJECT
public:
    struct ClientPlan {
        int id = 0;
        QString holder;
        qint64 skewMs = 0;
        bool crasher = false;
        qint64 crashAfterNs = 0; // crash while holding the first grant received after this time
    };

    LoadTestWorker(int index, LoadTestConfig config, StoreFactory factory, std::vector<ClientPlan> clients,
                   int storeCount, LoadTestCounters *counters);
    ~LoadTestWorker() override;

    // Live statistics (under statsMutex).
    std::mutex statsMutex;
    LatencyHistogram waitWindow; // reset by the engine at each progress sample

    // Final results, read after the thread stopped.
    LatencyHistogram acquireWait;
    LatencyHistogram acquireLatency;
    LatencyHistogram releaseLatency;
    QList<HoldInterval> intervals;
    QList<qint64> grantsPerClient; // index = position in the client list
    QList<bool> crashedClients;
    qint64 longestWaitNs = 0;
    QStringList errorSamples;
    QString setupError;
    QString endpoint;

public Q_SLOTS:
    void setUp();                   // makes the stores; emits ready()
    void setLimit(int limit);       // on the first store; emits limitSet()
    void probeLimit();              // reads the stored limit on the first store; emits limitProbed()
    void go();                      // starts every client
    void stop();                    // releases what is held, cancels waits; emits drained() when idle
    void tearDown(QThread *backTo); // destroys stores, hands this object back, quits the thread

Q_SIGNALS:
    void ready(int index, const QString &error);
    void limitSet(const QString &error);
    void limitProbed(qint64 storedLimit); // -1: none stored, or it could not be read
    void drained(int index);
    void opsReached();

private:
    enum class State { Idle, Thinking, Acquiring, Holding, Releasing, Done };
    using Step = void (LoadTestWorker::*)(int);
    struct Client {
        ClientPlan plan;
        SemaphoreStore *store = nullptr;
        State state = State::Idle;
        QTimer *stepTimer = nullptr;    // think, hold, retry
        QTimer *refreshTimer = nullptr; // lease refresh while holding
        Step nextStep = nullptr;
        Cancellation cancel;
        Grant grant;
        qint64 waitStartNs = -1;
        qint64 sentNs = 0;
        qint64 grantNs = 0;
        qint64 validUntilNs = 0;
        bool crashing = false;
        bool crashed = false;
        bool pairBegun = false;  // --ops: this client holds one of the ops being done (pairsBegun)
        bool retryPause = false; // sleeping after a Busy reply (retry mode); a release may wake it
        quint64 pauseSeq = 0;    // which of its pauses an entry of m_retrySleepers is about
    };

    // Runs `step` for client `i` after `delayNs` (at once, without a timer, when 0).
    void schedule(int i, qint64 delayNs, Step step);
    void think(int i);
    void beginAcquire(int i);
    bool beginPair(); // --ops: takes one of the pairs left to begin, false when none is left
    void onAcquired(int i, const AcquireResult &result);
    void refresh(int i);
    void endHold(int i);
    void vanish(int i);
    void closeInterval(int i, qint64 endNs, bool crashed);
    void finishClient(int i);
    void checkDrained();
    void noteError(const QString &message);
    void pauseForRetry(int i);
    void wakeOneRetrier();
    qint64 marginNs() const;

    int m_index;
    LoadTestConfig m_config;
    StoreFactory m_factory;
    int m_storeCount;
    LoadTestCounters *m_counters;
    std::vector<std::unique_ptr<SemaphoreStore>> m_stores;
    std::vector<Client> m_clients;
    std::mt19937_64 m_rng;
    // Clients in a retry pause, longest first (entries whose pause already ended are skipped).
    std::deque<std::pair<int, quint64>> m_retrySleepers; // client, pauseSeq
    bool m_wakeOnRelease = false;                        // retry mode on a kind that notifies releases
    // The first store hears the kind's release notification, so every release wakes a sleeper here,
    // whoever made it; otherwise (a store without notifications) only this worker's own releases do.
    bool m_hearsReleases = false;
    int m_done = 0;
    int m_depth = 0; // nesting of steps run without a timer, to keep the stack flat
    bool m_drainedSent = false;
    bool m_tearingDown = false;
};

} // namespace semscope::core
