#include "FairKind.h"

#include "KeyLayouts.h"
#include "KindReplies.h"
#include "ScoreReading.h"
#include "SeedKindSupport.h"
#include "core/CountText.h"
#include "core/Duration.h"

#include <QHash>
#include <cmath>

namespace semscope::redis {

using namespace kinds;

namespace {

QStringList keyNames(const QList<QByteArray> &keys) {
    QStringList names;
    for (const QByteArray &k : keys)
        names << QString::fromUtf8(k);
    return names;
}

QByteArray holderBytes(const QByteArray &raw, const QString &printable) {
    return raw.isEmpty() ? printable.toUtf8() : raw;
}

// Scores are seconds as the book writes them, unless the profile says milliseconds.
qint64 scoreMs(double score, const core::SemaphoreRef &ref) {
    return scoreToMs(score, ref.profile.scoreUnit == core::ScoreUnit::Milliseconds
                                ? core::ScoreUnit::Milliseconds
                                : core::ScoreUnit::Seconds);
}

// The outer lock keys the acquire must find free: the profile's, else both names in use.
QList<QByteArray> outerLockKeys(const core::SemaphoreRef &ref) {
    if (!ref.profile.outerLockKey.isEmpty())
        return {ref.profile.outerLockKey.toUtf8()};
    const QByteArray n = ref.name.toUtf8();
    return {keyLayout(core::Kind::Fair).key("lock:").keyFor(n), n + "lock"};
}

// "lock:S held by <value> (expires in 3.0 s): ...": why an acquire did nothing (reply {-3, key,
// value, pttl}). A waiting acquire retries; the lock is held for a few round trips.
QString outerLockHeld(const RedisReply &reply) {
    const QByteArray value = bytesAt(reply, 2);
    const qint64 pttl = integerAt(reply, 3).value_or(-2);
    QString text = QStringLiteral("%1 held by %2")
                       .arg(QString::fromUtf8(bytesAt(reply, 1)),
                            value.isEmpty() ? QStringLiteral("a client") : printableId(value));
    if (pttl > 0)
        text += QStringLiteral(" (expires in %1)").arg(core::formatDurationMs(pttl));
    else if (pttl == -1)
        text += QStringLiteral(" (no TTL: delete it if no client is acquiring, it may be left by a crash)");
    return text + QStringLiteral(": a client of the layout is in the middle of its acquire");
}

} // namespace

FairKind::FairKind()
    : m_snapshot(LuaScript::fromResource(QStringLiteral("fair_snapshot")))
    , m_acquire(LuaScript::fromResource(QStringLiteral("fair_acquire")))
    , m_refresh(LuaScript::fromResource(QStringLiteral("fair_refresh")))
    , m_release(LuaScript::fromResource(QStringLiteral("fair_release")))
    , m_forceRelease(LuaScript::fromResource(QStringLiteral("fair_force_release")))
    , m_purge(LuaScript::fromResource(QStringLiteral("fair_purge"))) {}

QList<QByteArray> FairKind::keysOf(const QString &name) const {
    return keyLayout(core::Kind::Fair).keysFor(name);
}

qint64 FairKind::timeoutMs(const core::SemaphoreRef &ref) {
    return ref.profile.timeoutMs.value_or(kDefaultTimeoutMs);
}

core::Snapshot FairKind::parseSnapshot(const core::SemaphoreRef &ref, const QStringList &keys,
                                       const RedisReply &reply) {
    if (reply.isError() || !reply.isArray() || reply.elements.size() < 12)
        return failedSnapshot(ref, keys, QStringLiteral("reading the fair semaphore"), reply);
    core::Snapshot snap;
    snap.ref = ref;
    snap.keys = keys;
    const qint64 now = integerAt(reply, 0).value_or(0);
    snap.serverNowMs = now;
    const KeyLayout &layout = keyLayout(core::Kind::Fair); // S, S:owner, S:counter, lock:S
    const QList<QByteArray> k = layout.keysFor(ref.name);
    const bool timesOk = checkType(k[0], bytesAt(reply, 1), layout.keys[0].type, snap);
    const bool ownerOk = checkType(k[1], bytesAt(reply, 2), layout.keys[1].type, snap);
    const bool counterOk = checkType(k[2], bytesAt(reply, 3), layout.keys[2].type, snap);
    const QByteArray lockType = bytesAt(reply, 4);
    const qint64 lockTtl = integerAt(reply, 9).value_or(-2);

    if (ref.profile.limit) {
        snap.limit = *ref.profile.limit;
        snap.limitSource = ref.profile.inferred ? core::LimitSource::Inferred : core::LimitSource::Profile;
    }
    const qint64 timeout = timeoutMs(ref);
    if (!ref.profile.timeoutMs)
        snap.details.insert(QStringLiteral("timeout_inferred"), true);
    snap.details.insert(QStringLiteral("timeout_ms"), timeout);

    if (counterOk && bytesAt(reply, 3) == "string") {
        const qint64 len = integerAt(reply, 8).value_or(0);
        const auto counter = strictInteger(bytesAt(reply, 7));
        if (len > 64)
            snap.warnings
                << QStringLiteral("%1:counter holds %2, expected a number").arg(ref.name, byteSize(len));
        else if (!counter)
            snap.warnings << QStringLiteral("%1:counter is not an integer: \"%2\"")
                                 .arg(ref.name, QString::fromUtf8(bytesAt(reply, 7)));
        else
            snap.counter = *counter;
    }
    if (lockType == "string" && lockTtl == -1)
        snap.warnings << QStringLiteral("lock:%1 has no TTL: a crashed client left the acquire lock stuck")
                             .arg(ref.name);

    QHash<QByteArray, double> times;
    int badTimes = 0;
    if (timesOk) {
        for (const auto &[member, score] : pairsAt(reply, 5)) {
            bool ok = false;
            const double v = score.toDouble(&ok);
            if (!ok || !std::isfinite(v)) {
                ++badTimes;
                continue;
            }
            times.insert(member, v);
        }
    }
    if (badTimes > 0)
        snap.warnings << QStringLiteral("%1 has %2 not a number")
                             .arg(ref.name,
                                  core::forCount(badTimes, QStringLiteral("1 score that is"),
                                                 QStringLiteral("%1 scores that are").arg(badTimes)));

    qint64 rank = 0;
    int badCounters = 0;
    QSet<QByteArray> inOwner;
    if (ownerOk) {
        for (const auto &[member, score] : pairsAt(reply, 6)) {
            core::Holder h;
            h.rawId = member;
            h.id = printableId(member);
            h.rank = rank++;
            inOwner.insert(member);
            bool ok = false;
            const double c = score.toDouble(&ok);
            if (ok && std::isfinite(c) && c == std::floor(c))
                h.token = qint64(c);
            else
                ++badCounters;
            if (times.contains(member)) {
                h.acquiredAtMs = scoreMs(times.value(member), ref);
                h.expiresAtMs = *h.acquiredAtMs + timeout;
                h.details.insert(QStringLiteral("score"), QByteArray::number(times.value(member), 'g', 17));
            }
            if (snap.limit && *h.rank >= *snap.limit)
                h.state = core::HolderState::OverLimit;
            else if (!times.contains(member))
                h.state = core::HolderState::ExpiredPresent; // timed out of S, not yet intersected away
            else if (*h.expiresAtMs <= now)
                h.state = core::HolderState::ExpiredPresent;
            snap.holders << h;
        }
    }
    // The book's acquire removes a loser at once, so every live ranked entry at rest holds a slot
    // (timed-out ones go at the next acquire).
    if (!snap.limit)
        inferLimitFromHolders(snap, snap.countInState(core::HolderState::Live));
    if (badCounters > 0)
        snap.warnings << QStringLiteral("%1:owner has %2")
                             .arg(ref.name,
                                  core::forCount(
                                      badCounters, QStringLiteral("1 score that is not a counter"),
                                      QStringLiteral("%1 scores that are not counters").arg(badCounters)));
    // Entries in S without an owner entry hold nothing: leftovers of a crash between the two steps.
    for (auto it = times.cbegin(); it != times.cend(); ++it) {
        if (inOwner.contains(it.key()))
            continue;
        core::Holder h;
        h.rawId = it.key();
        h.id = printableId(it.key());
        h.acquiredAtMs = scoreMs(it.value(), ref);
        h.expiresAtMs = *h.acquiredAtMs + timeout;
        h.details.insert(QStringLiteral("score"), QByteArray::number(it.value(), 'g', 17));
        h.state = core::HolderState::Orphan;
        snap.holders << h;
    }
    const qint64 ownerCard = integerAt(reply, 11).value_or(0);
    if (ownerCard > rank)
        snap.warnings << QStringLiteral("%1:owner has %2 entries; only the first %3 were read")
                             .arg(ref.name)
                             .arg(ownerCard)
                             .arg(rank);
    const qint64 expired = snap.countInState(core::HolderState::ExpiredPresent);
    if (expired > 0)
        snap.warnings << QStringLiteral("%1 timed out but %2 still recorded (the next acquire or a purge "
                                        "removes %3)")
                             .arg(core::countText(expired, QStringLiteral("holder"),
                                                  QStringLiteral("holders")),
                                  core::forCount(expired, QStringLiteral("is"), QStringLiteral("are")),
                                  core::forCount(expired, QStringLiteral("it"), QStringLiteral("them")));
    return snap;
}

void FairKind::snapshot(RedisCommands &conn, const core::SemaphoreRef &ref,
                        core::Callback<core::Snapshot> done) {
    const QList<QByteArray> keys = keysOf(ref.name);
    conn.eval(
        m_snapshot, keys, {QByteArray::number(kSnapshotCap)},
        [ref, keys, done](const RedisReply &reply) { done(parseSnapshot(ref, keyNames(keys), reply)); });
}

// fair_snapshot.lua's reply built from one routed command per key: S, S:owner and S:counter hash to
// different slots, so on a Redis Cluster no script can read them together.
void FairKind::snapshotKeyByKey(RedisCommands &conn, const core::SemaphoreRef &ref,
                                core::Callback<core::Snapshot> done) {
    const QList<QByteArray> k = keysOf(ref.name);
    const QByteArray cap = QByteArray::number(kSnapshotCap - 1);
    conn.pipeline(
        {{"TIME"},
         {"TYPE", k[0]},
         {"TYPE", k[1]},
         {"TYPE", k[2]},
         {"TYPE", k[3]},
         {"ZRANGE", k[0], "0", cap, "WITHSCORES"},
         {"ZRANGE", k[1], "0", cap, "WITHSCORES"},
         {"STRLEN", k[2]},
         {"GETRANGE", k[2], "0", "63"},
         {"PTTL", k[3]},
         {"ZCARD", k[0]},
         {"ZCARD", k[1]}},
        [ref, k, done](const QList<RedisReply> &r) {
            if (const auto failure = firstFailure(r)) {
                done(parseSnapshot(ref, keyNames(k), *failure));
                return;
            }
            const bool zsetS = r.value(1).str == "zset";
            const bool zsetOwner = r.value(2).str == "zset";
            const bool counter = r.value(3).str == "string";
            const bool lock = r.value(4).str != "none";
            done(parseSnapshot(
                ref, keyNames(k),
                arrayReply({RedisReply::integerReply(timeReplyMs(r.value(0))), typeReply(r.value(1)),
                            typeReply(r.value(2)), typeReply(r.value(3)), typeReply(r.value(4)),
                            zsetS ? arrayOrEmpty(r.value(5)) : arrayReply({}),
                            zsetOwner ? arrayOrEmpty(r.value(6)) : arrayReply({}),
                            RedisReply::string(counter ? r.value(8).str : QByteArray()),
                            RedisReply::integerReply(counter ? r.value(7).integer : -1),
                            RedisReply::integerReply(lock ? r.value(9).integer : -2),
                            RedisReply::integerReply(zsetS ? r.value(10).integer : 0),
                            RedisReply::integerReply(zsetOwner ? r.value(11).integer : 0)})));
        });
}

void FairKind::tryAcquire(RedisCommands &conn, const core::SemaphoreRef &ref,
                          const core::AcquireRequest &request, core::Callback<core::AcquireResult> done) {
    if (!ref.profile.limit || *ref.profile.limit < 1) {
        core::AcquireResult result;
        result.error =
            QStringLiteral("acquire refused: the fair semaphore %1 does not store its limit; give one "
                           "(--limit, or the profile)")
                .arg(ref.name);
        done(result);
        return;
    }
    const QString holder = request.holder.isEmpty() ? makeHolderId() : request.holder;
    QList<QByteArray> keys = keysOf(ref.name);
    keys.removeLast();
    keys << outerLockKeys(ref); // only read: while one is held, the acquire does nothing
    // One timeout for every holder (the layout has no per-holder lease): the profile's, else 10 s.
    const qint64 timeout = timeoutMs(ref);
    // A lease asked for (AcquireRequest::ttlGiven) is never outlived: a longer timeout is refused
    // before anything is written, a shorter one granted with a word.
    if (request.ttlGiven && timeout > request.ttlMs) {
        core::AcquireResult result;
        result.error =
            QStringLiteral("acquire refused: every holder of the fair semaphore %1 keeps its slot for "
                           "the shared timeout of %2, longer than the %3 asked; nothing was taken. "
                           "Ask for %2 or more (or leave the TTL out), or change the timeout in "
                           "the semaphore's profile")
                .arg(ref.name, core::formatDurationMs(timeout), core::formatDurationMs(request.ttlMs));
        done(result);
        return;
    }
    QStringList warnings;
    if (request.ttlGiven && timeout < request.ttlMs)
        warnings << QStringLiteral("lease shorter than the %1 asked: every holder of the fair semaphore %2 "
                                   "keeps its slot for the shared timeout of %3 (refresh within it)")
                        .arg(core::formatDurationMs(request.ttlMs), ref.name,
                             core::formatDurationMs(timeout));
    const QList<QByteArray> args{holder.toUtf8(), QByteArray::number(*ref.profile.limit),
                                 QByteArray::number(timeout)};
    RedisCommands *c = &conn;
    const bool wantHolders = request.waitMs <= 0;
    conn.eval(m_acquire, keys, args,
              [this, c, ref, holder, timeout, wantHolders, warnings, done](const RedisReply &reply) {
                  core::AcquireResult result;
                  result.attempts = 1;
                  const auto code = integerAt(reply, 0);
                  if (reply.isError() || !code || *code == -2) {
                      result.error = code && *code == -2 ? QStringLiteral("acquire refused: ") +
                                                               QString::fromUtf8(bytesAt(reply, 1))
                                                         : failureText(QStringLiteral("acquire"), reply);
                      done(result);
                      return;
                  }
                  if (*code == 1) {
                      result.status = core::AcquireResult::Status::Granted;
                      result.grant.ref = ref;
                      result.grant.holder = holder;
                      result.grant.rawHolder = holder.toUtf8();
                      result.grant.token = integerAt(reply, 1);
                      result.grant.rank = integerAt(reply, 2);
                      if (const auto at = integerAt(reply, 3))
                          result.grant.expiresAtMs = *at + timeout;
                      if (!warnings.isEmpty())
                          result.grant.details.insert(QStringLiteral("warnings"), warnings);
                      done(result);
                      return;
                  }
                  result.status = core::AcquireResult::Status::Busy;
                  if (*code == -3) {
                      result.error = outerLockHeld(reply);
                      if (const qint64 pttl = integerAt(reply, 3).value_or(-1); pttl > 0)
                          result.retryAfterMs = pttl;
                  }
                  if (!wantHolders) {
                      done(result);
                      return;
                  }
                  const QList<QByteArray> snapKeys = keysOf(ref.name);
                  c->eval(m_snapshot, snapKeys, {QByteArray::number(kSnapshotCap)},
                          [ref, snapKeys, result, done](const RedisReply &snapReply) mutable {
                              const core::Snapshot snap = parseSnapshot(ref, keyNames(snapKeys), snapReply);
                              result.holders = snap.holders;
                              result.earliestExpiryMs = snap.soonestExpiryMs();
                              if (result.earliestExpiryMs && snap.serverNowMs > 0)
                                  result.retryAfterMs =
                                      std::max<qint64>(0, *result.earliestExpiryMs - snap.serverNowMs);
                              done(result);
                          });
              });
}

void FairKind::refresh(RedisCommands &conn, const core::Grant &grant, qint64 ttlMs,
                       core::Callback<core::RefreshResult> done) {
    QList<QByteArray> keys = keysOf(grant.ref.name);
    keys.removeLast();
    // The book's semaphore has one timeout for everybody: a refresh restarts it, it cannot change it.
    const qint64 timeout = timeoutMs(grant.ref);
    const QList<QByteArray> args{holderBytes(grant.rawHolder, grant.holder),
                                 grant.token ? QByteArray::number(*grant.token) : QByteArray(),
                                 QByteArray::number(timeout)};
    conn.eval(m_refresh, keys, args, [timeout, done](const RedisReply &reply) {
        core::RefreshResult result;
        const auto code = integerAt(reply, 0);
        if (reply.isError() || !code) {
            result.error = failureText(QStringLiteral("refresh"), reply);
        } else if (*code == 1) {
            result.status = core::RefreshResult::Status::Ok;
            if (const auto at = integerAt(reply, 1))
                result.expiresAtMs = *at + timeout;
        } else {
            result.status = core::RefreshResult::Status::Lost;
        }
        done(result);
    });
}

void FairKind::release(RedisCommands &conn, const core::Grant &grant,
                       core::Callback<core::ReleaseResult> done) {
    QList<QByteArray> keys = keysOf(grant.ref.name);
    keys.removeLast();
    const QList<QByteArray> args{holderBytes(grant.rawHolder, grant.holder),
                                 grant.token ? QByteArray::number(*grant.token) : QByteArray()};
    conn.eval(m_release, keys, args, [done](const RedisReply &reply) {
        core::ReleaseResult result;
        if (reply.isError() || !reply.toInteger())
            result.error = failureText(QStringLiteral("release"), reply);
        else
            result.status = *reply.toInteger() == 1 ? core::ReleaseResult::Status::Ok
                                                    : core::ReleaseResult::Status::NotHeld;
        done(result);
    });
}

void FairKind::forceRelease(RedisCommands &conn, const core::SemaphoreRef &ref, const core::Holder &observed,
                            std::optional<qint64> observedVersion,
                            core::Callback<core::ForceReleaseResult> done) {
    QList<QByteArray> keys = keysOf(ref.name);
    keys.removeLast();
    const std::optional<qint64> token = observed.token ? observed.token : observedVersion;
    // Without a counter (its :owner entry lost) the acquisition is told apart by its acquire time.
    const QList<QByteArray> args{holderBytes(observed.rawId, observed.id),
                                 token ? QByteArray::number(*token) : QByteArray(),
                                 observed.details.value(QStringLiteral("score")).toByteArray(),
                                 observed.state == core::HolderState::Orphan ? "1" : ""};
    const QString id = observed.id;
    const QString seen =
        token ? QStringLiteral("was seen with counter %1").arg(*token) : QStringLiteral("re-acquired");
    conn.eval(m_forceRelease, keys, args,
              [id, seen, done](const RedisReply &reply) { done(forceReleaseFromReply(reply, id, seen)); });
}

void FairKind::purgeExpired(RedisCommands &conn, const core::SemaphoreRef &ref,
                            core::Callback<core::MaintenanceResult> done) {
    QList<QByteArray> keys = keysOf(ref.name);
    keys.removeLast();
    conn.eval(m_purge, keys, {QByteArray::number(timeoutMs(ref))}, [done](const RedisReply &reply) {
        if (reply.isError() || !reply.toInteger()) {
            done({false, 0, failureText(QStringLiteral("purge"), reply)});
            return;
        }
        const qint64 n = *reply.toInteger();
        done({true, n,
              QStringLiteral("removed %1")
                  .arg(core::countText(n, QStringLiteral("timed-out holder"),
                                       QStringLiteral("timed-out holders")))});
    });
}

} // namespace semscope::redis
