#include "KindGuess.h"

#include "kinds/KeyLayouts.h"

#include <QRegularExpression>
#include <algorithm>

namespace semscope::redis {

using core::Kind;
using core::ScoreUnit;

namespace {

// The base name of `key` if it is the key of `kind`'s layout with `affix` (kinds/KeyLayouts.cpp).
QByteArray baseIn(Kind kind, QByteArrayView affix, const QByteArray &key) {
    return keyLayout(kind).key(affix).baseOf(key);
}

bool isInteger(const QByteArray &value) {
    bool ok = false;
    value.trimmed().toLongLong(&ok);
    return ok && !value.isEmpty();
}

// The tokens lock libraries write: redis-py's uuid4().hex, uuids with dashes, Redlock's random
// base64, "host:pid:thread" ids. What matters is that it is not a number.
bool looksLikeToken(const QByteArray &value) {
    static const QRegularExpression uuid(QStringLiteral("^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?"
                                                        "[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$"));
    return uuid.match(QString::fromLatin1(value)).hasMatch();
}

KindGuess make(Kind kind, const QByteArray &name, const QString &reason) {
    return {kind, QString::fromUtf8(name), reason};
}

} // namespace

KindGuess guessKind(const KeyFingerprint &key, qint64 nowMs) {
    const QByteArray &k = key.key;
    const QByteArray &type = key.type;
    if (type.isEmpty() || type == "none")
        return {std::nullopt, QString::fromUtf8(k), QStringLiteral("no such key")};

    if (type == "list") {
        if (const QByteArray n = baseIn(Kind::Slots, "|list", k); !n.isEmpty())
            return make(Kind::Slots, n, QStringLiteral("a list of free slot numbers (`|list`)"));
        if (const QByteArray n = baseIn(Kind::Leased, ":queue", k); !n.isEmpty())
            return make(Kind::Leased, n, QStringLiteral("semscope's wait queue of a leased semaphore"));
        return {std::nullopt, QString::fromUtf8(k),
                QStringLiteral("a list: only a slots semaphore's `<name>|list` is one")};
    }

    if (type == "hash") {
        if (const QByteArray n = baseIn(Kind::Slots, "|map", k); !n.isEmpty())
            return make(Kind::Slots, n, QStringLiteral("a hash of holder → slot (`|map`)"));
        for (const LayoutKey &leased : keyLayout(Kind::Leased).keys) {
            if (leased.type != type)
                continue; // `{name}:meta`, `:owners`, `:waiting`
            if (const QByteArray n = leased.baseOf(k); !n.isEmpty())
                return make(Kind::Leased, n,
                            QStringLiteral("a leased semaphore's `{name}%1` hash")
                                .arg(QString::fromLatin1(leased.affix)));
        }
        if (!key.members.isEmpty() &&
            std::all_of(key.members.cbegin(), key.members.cend(), looksLikeRedissonLockField))
            return make(Kind::RedissonLock, k,
                        QStringLiteral("a hash of <uuid>:<thread> → hold count (Redisson RLock)"));
        return {std::nullopt, QString::fromUtf8(k),
                QStringLiteral("a hash whose fields are not Redisson's <uuid>:<thread>")};
    }

    if (type == "zset") {
        if (const QByteArray n = baseIn(Kind::Leased, ":holders", k); !n.isEmpty())
            return make(Kind::Leased, n, QStringLiteral("a leased semaphore's holders"));
        if (const QByteArray n = baseIn(Kind::RedissonPermitExpirable, ":timeout", k); !n.isEmpty())
            return make(Kind::RedissonPermitExpirable, n,
                        QStringLiteral("Redisson's lease times of an RPermitExpirableSemaphore"));
        if (const QByteArray n = baseIn(Kind::Slots, "|lease", k); !n.isEmpty())
            return make(Kind::Slots, n, QStringLiteral("the lease times of a slots semaphore"));
        if (const QByteArray n = baseIn(Kind::Fair, ":owner", k); !n.isEmpty())
            return make(Kind::Fair, n, QStringLiteral("a fair semaphore's owner ZSET (holder → counter)"));
        const ScoreReading reading = readScores(key.values, nowMs);
        const bool nodeName = k.contains(keyLayout(Kind::NodeSemaphore).key("semaphore:").affix);
        if (nodeName && key.pttl > 0 && !reading.expiry && reading.unit == ScoreUnit::Milliseconds)
            return make(Kind::NodeSemaphore, nodeSemaphoreName(k).toUtf8(),
                        QStringLiteral("holder → last refresh in ms, with a key TTL (node redis-semaphore)"));
        if (reading.unit && reading.expiry)
            return make(Kind::Zset, k, QStringLiteral("holder → expiry time (an expiring ZSET)"));
        if (reading.unit)
            return make(Kind::Zset, k,
                        QStringLiteral("holder → time in the past: acquire times, or expired holders"));
        return {std::nullopt, QString::fromUtf8(k),
                QStringLiteral("a sorted set whose scores are not times (a leaderboard, a queue?)")};
    }

    if (type == "string") {
        if (const QByteArray n = baseIn(Kind::NodeMutex, "mutex:", k); !n.isEmpty())
            return make(Kind::NodeMutex, n, QStringLiteral("node redis-semaphore's `mutex:` key"));
        if (isInteger(key.value) && key.pttl < 0)
            return make(Kind::RedissonSemaphore, k,
                        QStringLiteral("a whole number without a TTL: Redisson RSemaphore's free permits"));
        if (looksLikeToken(key.value))
            return make(Kind::Lock, k,
                        key.pttl >= 0 ? QStringLiteral("a string holding a uuid-like token, with a TTL "
                                                       "(SET NX PX)")
                                      : QStringLiteral("a string holding a uuid-like token, without a "
                                                       "TTL: held until someone deletes it"));
        return make(Kind::Lock, k,
                    key.pttl >= 0 ? QStringLiteral("a string with a TTL: a lock's holder token (SET NX PX)")
                                  : QStringLiteral("a string: a lock's holder token, if it is one"));
    }

    return {std::nullopt, QString::fromUtf8(k),
            QStringLiteral("a %1: no semaphore layout keeps one").arg(QString::fromLatin1(type))};
}

KeyFingerprint fingerprintOf(const core::RawKey &key) {
    KeyFingerprint fp;
    fp.key = key.name.toUtf8();
    fp.type = key.type.toLatin1();
    fp.length = key.length;
    fp.pttl = key.type == QLatin1String("none") ? -2 : key.ttlMs.value_or(-1);
    fp.value = key.value.toUtf8();
    for (const QStringList &row : key.rows) {
        // zset member/score, hash field/value, list index/value: the list's items are its values.
        if (key.type == QLatin1String("list")) {
            fp.members << row.value(1).toUtf8();
            continue;
        }
        fp.members << row.value(0).toUtf8();
        fp.values << row.value(1).toUtf8();
    }
    return fp;
}

} // namespace semscope::redis
