#pragma once

#include "redis/RedisSemaphoreStore.h"

#include <QTimer>
#include <memory>

namespace semscope::redis {

// Base of the training scenarios: a core::SemaphoreStore whose acquire/refresh/release replay a
// seed's *unsafe* command sequence round trip by round trip, so that the load tester can show
// what goes wrong. Reads and maintenance (discover, snapshot, force-release, purge, repair, set
// limit) go to the atomic kind of the same layout through an inner RedisSemaphoreStore, whose
// connection the replayed commands share (one connection per store).
//
// The race window: the seeds' sequences are racy because other clients' commands can run between
// two of their round trips. On a quiet loopback that gap is tens of microseconds and a race is
// rare; `raceWindowMs` inserts a pause at the point in the sequence where a real client could be
// descheduled, paused by GC or delayed by the network, so the race shows up in a short run.
class TrainingStore : public core::SemaphoreStore {
    Q_OBJECT
public:
    TrainingStore(ConnectionSettings settings, int raceWindowMs, QObject *parent = nullptr);
    ~TrainingStore() override;

    QString endpoint() const override { return m_inner->endpoint(); }
    core::Backend backend() const override { return core::Backend::Redis; }
    int raceWindowMs() const { return m_raceWindowMs; }
    RedisConnection &connection() { return m_inner->connection(); }

    void discover(const core::DiscoverRequest &request, core::Cancellation cancel,
                  core::Callback<core::DiscoverProgress> progress,
                  core::Callback<core::DiscoverResult> done) override;
    void snapshot(const core::SemaphoreRef &ref, core::Callback<core::Snapshot> done) override;

protected:
    // The writes, reached through core::SemaphoreStore's read-only gate.
    void doForceRelease(const core::SemaphoreRef &ref, const core::Holder &observed,
                        std::optional<qint64> observedVersion,
                        core::Callback<core::ForceReleaseResult> done) override;
    void doPurgeExpired(const core::SemaphoreRef &ref, core::Callback<core::MaintenanceResult> done) override;
    void doRepair(const core::SemaphoreRef &ref, core::Callback<core::MaintenanceResult> done) override;
    void doSetLimit(const core::SemaphoreRef &ref, qint64 limit,
                    core::Callback<core::MaintenanceResult> done) override;

    // Runs `next` after the race window (at once when it is 0, still from the event loop).
    void pause(std::function<void()> next);
    // The client's wall clock, off by `skewMs` (the seeds score ZSETs with their own clocks).
    static qint64 clientNowMs(qint64 skewMs);
    static core::AcquireResult errorResult(const QString &what, const RedisReply &reply);
    static core::AcquireResult busyResult();
    static core::AcquireResult grantedResult(const core::SemaphoreRef &ref, const QString &holder);
    // Holder ids: the request's, or a fresh unique one (the seeds use UUIDs / ObjectIds).
    QString holderFor(const core::AcquireRequest &request);
    // The connection's commands, except that replies arriving while the store is being destroyed
    // are dropped (the subclass is gone by then).
    void command(const QList<QByteArray> &args, std::function<void(const RedisReply &)> callback);
    void pipeline(const QList<QList<QByteArray>> &commands,
                  std::function<void(const QList<RedisReply> &)> callback);
    void eval(const LuaScript &script, const QList<QByteArray> &keys, const QList<QByteArray> &args,
              std::function<void(const RedisReply &)> callback);

private:
    std::unique_ptr<RedisSemaphoreStore> m_inner;
    int m_raceWindowMs;
    std::shared_ptr<bool> m_alive = std::make_shared<bool>(true);
};

} // namespace semscope::redis
