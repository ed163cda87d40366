#include "ZsetSkewedClocksStore.h"

namespace semscope::redis {

using namespace semscope::core;

void ZsetSkewedClocksStore::doAcquire(const SemaphoreRef &ref, const AcquireRequest &request, Cancellation,
                                      Callback<AcquireResult> done) {
    const QByteArray key = ref.name.toUtf8();
    const QString holder = holderFor(request);
    const QByteArray id = holder.toUtf8();
    const qint64 limit = ref.profile.limit.value_or(1);
    const qint64 skew = request.clientClockSkewMs;
    const qint64 ttl = request.ttlMs;
    const qint64 expiry = clientNowMs(skew) + ttl;

    command({"ZADD", key, QByteArray::number(expiry), id}, [=, this](const RedisReply &add) {
        if (add.isError())
            return done(errorResult(QStringLiteral("ZADD %1").arg(ref.name), add));
        pause([=, this] {
            command({"ZREMRANGEBYSCORE", key, "0", QByteArray::number(clientNowMs(skew))},
                    [=, this](const RedisReply &purge) {
                        if (purge.isError())
                            return done(
                                errorResult(QStringLiteral("ZREMRANGEBYSCORE %1").arg(ref.name), purge));
                        command({"ZRANK", key, id}, [=, this](const RedisReply &rank) {
                            if (rank.isError())
                                return done(errorResult(QStringLiteral("ZRANK %1").arg(ref.name), rank));
                            // The seed compares rank > limit - 1. A nil rank (someone purged our
                            // entry already) would throw in the seed; here it is a failed attempt.
                            if (rank.isInteger() && rank.integer <= limit - 1) {
                                AcquireResult granted = grantedResult(ref, holder);
                                granted.grant.rank = rank.integer;
                                granted.grant.expiresAtMs = expiry;
                                granted.grant.details.insert(QStringLiteral("skewMs"), skew);
                                return done(granted);
                            }
                            command({"ZREM", key, id}, [=](const RedisReply &) { done(busyResult()); });
                        });
                    });
        });
    });
}

void ZsetSkewedClocksStore::doRefresh(const Grant &grant, qint64 ttlMs, Callback<RefreshResult> done) {
    // The seed has no refresh; a client extending its lease the same way would ZADD XX a new
    // expiry from its own (skewed) clock, without checking anything.
    const qint64 skew = grant.details.value(QStringLiteral("skewMs")).toLongLong();
    const qint64 expiry = clientNowMs(skew) + ttlMs;
    command({"ZADD", grant.ref.name.toUtf8(), "XX", QByteArray::number(expiry), grant.rawHolder},
            [done, expiry](const RedisReply &r) {
                RefreshResult result;
                result.status = r.isError() ? RefreshResult::Status::Error : RefreshResult::Status::Ok;
                if (r.isError())
                    result.error = QStringLiteral("ZADD XX: ") + r.errorMessage();
                else
                    result.expiresAtMs = expiry;
                done(result);
            });
}

void ZsetSkewedClocksStore::doRelease(const Grant &grant, Callback<ReleaseResult> done) {
    command({"ZREM", grant.ref.name.toUtf8(), grant.rawHolder}, [done](const RedisReply &r) {
        ReleaseResult result;
        if (r.isError()) {
            result.status = ReleaseResult::Status::Error;
            result.error = QStringLiteral("ZREM: ") + r.errorMessage();
        } else {
            result.status = r.integer > 0 ? ReleaseResult::Status::Ok : ReleaseResult::Status::NotHeld;
        }
        done(result);
    });
}

} // namespace semscope::redis
