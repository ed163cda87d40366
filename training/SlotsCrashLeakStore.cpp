#include "SlotsCrashLeakStore.h"

namespace semscope::redis {

using namespace semscope::core;

namespace {

// The seed's scripts verbatim, except for the quoting slip in its Java string ("|list" was not
// escaped there, so the published source does not compile). Like the seed, they build the key
// names inside Lua from KEYS[1].
const char *const seedAcquire = R"lua(local resourceName = KEYS[1]
local listKey = resourceName .. "|list"
local mapKey = resourceName .. "|map"
local ip= ARGV[1]
local resourceCount = tonumber(ARGV[2])

local mapIndex = redis.call('hget', mapKey, ip)
if mapIndex ~= false then
    return 0
end
local mapLen = redis.call('hlen', mapKey)
if mapLen >= resourceCount then
    return -1
end
local listLen = redis.call('llen', listKey)
local currentTotalCount = mapLen + listLen
if currentTotalCount < resourceCount then
    local valueList = {}
    for i = currentTotalCount + 1, resourceCount do
        valueList[i - currentTotalCount] = i
    end
    redis.call('rpush', listKey, unpack(valueList))
end
local curIndex = redis.call('lpop', listKey)
redis.call('hset', mapKey, ip, tonumber(curIndex))
return tonumber(curIndex))lua";

const char *const seedRelease = R"lua(local resourceName = KEYS[1]
local listKey = resourceName .. "|list"
local mapKey = resourceName .. "|map"
local ip= ARGV[1]

local mapIndex = redis.call('hget', mapKey, ip)
if mapIndex == false then
    return -1
end
redis.call('hdel', mapKey, ip)
redis.call('rpush', listKey, tonumber(mapIndex))
return 1)lua";

} // namespace

SlotsCrashLeakStore::SlotsCrashLeakStore(ConnectionSettings settings, int raceWindowMs, QObject *parent)
    : TrainingStore(std::move(settings), raceWindowMs, parent)
    , m_acquire(QByteArray(seedAcquire))
    , m_release(QByteArray(seedRelease)) {}

void SlotsCrashLeakStore::doAcquire(const SemaphoreRef &ref, const AcquireRequest &request, Cancellation,
                                    Callback<AcquireResult> done) {
    const QString holder = holderFor(request);
    const qint64 count = ref.profile.limit.value_or(1);
    eval(m_acquire, {ref.name.toUtf8()}, {holder.toUtf8(), QByteArray::number(count)},
         [=](const RedisReply &r) {
             if (!r.isInteger())
                 return done(errorResult(QStringLiteral("slot acquire on %1").arg(ref.name), r));
             if (r.integer < 0)
                 return done(busyResult());
             // 0: this holder already has a slot (the seed treats that as "locked by me").
             AcquireResult granted = grantedResult(ref, holder);
             if (r.integer > 0)
                 granted.grant.slot = r.integer;
             done(granted);
         });
}

void SlotsCrashLeakStore::doRefresh(const Grant &, qint64, Callback<RefreshResult> done) {
    RefreshResult result;
    result.status = RefreshResult::Status::Ok; // no TTL in this layout: nothing can run out
    QMetaObject::invokeMethod(
        this, [done, result] { done(result); }, Qt::QueuedConnection);
}

void SlotsCrashLeakStore::doRelease(const Grant &grant, Callback<ReleaseResult> done) {
    eval(m_release, {grant.ref.name.toUtf8()}, {grant.rawHolder}, [done](const RedisReply &r) {
        ReleaseResult result;
        if (!r.isInteger())
            result.error = QStringLiteral("slot release: ") + (r.isError() ? r.errorMessage() : r.describe());
        else
            result.status = r.integer > 0 ? ReleaseResult::Status::Ok : ReleaseResult::Status::NotHeld;
        done(result);
    });
}

} // namespace semscope::redis
