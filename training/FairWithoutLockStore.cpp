#include "FairWithoutLockStore.h"

namespace semscope::redis {

using namespace semscope::core;

namespace {
QByteArray num(qint64 v) {
    return QByteArray::number(v);
}
} // namespace

void FairWithoutLockStore::doAcquire(const SemaphoreRef &ref, const AcquireRequest &request, Cancellation,
                                     Callback<AcquireResult> done) {
    const QByteArray sem = ref.name.toUtf8();
    const QByteArray czet = sem + ":owner";
    const QByteArray ctr = sem + ":counter";
    const QString holder = holderFor(request);
    const QByteArray id = holder.toUtf8();
    const qint64 limit = ref.profile.limit.value_or(1);
    // The seed scores by time.Now().Unix() and purges what is older than its timeout.
    const qint64 timeoutS = std::max<qint64>(1, ref.profile.timeoutMs.value_or(request.ttlMs) / 1000);
    const qint64 skew = request.clientClockSkewMs;

    const qint64 nowS = clientNowMs(skew) / 1000;
    pipeline({{"ZREMRANGEBYSCORE", sem, "0", num(nowS - timeoutS)},
              {"ZINTERSTORE", czet, "2", czet, sem, "WEIGHTS", "1", "0"}},
             [=, this](const QList<RedisReply> &purge) {
                 for (const RedisReply &r : purge)
                     if (r.isError())
                         return done(errorResult(QStringLiteral("purge of %1").arg(ref.name), r));
                 command({"INCR", ctr}, [=, this](const RedisReply &incr) {
                     if (!incr.isInteger())
                         return done(
                             errorResult(QStringLiteral("INCR %1").arg(QString::fromUtf8(ctr)), incr));
                     const qint64 counter = incr.integer;
                     pause([=, this] {
                         const qint64 addS = clientNowMs(skew) / 1000;
                         pipeline({{"ZADD", sem, num(addS), id}, {"ZADD", czet, num(counter), id}},
                                  [=, this](const QList<RedisReply> &adds) {
                                      for (const RedisReply &r : adds)
                                          if (r.isError())
                                              return done(errorResult(QStringLiteral("ZADD"), r));
                                      command({"ZRANK", czet, id}, [=, this](const RedisReply &rank) {
                                          if (rank.isInteger() && rank.integer < limit) {
                                              AcquireResult granted = grantedResult(ref, holder);
                                              granted.grant.token = counter;
                                              granted.grant.rank = rank.integer;
                                              granted.grant.expiresAtMs = (addS + timeoutS) * 1000;
                                              granted.grant.details.insert(QStringLiteral("skewMs"), skew);
                                              return done(granted);
                                          }
                                          if (rank.isError())
                                              return done(errorResult(QStringLiteral("ZRANK"), rank));
                                          pipeline({{"ZREM", sem, id}, {"ZREM", czet, id}},
                                                   [=](const QList<RedisReply> &) { done(busyResult()); });
                                      });
                                  });
                     });
                 });
             });
}

void FairWithoutLockStore::doRefresh(const Grant &grant, qint64, Callback<RefreshResult> done) {
    // The seed refreshes with ZADD XX and only looks at the error, never at whether it still holds.
    const qint64 nowS = clientNowMs(grant.details.value(QStringLiteral("skewMs")).toLongLong()) / 1000;
    command({"ZADD", grant.ref.name.toUtf8(), "XX", num(nowS), grant.rawHolder}, [done](const RedisReply &r) {
        RefreshResult result;
        result.status = r.isError() ? RefreshResult::Status::Error : RefreshResult::Status::Ok;
        result.error = r.isError() ? QStringLiteral("ZADD XX: ") + r.errorMessage() : QString();
        done(result);
    });
}

void FairWithoutLockStore::doRelease(const Grant &grant, Callback<ReleaseResult> done) {
    const QByteArray sem = grant.ref.name.toUtf8();
    pipeline({{"ZREM", sem, grant.rawHolder}, {"ZREM", sem + ":owner", grant.rawHolder}},
             [done](const QList<RedisReply> &replies) {
                 ReleaseResult result;
                 if (replies.isEmpty() || replies.first().isError()) {
                     result.status = ReleaseResult::Status::Error;
                     result.error = QStringLiteral("ZREM: ") +
                                    (replies.isEmpty() ? QString() : replies.first().errorMessage());
                 } else {
                     result.status = replies.first().integer > 0 ? ReleaseResult::Status::Ok
                                                                 : ReleaseResult::Status::NotHeld;
                 }
                 done(result);
             });
}

} // namespace semscope::redis
