#include "LayoutRecognizers.h"

#include "KeyNameRules.h"
#include "RecognitionKeys.h"
#include "redis/kinds/SeedKindSupport.h"

#include <algorithm>
#include <cmath>

namespace semscope::redis::recognition {

using core::DiscoveredSemaphore;
using core::Kind;
using core::ScoreUnit;

QString keyText(const QByteArray &key) {
    return QString::fromUtf8(key);
}

namespace {

std::optional<qint64> toInt(const QByteArray &s) {
    bool ok = false;
    const qint64 v = s.trimmed().toLongLong(&ok);
    if (!ok || s.isEmpty())
        return std::nullopt;
    return v;
}

QString typeWarning(const KeyFingerprint &fp, const QByteArray &expected) {
    return QStringLiteral("%1 is a %2, expected a %3")
        .arg(keyText(fp.key), QString::fromLatin1(fp.type), QString::fromLatin1(expected));
}

// Checks a string key that must hold a small integer (counters, Redisson permits).
void checkIntegerString(const KeyFingerprint &fp, QStringList &warnings) {
    if (fp.type != "string") {
        warnings << typeWarning(fp, "string");
        return;
    }
    if (fp.length > 64) {
        warnings << QStringLiteral("%1 holds %2, expected a number")
                        .arg(keyText(fp.key), kinds::byteSize(fp.length));
        return;
    }
    if (!toInt(fp.value))
        warnings << QStringLiteral("%1 is not an integer").arg(keyText(fp.key));
}

DiscoveredSemaphore makeFound(Kind kind, const QByteArray &name, const QList<const KeyFingerprint *> &keys) {
    DiscoveredSemaphore found;
    found.ref.kind = kind;
    found.ref.name = QString::fromUtf8(name);
    for (const KeyFingerprint *fp : keys) {
        if (fp)
            found.keys << keyText(fp->key);
    }
    return found;
}

} // namespace

void recognizeSlots(const Group &g, QList<DiscoveredSemaphore> &out) {
    const KeyFingerprint *list = g.get(kSlotsList.keyWithBase(g.base));
    const KeyFingerprint *map = g.get(kSlotsMap.keyWithBase(g.base));
    if (!list && !map)
        return;
    const KeyFingerprint *lease = g.get(kSlotsLease.keyWithBase(g.base));
    DiscoveredSemaphore found = makeFound(Kind::Slots, g.base, {list, map, lease});
    if (list && list->type != kSlotsList.type)
        found.warnings << typeWarning(*list, kSlotsList.type);
    if (map && map->type != kSlotsMap.type)
        found.warnings << typeWarning(*map, kSlotsMap.type);
    if (list && list->type == kSlotsList.type) {
        for (const QByteArray &item : list->members) {
            const auto v = toInt(item);
            if (!v || *v < 1) {
                found.warnings << QStringLiteral("%1 holds %2, not a slot number")
                                      .arg(keyText(list->key),
                                           QString::fromUtf8(item.left(32).toPercentEncoding()));
                break;
            }
        }
    }
    if (map && map->type == kSlotsMap.type) {
        for (const QByteArray &value : map->values) {
            const auto v = toInt(value);
            if (!v || *v < 1) {
                found.warnings << QStringLiteral("%1 maps a holder to %2, not a slot number")
                                      .arg(keyText(map->key),
                                           QString::fromUtf8(value.left(32).toPercentEncoding()));
                break;
            }
        }
    }
    if (lease && lease->type != kSlotsLease.type)
        found.warnings << typeWarning(*lease, kSlotsLease.type);
    out << found;
}

void recognizeFair(const Group &g, qint64 nowMs, QList<DiscoveredSemaphore> &out) {
    const KeyFingerprint *owner = g.get(kFairOwner.keyWithBase(g.base));
    const KeyFingerprint *counter = g.get(kFairCounter.keyWithBase(g.base));
    const KeyFingerprint *times = g.get(g.base);
    if (!owner && !(counter && times && times->type == kFairTimes.type))
        return;
    const KeyFingerprint *lock = g.get(kFairLock.keyWithBase(g.base));
    DiscoveredSemaphore found = makeFound(Kind::Fair, g.base, {times, owner, counter, lock});
    if (owner && owner->type != kFairOwner.type)
        found.warnings << typeWarning(*owner, kFairOwner.type);
    if (owner && owner->type == kFairOwner.type) {
        for (const QByteArray &score : owner->values) {
            bool ok = false;
            const double v = score.toDouble(&ok);
            if (!ok || !std::isfinite(v) || v != std::floor(v)) {
                found.warnings << QStringLiteral("%1 has a non-counter score %2")
                                      .arg(keyText(owner->key), QString::fromUtf8(score.left(32)));
                break;
            }
        }
    }
    if (!times)
        found.warnings << QStringLiteral("%1 is missing (every holder timed out, or it was deleted)")
                              .arg(keyText(g.base));
    else if (times->type != kFairTimes.type)
        found.warnings << typeWarning(*times, kFairTimes.type);
    else {
        const ScoreReading reading = readScores(times->values, nowMs);
        if (reading.nonNumeric)
            found.warnings << QStringLiteral("%1 has non-numeric scores").arg(keyText(times->key));
        else if (reading.unit && *reading.unit == ScoreUnit::Milliseconds)
            found.ref.profile.scoreUnit = ScoreUnit::Milliseconds;
        else if (reading.unit)
            found.ref.profile.scoreUnit = ScoreUnit::Seconds;
        if (reading.unit)
            found.ref.profile.unitInferred = true;
    }
    if (counter)
        checkIntegerString(*counter, found.warnings);
    else
        found.warnings << QStringLiteral("%1 is missing").arg(keyText(kFairCounter.keyWithBase(g.base)));
    if (lock && lock->type == kFairLock.type && lock->pttl == -1)
        found.warnings << QStringLiteral("%1 has no TTL: a crashed client left the acquire lock stuck")
                              .arg(keyText(lock->key));
    out << found;
}

void recognizeLeased(const Group &g, QList<DiscoveredSemaphore> &out) {
    const KeyLayout &layout = keyLayout(Kind::Leased);
    QList<const KeyFingerprint *> keys; // in the layout's order: holders, meta, owners, queue, waiting
    for (const LayoutKey &k : layout.keys)
        keys << g.get(k.keyWithBase(g.base));
    if (std::all_of(keys.cbegin(), keys.cend(), [](const KeyFingerprint *fp) { return !fp; }))
        return;
    DiscoveredSemaphore found = makeFound(Kind::Leased, g.base, keys);
    for (qsizetype i = 0; i < keys.size(); ++i) {
        if (keys.at(i) && keys.at(i)->type != layout.keys.at(i).type)
            found.warnings << typeWarning(*keys.at(i), layout.keys.at(i).type);
    }
    if (!g.get(layout.key(":meta").keyWithBase(g.base)))
        found.warnings << QStringLiteral("{%1}:meta is missing: the limit is unknown").arg(keyText(g.base));
    out << found;
}

void recognizePermitExpirable(const Group &g, qint64 nowMs, QList<DiscoveredSemaphore> &out) {
    const KeyFingerprint *timeout = g.get(kRedissonTimeout.keyWithBase(g.base));
    const KeyFingerprint *permits = g.get(g.base);
    // Redisson deletes nothing but the lease ZSET goes when its last member does: an idle
    // RPermitExpirableSemaphore is a bare integer string, known only through the operator's profile.
    const bool named = permits && permits->namedKind == Kind::RedissonPermitExpirable;
    if (!timeout && !named)
        return;
    DiscoveredSemaphore found = makeFound(Kind::RedissonPermitExpirable, g.base, {permits, timeout});
    if (timeout && timeout->type != kRedissonTimeout.type)
        found.warnings << typeWarning(*timeout, kRedissonTimeout.type);
    if (!permits)
        found.warnings << QStringLiteral("%1 (available permits) is missing").arg(keyText(g.base));
    else
        checkIntegerString(*permits, found.warnings);
    Q_UNUSED(nowMs);
    out << found;
}

void recognizeRedissonLock(const Group &g, QList<DiscoveredSemaphore> &out) {
    const KeyFingerprint *hash = g.get(g.base);
    if (!hash || hash->type != kRedissonLockHash.type || hash->members.isEmpty())
        return;
    qsizetype matching = 0;
    for (const QByteArray &field : hash->members)
        matching += looksLikeRedissonLockField(field) ? 1 : 0;
    if (matching == 0)
        return;
    const KeyFingerprint *token = g.get(kRedissonLockToken.keyWithBase(g.base));
    DiscoveredSemaphore found = makeFound(Kind::RedissonLock, g.base, {hash, token});
    if (matching != hash->members.size())
        found.warnings
            << QStringLiteral("%1 has fields that are not <uuid>:<thread>").arg(keyText(hash->key));
    for (const QByteArray &count : hash->values) {
        if (!toInt(count)) {
            found.warnings
                << QStringLiteral("%1 has a hold count that is not an integer").arg(keyText(hash->key));
            break;
        }
    }
    if (hash->pttl == -1)
        found.warnings << QStringLiteral("%1 has no TTL: the lock never expires").arg(keyText(hash->key));
    out << found;
}

// node redis-semaphore's ZSET, told from an expiring ZSET (the seed's, semscope's, madelson's) by
// every signal there is, since a name alone misleads both ways (the seed's own key is
// `semaphore:acquire`; an ioredis keyPrefix puts anything before `semaphore:`):
// - the name holds `semaphore:` followed by the Semaphore's key, after any prefix;
// - the key has a TTL: every acquire and refresh sets PEXPIRE lockTimeout on it (the seed never
//   sets one, so PTTL -1 rules it out);
// - the scores are milliseconds in the past: Date.now() at the last acquire or refresh, where an
//   expiring ZSET scores expiries, mostly in the future.
// An operator's profile that names the kind decides.
bool looksLikeNodeSemaphore(const KeyFingerprint &zset, const ScoreReading &reading) {
    if (zset.namedKind == Kind::NodeSemaphore || zset.namedKind == Kind::Zset)
        return zset.namedKind == Kind::NodeSemaphore;
    const qsizetype at = zset.key.indexOf(kNodeSemaphorePrefix);
    const bool nodeName = at >= 0 && zset.key.size() > at + kNodeSemaphorePrefix.size();
    return nodeName && zset.pttl > 0 && !reading.expiry && !reading.nonNumeric && !reading.mixedUnits &&
           reading.unit == ScoreUnit::Milliseconds;
}

void recognizeZset(const Group &g, qint64 nowMs, QList<DiscoveredSemaphore> &out) {
    const KeyFingerprint *zset = g.get(g.base);
    if (!zset || zset->type != "zset")
        return;
    const ScoreReading reading = readScores(zset->values, nowMs);
    // Any ZSET could be data (a leaderboard, a queue): only time-like scores or a name that says
    // "semaphore" make it one.
    if (!reading.unit && !semaphoreishName(g.base))
        return;
    const bool node = looksLikeNodeSemaphore(*zset, reading);
    DiscoveredSemaphore found =
        node ? makeFound(Kind::NodeSemaphore, nodeSemaphoreName(g.base).toUtf8(), {zset})
             : makeFound(Kind::Zset, g.base, {zset});
    if (reading.nonNumeric) {
        found.warnings << QStringLiteral("%1 has non-numeric scores").arg(keyText(zset->key));
    } else if (!reading.unit) {
        if (!zset->values.isEmpty())
            found.warnings << QStringLiteral(
                                  "%1 has scores that are neither seconds nor milliseconds since the epoch")
                                  .arg(keyText(zset->key));
    } else {
        found.ref.profile.scoreUnit = *reading.unit;
        found.ref.profile.unitInferred = true;
        if (reading.mixedUnits)
            found.warnings
                << QStringLiteral("%1 mixes second and millisecond scores").arg(keyText(zset->key));
        if (!node && !reading.expiry && zset->pttl > 0)
            found.warnings << QStringLiteral(
                                  "%1 has scores in the past and a key TTL: they look like acquire "
                                  "or refresh times, not expiries, so semscope's purge and acquire "
                                  "refuse here (is it node-semaphore?)")
                                  .arg(keyText(zset->key));
        else if (!node && !reading.expiry)
            found.warnings << QStringLiteral("%1 has scores in the past: expired holders, or acquire times "
                                             "(then set the timeout in the profile)")
                                  .arg(keyText(zset->key));
    }
    if (node && zset->pttl > 0 && !zset->values.isEmpty() && reading.unit) {
        // lockTimeout ≈ PTTL + (now − newest score): every acquire and refresh resets both.
        double newest = 0;
        for (const QByteArray &s : zset->values)
            newest = std::max(newest, s.toDouble());
        const qint64 estimate = zset->pttl + (nowMs - scoreToMs(newest, *reading.unit));
        if (estimate > 0) {
            found.ref.profile.timeoutMs = estimate;
            found.ref.profile.timeoutInferred = true;
        }
    }
    out << found;
}

void recognizeStrings(const Group &g, QList<DiscoveredSemaphore> &out) {
    const KeyFingerprint *fp = g.get(g.base);
    if (!fp)
        return;
    if (const QByteArray mutex = kNodeMutex.baseOf(g.base); !mutex.isEmpty()) {
        DiscoveredSemaphore found = makeFound(Kind::NodeMutex, mutex, {fp});
        if (fp->type != kNodeMutex.type)
            found.warnings << typeWarning(*fp, kNodeMutex.type);
        else if (fp->length > 1024)
            found.warnings << QStringLiteral("%1 holds %2, far too long for an identifier")
                                  .arg(keyText(fp->key), kinds::byteSize(fp->length));
        if (fp->type == "string" && fp->pttl == -1)
            found.warnings << QStringLiteral("%1 has no TTL: the mutex never expires").arg(keyText(fp->key));
        out << found;
        return;
    }
    // Redisson RSemaphore is a bare integer string (redisson/redisson RedissonSemaphore.java): so are
    // counters, rate limits and cache entries by the million, so an integer value alone proves nothing. Only
    // two things make one a semaphore: a Redisson client waiting on its channel `redisson_sc:{N}` (classic or
    // sharded pub/sub), or the operator's profile naming it. A named key of the wrong type or with
    // a non-integer value is still listed, with the warning that says what is wrong.
    const bool named = fp->namedKind == Kind::RedissonSemaphore;
    if (fp->type != "string" && !named)
        return;
    if (fp->channelSeen || named) {
        DiscoveredSemaphore found = makeFound(Kind::RedissonSemaphore, g.base, {fp});
        checkIntegerString(*fp, found.warnings);
        out << found;
        return;
    }
    if (lockishName(g.base) && !toInt(fp->value)) {
        DiscoveredSemaphore found = makeFound(Kind::Lock, g.base, {fp});
        if (fp->length > 1024)
            found.warnings << QStringLiteral("%1 holds %2, far too long for a lock token")
                                  .arg(keyText(fp->key), kinds::byteSize(fp->length));
        if (fp->pttl == -1)
            found.warnings << QStringLiteral("%1 has no TTL: the lock never expires").arg(keyText(fp->key));
        out << found;
    }
}

// A key whose name says semaphore or lock but whose type no layout of such a name uses (a LIST
// `semaphore:payments-legacy`, a HASH `lock:orders` without Redisson's fields): listed under the
// kind its name suggests, with the warning that says why semscope cannot read it. Silently
// skipping it left the operator looking for a lock that "was not there".
void recognizeWrongType(const Group &g, QList<DiscoveredSemaphore> &out) {
    const KeyFingerprint *fp = g.get(g.base);
    if (!fp || !semaphoreLikeName(g.base))
        return;
    const bool readable = fp->type == "string" || fp->type == "zset";
    if (readable)
        return; // strings and ZSETs have rules of their own (a counter named `sem:count` is data)
    Kind kind = Kind::Zset;
    QByteArray name = g.base;
    const char *expected = "zset";
    if (lockWordName(g.base)) {
        kind = Kind::Lock;
        expected = "string";
    } else if (g.base.contains(kNodeSemaphorePrefix)) {
        kind = Kind::NodeSemaphore;
        name = nodeSemaphoreName(g.base).toUtf8();
    }
    DiscoveredSemaphore found = makeFound(kind, name, {fp});
    found.warnings << typeWarning(*fp, expected) +
                          QStringLiteral(": its name says %1, but no %1 layout keeps a %2, so semscope "
                                         "cannot read it as one")
                              .arg(kind == Kind::Lock ? QStringLiteral("lock") : QStringLiteral("semaphore"),
                                   QString::fromLatin1(fp->type));
    out << found;
}

} // namespace semscope::redis::recognition
