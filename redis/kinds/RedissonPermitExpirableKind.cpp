#include "RedissonPermitExpirableKind.h"

#include "KeyLayouts.h"
#include "KindReplies.h"
#include "ScoreReading.h"
#include "SeedKindSupport.h"

#include <cmath>

namespace semscope::redis {

using namespace kinds;

RedissonPermitExpirableKind::RedissonPermitExpirableKind()
    : m_snapshot(LuaScript::fromResource(QStringLiteral("redisson_permit_snapshot")))
    , m_forceRelease(LuaScript::fromResource(QStringLiteral("redisson_permit_force_release"))) {}

// Redisson's suffixName(name, "timeout"): "{name}:timeout", or "name:timeout" if name has braces.
QList<QByteArray> RedissonPermitExpirableKind::keysOf(const QString &name) const {
    return keyLayout(core::Kind::RedissonPermitExpirable).keysFor(name);
}

QByteArray RedissonPermitExpirableKind::releaseChannel(const QString &name) const {
    const QByteArray n = name.toUtf8();
    return n.contains('{') ? QByteArray("redisson_sc:" + n) : QByteArray("redisson_sc:{" + n + "}");
}

core::Snapshot RedissonPermitExpirableKind::parseSnapshot(const core::SemaphoreRef &ref,
                                                          const QStringList &keys, const RedisReply &reply) {
    if (reply.isError() || !reply.isArray() || reply.elements.size() < 9)
        return failedSnapshot(ref, keys, QStringLiteral("reading the Redisson permit semaphore"), reply);
    core::Snapshot snap;
    snap.ref = ref;
    snap.keys = keys;
    const qint64 now = integerAt(reply, 0).value_or(0);
    snap.serverNowMs = now;
    const QByteArray type = bytesAt(reply, 1), timeoutType = bytesAt(reply, 5);
    const bool availableOk = checkType(keys.value(0).toUtf8(), type, "string", snap);
    const bool timeoutOk = checkType(keys.value(1).toUtf8(), timeoutType, "zset", snap);
    // A plain flag and value rather than std::optional: GCC's -O2 flow analysis misreads it here.
    bool haveAvailable = false;
    qint64 available = 0;
    if (availableOk && type == "string") {
        const qint64 len = integerAt(reply, 3).value_or(0);
        const auto parsed = strictInteger(bytesAt(reply, 2));
        if (len > 64 || !parsed) {
            snap.warnings << QStringLiteral("%1 does not hold a permit count (%2)")
                                 .arg(ref.name,
                                      len > 64 ? byteSize(len) : QString::fromUtf8(bytesAt(reply, 2)));
        } else {
            haveAvailable = true;
            available = *parsed;
        }
    } else if (type == "none") {
        haveAvailable = true; // Redisson reads a missing key as 0 available
    }
    const qint64 card = timeoutOk ? integerAt(reply, 6).value_or(0) : 0;
    const qint64 expired = timeoutOk ? integerAt(reply, 8).value_or(0) : 0;
    if (haveAvailable) {
        snap.limit = available + card;
        snap.limitSource = core::LimitSource::Stored;
        snap.version = available;
        snap.details.insert(QStringLiteral("available"), available);
        snap.details.insert(QStringLiteral("effective_available"), available + expired);
    }
    snap.details.insert(QStringLiteral("acquired"), card);
    if (expired > 0)
        snap.warnings
            << (expired == 1
                    ? QStringLiteral("1 permit's lease ran out; Redisson reclaims it at the next acquire")
                    : QStringLiteral("%1 permits' leases ran out; Redisson reclaims them at the next "
                                     "acquire")
                          .arg(expired));

    qint64 rank = 0;
    for (const auto &[member, score] : pairsAt(reply, 7)) {
        core::Holder h;
        h.rawId = member;
        h.id = member.size() == 16 ? QString::fromLatin1(member.toHex()) : printableId(member);
        h.rank = rank++;
        h.details.insert(QStringLiteral("score"), QString::fromLatin1(score));
        bool ok = false;
        const double v = score.toDouble(&ok);
        if (!ok || !std::isfinite(v)) {
            h.state = core::HolderState::Stale;
        } else if (qint64(v) == kRedissonNoLeaseScore) {
            h.details.insert(QStringLiteral("no_lease"), true);
        } else {
            h.expiresAtMs = qint64(v);
            if (*h.expiresAtMs <= now)
                h.state = core::HolderState::ExpiredPresent;
        }
        if (member.size() != 16)
            h.details.insert(QStringLiteral("unusual_id"), true);
        snap.holders << h;
    }
    if (card > snap.holders.size())
        snap.warnings << QStringLiteral("%1 has %2 permits; only the first %3 were read")
                             .arg(keys.value(1))
                             .arg(card)
                             .arg(snap.holders.size());
    return snap;
}

void RedissonPermitExpirableKind::snapshot(RedisCommands &conn, const core::SemaphoreRef &ref,
                                           core::Callback<core::Snapshot> done) {
    const QList<QByteArray> keys = keysOf(ref.name);
    const QStringList names{QString::fromUtf8(keys.at(0)), QString::fromUtf8(keys.at(1))};
    conn.eval(m_snapshot, keys, {QByteArray::number(kSnapshotCap)},
              [ref, names, done](const RedisReply &reply) { done(parseSnapshot(ref, names, reply)); });
}

void RedissonPermitExpirableKind::forceRelease(RedisCommands &conn, const core::SemaphoreRef &ref,
                                               const core::Holder &observed,
                                               std::optional<qint64> observedVersion,
                                               core::Callback<core::ForceReleaseResult> done) {
    QByteArray raw = observed.rawId;
    if (raw.isEmpty())
        raw = QByteArray::fromHex(observed.id.toLatin1()); // an id typed as hex, as Redisson prints it
    const QByteArray score = observed.details.value(QStringLiteral("score")).toString().toLatin1();
    const QList<QByteArray> args{raw, score, releaseChannel(ref.name), "PUBLISH"};
    const QString id = observed.id;
    conn.eval(m_forceRelease, keysOf(ref.name), args, [id, done](const RedisReply &reply) {
        done(forceReleaseFromReply(reply, id, QStringLiteral("lease updated, expiry")));
    });
}

} // namespace semscope::redis
