#include "IncrLockStore.h"

namespace semscope::redis {

using namespace semscope::core;

void IncrLockStore::doAcquire(const SemaphoreRef &ref, const AcquireRequest &request, Cancellation,
                              Callback<AcquireResult> done) {
    const QString holder = holderFor(request);
    if (m_initialised.contains(ref.name)) {
        getLock(ref, holder, std::move(done));
        return;
    }
    // initLock(key, expire): a node starting up resets the counter, whoever holds it right now.
    m_initialised.insert(ref.name);
    command({"SET", ref.name.toUtf8(), "0", "PX", QByteArray::number(std::max<qint64>(1, request.ttlMs))},
            [=, this](const RedisReply &r) {
                if (r.isError())
                    return done(errorResult(QStringLiteral("SET %1 0").arg(ref.name), r));
                getLock(ref, holder, done);
            });
}

void IncrLockStore::getLock(const SemaphoreRef &ref, const QString &holder, Callback<AcquireResult> done) {
    const QByteArray key = ref.name.toUtf8();
    const qint64 range = ref.profile.limit.value_or(1);
    command({"INCR", key}, [=, this](const RedisReply &incr) {
        if (!incr.isInteger())
            return done(errorResult(QStringLiteral("INCR %1").arg(ref.name), incr));
        if (incr.integer <= range) {
            AcquireResult granted = grantedResult(ref, holder);
            granted.grant.slot = incr.integer;
            return done(granted);
        }
        // finally { releaseLock(key); } runs for the losers too.
        pause([=, this] { command({"DEL", key}, [done](const RedisReply &) { done(busyResult()); }); });
    });
}

void IncrLockStore::doRefresh(const Grant &grant, qint64 ttlMs, Callback<RefreshResult> done) {
    // The counter's expiry is the only lease there is; keeping it alive is all a holder can do.
    command({"PEXPIRE", grant.ref.name.toUtf8(), QByteArray::number(std::max<qint64>(1, ttlMs))},
            [done](const RedisReply &r) {
                RefreshResult result;
                if (r.isError()) {
                    result.error = QStringLiteral("PEXPIRE: ") + r.errorMessage();
                } else {
                    // 0: the counter is gone (someone DELeted it); the holder cannot tell more.
                    result.status = r.integer > 0 ? RefreshResult::Status::Ok : RefreshResult::Status::Lost;
                }
                done(result);
            });
}

void IncrLockStore::doRelease(const Grant &grant, Callback<ReleaseResult> done) {
    command({"DEL", grant.ref.name.toUtf8()}, [done](const RedisReply &r) {
        ReleaseResult result;
        if (r.isError()) {
            result.error = QStringLiteral("DEL: ") + r.errorMessage();
        } else {
            result.status = r.integer > 0 ? ReleaseResult::Status::Ok : ReleaseResult::Status::NotHeld;
        }
        done(result);
    });
}

} // namespace semscope::redis
