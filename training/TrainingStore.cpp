#include "TrainingStore.h"

#include <QDateTime>
#include <QUuid>

namespace semscope::redis {

using namespace semscope::core;

TrainingStore::TrainingStore(ConnectionSettings settings, int raceWindowMs, QObject *parent)
    : SemaphoreStore(parent)
    , m_inner(std::make_unique<RedisSemaphoreStore>(std::move(settings)))
    , m_raceWindowMs(std::max(0, raceWindowMs)) {
    connect(m_inner.get(), &SemaphoreStore::connectionStateChanged, this,
            &SemaphoreStore::connectionStateChanged);
}

TrainingStore::~TrainingStore() {
    *m_alive = false;
}

void TrainingStore::command(const QList<QByteArray> &args, std::function<void(const RedisReply &)> callback) {
    // Routed by slot, so the seeds' sequences also run against a Redis Cluster.
    m_inner->topology().command(args,
                                [alive = m_alive, callback = std::move(callback)](const RedisReply &reply) {
                                    if (*alive)
                                        callback(reply);
                                });
}

void TrainingStore::pipeline(const QList<QList<QByteArray>> &commands,
                             std::function<void(const QList<RedisReply> &)> callback) {
    m_inner->topology().pipeline(
        commands, [alive = m_alive, callback = std::move(callback)](const QList<RedisReply> &replies) {
            if (*alive)
                callback(replies);
        });
}

void TrainingStore::eval(const LuaScript &script, const QList<QByteArray> &keys,
                         const QList<QByteArray> &args, std::function<void(const RedisReply &)> callback) {
    m_inner->topology().eval(script, keys, args,
                             [alive = m_alive, callback = std::move(callback)](const RedisReply &reply) {
                                 if (*alive)
                                     callback(reply);
                             });
}

void TrainingStore::discover(const DiscoverRequest &request, Cancellation cancel,
                             Callback<DiscoverProgress> progress, Callback<DiscoverResult> done) {
    m_inner->discover(request, cancel, std::move(progress), std::move(done));
}

void TrainingStore::snapshot(const SemaphoreRef &ref, Callback<Snapshot> done) {
    m_inner->snapshot(ref, std::move(done));
}

void TrainingStore::doForceRelease(const SemaphoreRef &ref, const Holder &observed,
                                   std::optional<qint64> observedVersion, Callback<ForceReleaseResult> done) {
    m_inner->forceRelease(ref, observed, observedVersion, std::move(done));
}

void TrainingStore::doPurgeExpired(const SemaphoreRef &ref, Callback<MaintenanceResult> done) {
    m_inner->purgeExpired(ref, std::move(done));
}

void TrainingStore::doRepair(const SemaphoreRef &ref, Callback<MaintenanceResult> done) {
    m_inner->repair(ref, std::move(done));
}

void TrainingStore::doSetLimit(const SemaphoreRef &ref, qint64 limit, Callback<MaintenanceResult> done) {
    m_inner->setLimit(ref, limit, std::move(done));
}

void TrainingStore::pause(std::function<void()> next) {
    QTimer::singleShot(m_raceWindowMs, Qt::PreciseTimer, this, std::move(next));
}

qint64 TrainingStore::clientNowMs(qint64 skewMs) {
    return QDateTime::currentMSecsSinceEpoch() + skewMs;
}

AcquireResult TrainingStore::errorResult(const QString &what, const RedisReply &reply) {
    AcquireResult r;
    r.status = AcquireResult::Status::Error;
    r.attempts = 1;
    r.error = what + QStringLiteral(": ") + reply.errorMessage();
    return r;
}

AcquireResult TrainingStore::busyResult() {
    AcquireResult r;
    r.status = AcquireResult::Status::Busy;
    r.attempts = 1;
    return r;
}

AcquireResult TrainingStore::grantedResult(const SemaphoreRef &ref, const QString &holder) {
    AcquireResult r;
    r.status = AcquireResult::Status::Granted;
    r.attempts = 1;
    r.grant.ref = ref;
    r.grant.holder = holder;
    r.grant.rawHolder = holder.toUtf8();
    return r;
}

QString TrainingStore::holderFor(const AcquireRequest &request) {
    if (!request.holder.isEmpty())
        return request.holder;
    return QUuid::createUuid().toString(QUuid::WithoutBraces);
}

} // namespace semscope::redis
