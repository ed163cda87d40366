#include "SetDelLockStore.h"

namespace semscope::redis {

using namespace semscope::core;

namespace {
QByteArray seconds(qint64 ms) {
    return QByteArray::number(std::max<qint64>(1, (ms + 999) / 1000));
}
} // namespace

void SetDelLockStore::doAcquire(const SemaphoreRef &ref, const AcquireRequest &request, Cancellation,
                                Callback<AcquireResult> done) {
    const QByteArray key = ref.name.toUtf8();
    const QString holder = holderFor(request);
    const qint64 ttl = request.ttlMs;
    command({"HGET", key, key}, [=, this](const RedisReply &look) {
        if (look.isError())
            return done(errorResult(QStringLiteral("HGET %1").arg(ref.name), look));
        if (!look.isNil())
            return done(busyResult());
        pause([=, this] {
            pipeline({{"HSET", key, key, holder.toUtf8()}, {"EXPIRE", key, seconds(ttl)}},
                     [=](const QList<RedisReply> &set) {
                         for (const RedisReply &r : set)
                             if (r.isError())
                                 return done(errorResult(QStringLiteral("HSET/EXPIRE %1").arg(ref.name), r));
                         done(grantedResult(ref, holder));
                     });
        });
    });
}

void SetDelLockStore::doRefresh(const Grant &grant, qint64 ttlMs, Callback<RefreshResult> done) {
    command({"EXPIRE", grant.ref.name.toUtf8(), seconds(ttlMs)}, [done](const RedisReply &r) {
        RefreshResult result;
        if (r.isError())
            result.error = QStringLiteral("EXPIRE: ") + r.errorMessage();
        else
            result.status = r.integer > 0 ? RefreshResult::Status::Ok : RefreshResult::Status::Lost;
        done(result);
    });
}

void SetDelLockStore::doRelease(const Grant &grant, Callback<ReleaseResult> done) {
    command({"DEL", grant.ref.name.toUtf8()}, [done](const RedisReply &r) {
        ReleaseResult result;
        if (r.isError())
            result.error = QStringLiteral("DEL: ") + r.errorMessage();
        else
            result.status = r.integer > 0 ? ReleaseResult::Status::Ok : ReleaseResult::Status::NotHeld;
        done(result);
    });
}

void SetDelLockStore::snapshot(const SemaphoreRef &ref, Callback<Snapshot> done) {
    const QByteArray key = ref.name.toUtf8();
    pipeline({{"HGET", key, key}, {"PTTL", key}, {"TIME"}}, [ref, done](const QList<RedisReply> &replies) {
        Snapshot snap;
        snap.ref = ref;
        snap.limit = 1;
        snap.limitSource = LimitSource::Stored;
        snap.keys = {ref.name};
        if (replies.size() != 3) {
            snap.warnings << QStringLiteral("incomplete reply");
            return done(snap);
        }
        const RedisReply &value = replies[0];
        if (value.isError()) {
            snap.warnings << QStringLiteral("HGET: ") + value.errorMessage();
            return done(snap);
        }
        const RedisReply &time = replies[2];
        if (time.isArray() && time.elements.size() == 2)
            snap.serverNowMs = time.elements[0].toInteger().value_or(0) * 1000 +
                               time.elements[1].toInteger().value_or(0) / 1000;
        if (value.isString()) {
            Holder h;
            h.rawId = value.str.left(256);
            h.id = QString::fromUtf8(h.rawId);
            if (replies[1].isInteger() && replies[1].integer >= 0)
                h.expiresAtMs = snap.serverNowMs + replies[1].integer;
            else
                snap.warnings << QStringLiteral("the lock has no expiry");
            snap.holders << h;
        }
        done(snap);
    });
}

} // namespace semscope::redis
