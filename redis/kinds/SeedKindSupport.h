#pragma once

#include "core/SemaphoreTypes.h"
#include "redis/RedisReply.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

// Helpers shared by the seed and foreign layouts (slots, fair, zset, Redisson, node redis-semaphore):
// reading the structured replies of their Lua scripts without trusting their shape.
namespace semscope::redis::kinds {

// Snapshots list at most this many holders; counts stay exact and a warning says the list is cut.
inline constexpr int kSnapshotCap = 10000;

// Bytes of element `i` (String/Status; Integer in decimal), empty for anything else.
QByteArray bytesAt(const RedisReply &reply, int i);

// A flat [a1, b1, a2, b2, ...] array (ZRANGE WITHSCORES, HGETALL) as pairs; an odd tail is dropped.
QList<QPair<QByteArray, QByteArray>> pairsAt(const RedisReply &reply, int i);

// A snapshot that only says what went wrong (the semaphore stays listed, with this warning).
core::Snapshot failedSnapshot(const core::SemaphoreRef &ref, const QStringList &keys, const QString &what,
                              const RedisReply &reply);

// False, with the warning "k is a <type>, expected a <want>; it was not read" and every write refused
// up front (Snapshot::writeRefusal, so nothing is offered that the scripts would answer WRONGTYPE),
// when `type` is neither `want` nor "none".
bool checkType(const QByteArray &key, const QByteArray &type, const QByteArray &want, core::Snapshot &snap);

// Human size for warnings about huge values.
QString byteSize(qint64 bytes);

// Decimal integer with nothing else around it.
std::optional<qint64> strictInteger(const QByteArray &text);

// Builds a force-release result from the {code, ...} reply shared by the force-release scripts:
// 1 released, 2 gone, 3 changed (element 1: what is there now), -2 unusable data (element 1: why).
core::ForceReleaseResult forceReleaseFromReply(const RedisReply &reply, const QString &holder,
                                               const QString &changedWhat);

// For layouts that do not store their limit (fair, zset, node-semaphore) and have no profile limit:
// the smallest limit consistent with what is seen is the number of permits held right now, so the
// snapshot shows that, marked inferred, with a note. Not knowing the limit is not a fault of the
// semaphore, so it is never a warning. With nobody holding, the limit stays unknown (a note too).
void inferLimitFromHolders(core::Snapshot &snap, qint64 permitsHeld);

// For reads key by key on a Redis Cluster (RedisKind::snapshotKeyByKey): the replies of a routed
// pipeline put in the shape of a snapshot script's reply, so one parser serves both.
RedisReply arrayReply(const QList<RedisReply> &elements);
// Redis TIME ([seconds, microseconds]) in milliseconds; 0 when it is not that.
qint64 timeReplyMs(const RedisReply &time);
// A TYPE reply as the script's `.ok` string.
RedisReply typeReply(const RedisReply &type);
// `reply` when it is an array (the key had the right type), else an empty array.
RedisReply arrayOrEmpty(const RedisReply &reply);
// The first transport or server error of `replies` other than WRONGTYPE, if any.
std::optional<RedisReply> firstFailure(const QList<RedisReply> &replies);

// Sorted, compressed list of numbers for warnings: "3, 5-9, 12".
QString numberRanges(QList<qint64> numbers, int maxParts = 8);

} // namespace semscope::redis::kinds
