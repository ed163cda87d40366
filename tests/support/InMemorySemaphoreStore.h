#pragma once

#include "core/RawKeys.h"
#include "core/SemaphoreStore.h"

#include <QHash>
#include <QTimer>
#include <memory>
#include <mutex>

namespace semscope::test {

// What several InMemorySemaphoreStore objects share, like one Redis server shared by several
// connections. Every operation on it is one step under one mutex, so it is a *correct* semaphore:
// never more holders than the limit, fencing tokens rising strictly, leases running out after
// their TTL (steady clock). Thread-safe: stores in different threads may share one.
class InMemorySemaphoreServer {
public:
    struct Entry {
        qint64 expiresAtMs = 0;
        qint64 acquiredAtMs = 0;
        qint64 token = 0;
    };
    struct Semaphore {
        qint64 limit = 1;
        bool limitStored = false;
        qint64 fence = 0;
        QHash<QString, Entry> holders;
    };

    qint64 nowMs() const;
    std::mutex mutex;
    QHash<QString, Semaphore> semaphores; // by name
    qint64 acquireCalls = 0;              // for tests that count round trips
    qint64 startedAtMs = nowMs();

    // Drops holders whose lease has run out.
    static void purge(Semaphore &s, qint64 now);
};

// A core::SemaphoreStore kept in memory, for tests of everything above the store (the load-test
// engine, models) without a server. Callbacks run later, on the store's thread, as the interface
// requires. Waiting acquires retry on a short timer until the wait or the cancellation ends.
class InMemorySemaphoreStore : public core::SemaphoreStore, public core::RawKeySource {
    Q_OBJECT
public:
    explicit InMemorySemaphoreStore(std::shared_ptr<InMemorySemaphoreServer> server,
                                    QObject *parent = nullptr);

    QString endpoint() const override { return QStringLiteral("memory://test"); }
    core::Backend backend() const override { return core::Backend::Redis; }

    void discover(const core::DiscoverRequest &request, core::Cancellation cancel,
                  core::Callback<core::DiscoverProgress> progress,
                  core::Callback<core::DiscoverResult> done) override;
    void snapshot(const core::SemaphoreRef &ref, core::Callback<core::Snapshot> done) override;
    // One "key" per semaphore: its limit and fence as the value, its holders as rows.
    void readRawKeys(const core::SemaphoreRef &ref, std::function<void(core::RawKeys)> done) override;

    const std::shared_ptr<InMemorySemaphoreServer> &server() const { return m_server; }

protected:
    // The writes, reached through core::SemaphoreStore's read-only gate.
    void doAcquire(const core::SemaphoreRef &ref, const core::AcquireRequest &request,
                   core::Cancellation cancel, core::Callback<core::AcquireResult> done) override;
    void doRefresh(const core::Grant &grant, qint64 ttlMs, core::Callback<core::RefreshResult> done) override;
    void doRelease(const core::Grant &grant, core::Callback<core::ReleaseResult> done) override;
    void doForceRelease(const core::SemaphoreRef &ref, const core::Holder &observed,
                        std::optional<qint64> observedVersion,
                        core::Callback<core::ForceReleaseResult> done) override;
    void doPurgeExpired(const core::SemaphoreRef &ref, core::Callback<core::MaintenanceResult> done) override;
    void doRepair(const core::SemaphoreRef &ref, core::Callback<core::MaintenanceResult> done) override;
    void doSetLimit(const core::SemaphoreRef &ref, qint64 limit,
                    core::Callback<core::MaintenanceResult> done) override;

    // Runs `f` later on this store's thread (a reply arriving).
    template <typename F>
    void later(F &&f) {
        QMetaObject::invokeMethod(this, std::forward<F>(f), Qt::QueuedConnection);
    }
    // One acquire attempt, atomically.
    core::AcquireResult tryAcquire(const core::SemaphoreRef &ref, const QString &holder, qint64 ttlMs);

private:
    void attempt(const core::SemaphoreRef &ref, const core::AcquireRequest &request,
                 core::Cancellation cancel, qint64 deadlineMs, int attempts,
                 core::Callback<core::AcquireResult> done);

    std::shared_ptr<InMemorySemaphoreServer> m_server;
    qint64 m_nextId = 0;
};

} // namespace semscope::test
