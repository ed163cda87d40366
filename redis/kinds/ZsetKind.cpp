#include "ZsetKind.h"

#include "KindReplies.h"
#include "ScoreReading.h"
#include "SeedKindSupport.h"
#include "core/CountText.h"
#include "core/Duration.h"

#include <QHash>
#include <QSet>
#include <cmath>
#include <map>

namespace semscope::redis {

using namespace kinds;

namespace {

QByteArray holderBytes(const QByteArray &raw, const QString &printable) {
    return raw.isEmpty() ? printable.toUtf8() : raw;
}

QList<ZsetEntry> singleEntries(const QList<QPair<QByteArray, QByteArray>> &entries) {
    QList<ZsetEntry> out;
    out.reserve(entries.size());
    for (const auto &[member, score] : entries)
        out.append({member, score, 1, false});
    return out;
}

// "<base>_<n>" with n a plain decimal (no sign, no leading zero): the MultiSemaphore member form.
std::optional<std::pair<QByteArray, qint64>> permitMember(const QByteArray &member) {
    const qsizetype cut = member.lastIndexOf('_');
    if (cut <= 0 || cut + 1 >= member.size())
        return std::nullopt;
    const QByteArray digits = member.mid(cut + 1);
    if (digits.size() > 9 || (digits.size() > 1 && digits.startsWith('0')))
        return std::nullopt;
    for (char c : digits) {
        if (c < '0' || c > '9')
            return std::nullopt;
    }
    return std::pair{member.left(cut), digits.toLongLong()};
}

// The scripts that write or remove scores share how a set's unit is decided (zset_common.lua),
// prepended so that each operation stays one EVALSHA.
LuaScript writeScript(const QString &name) {
    return LuaScript(LuaScript::fromResource(QStringLiteral("zset_common")).source() + '\n' +
                     LuaScript::fromResource(name).source());
}

QString unitName(core::ScoreUnit unit) {
    return unit == core::ScoreUnit::Seconds ? QStringLiteral("seconds") : QStringLiteral("milliseconds");
}

// The clients' lease (the profile's timeout) caps semscope's; 0 when nobody said.
QByteArray clientLeaseArgument(const core::SemaphoreProfile &profile) {
    return QByteArray::number(profile.timeoutMs.value_or(0));
}

// Why a lease came out shorter than asked (the `capped` element of the acquire and refresh replies).
QString cappedReason(std::optional<qint64> code) {
    switch (code.value_or(0)) {
    case 1:
        return QStringLiteral("capped at the live holders' latest expiry: the set's clients rank by "
                              "expiry, so a later one would let their next client in over the limit");
    case 2:
        return QStringLiteral("capped at the clients' lease (the profile's timeout)");
    default:
        return {};
    }
}

QString shorterLease(qint64 askedMs, const QString &cappedReason) {
    return QStringLiteral("lease shorter than the %1 asked: %2")
        .arg(core::formatDurationMs(askedMs), cappedReason);
}

} // namespace

// node redis-semaphore's MultiSemaphore takes k permits as the members id_0 .. id_{k-1}, added,
// refreshed and removed together by one script with one `now`, so they share one score. A complete
// run 0..k-1 (k >= 2) with a single score is therefore one holder taking k permits, shown at the
// place of its first member. Anything else (a gap, differing scores, a lone id_0) stays one holder
// per member: a plain Semaphore's identifier may end in "_0" too, and a broken run must stay visible.
QList<ZsetEntry> ZsetKind::groupMultiPermits(const QList<QPair<QByteArray, QByteArray>> &entries) {
    std::map<QByteArray, std::map<qint64, qsizetype>> byBase; // base -> index -> position
    for (qsizetype i = 0; i < entries.size(); ++i) {
        if (const auto pm = permitMember(entries.at(i).first))
            byBase[pm->first][pm->second] = i;
    }
    QHash<qsizetype, ZsetEntry> groupAt; // first position -> the grouped holder
    QSet<qsizetype> absorbed;
    for (const auto &[base, positions] : byBase) {
        const qint64 k = qint64(positions.size());
        if (k < 2 || positions.cbegin()->first != 0 || positions.crbegin()->first != k - 1)
            continue; // the indices are distinct, so 0 and k-1 at the ends means exactly 0..k-1
        const QByteArray &score = entries.at(positions.cbegin()->second).second;
        bool sameScore = true;
        qsizetype first = positions.cbegin()->second;
        for (const auto &[index, pos] : positions) {
            sameScore = sameScore && entries.at(pos).second == score;
            first = std::min(first, pos);
        }
        if (!sameScore)
            continue;
        for (const auto &[index, pos] : positions)
            absorbed.insert(pos);
        groupAt.insert(first, ZsetEntry{base, score, k, true});
    }
    QList<ZsetEntry> out;
    for (qsizetype i = 0; i < entries.size(); ++i) {
        if (const auto g = groupAt.constFind(i); g != groupAt.cend())
            out.append(*g);
        else if (!absorbed.contains(i))
            out.append({entries.at(i).first, entries.at(i).second, 1, false});
    }
    return out;
}

ZsetKind::ZsetKind()
    : m_snapshot(LuaScript::fromResource(QStringLiteral("zset_snapshot")))
    , m_acquire(writeScript(QStringLiteral("zset_acquire")))
    , m_refresh(writeScript(QStringLiteral("zset_refresh")))
    , m_release(LuaScript::fromResource(QStringLiteral("zset_release")))
    , m_forceRelease(LuaScript::fromResource(QStringLiteral("zset_force_release")))
    , m_purge(writeScript(QStringLiteral("zset_purge"))) {}

QList<QByteArray> ZsetKind::keysOf(const QString &name) const {
    return {name.toUtf8()};
}

QByteArray ZsetKind::unitArgument(core::ScoreUnit unit) {
    switch (unit) {
    case core::ScoreUnit::Seconds:
        return "s";
    case core::ScoreUnit::Milliseconds:
        return "ms";
    case core::ScoreUnit::Auto:
        break;
    }
    return "auto";
}

core::Snapshot ZsetKind::parseSnapshot(const core::SemaphoreRef &ref, const QStringList &keys,
                                       const RedisReply &reply, Scores scores) {
    if (reply.isError() || !reply.isArray() || reply.elements.size() < 5)
        return failedSnapshot(ref, keys, QStringLiteral("reading the ZSET"), reply);
    core::Snapshot snap;
    snap.ref = ref;
    snap.keys = keys;
    const qint64 now = integerAt(reply, 0).value_or(0);
    snap.serverNowMs = now;
    const QByteArray type = bytesAt(reply, 1);
    if (!checkType(keys.value(0).toUtf8(), type, "zset", snap) || type == "none")
        return snap;
    const qint64 card = integerAt(reply, 2).value_or(0);
    const qint64 pttl = integerAt(reply, 4).value_or(-2);
    const auto entries = pairsAt(reply, 3);

    QList<QByteArray> rawScores;
    for (const auto &e : entries)
        rawScores << e.second;
    const ScoreReading reading = readScores(rawScores, now);
    core::ScoreUnit unit = ref.profile.scoreUnit;
    const bool unitGuessed = unit == core::ScoreUnit::Auto;
    if (unitGuessed) {
        unit = reading.unit.value_or(core::ScoreUnit::Milliseconds);
        snap.details.insert(QStringLiteral("score_unit_inferred"), true);
    }
    snap.details.insert(QStringLiteral("score_unit"),
                        unit == core::ScoreUnit::Seconds ? QStringLiteral("s") : QStringLiteral("ms"));
    if (reading.nonNumeric)
        snap.warnings << QStringLiteral("%1 has non-numeric (infinite) scores").arg(keys.value(0));
    // The write scripts refuse the same conflicts (zset_common.lua): the warning says why.
    const QString refused = scores == Scores::Expiry
                                ? QStringLiteral("; acquire, refresh and purge are refused until they agree")
                                : QString();
    if (reading.mixedUnits) {
        snap.warnings << QStringLiteral("%1 mixes second and millisecond scores (%2 in seconds, %3 in "
                                        "milliseconds): which holders have expired is not certain%4")
                             .arg(keys.value(0))
                             .arg(reading.seconds)
                             .arg(reading.milliseconds)
                             .arg(refused);
    } else if (!unitGuessed && reading.unit && *reading.unit != unit) {
        snap.warnings << QStringLiteral("the profile gives %1's scores in %2, but they read as %3%4")
                             .arg(keys.value(0), unitName(unit), unitName(*reading.unit), refused);
    }

    std::optional<qint64> timeout = ref.profile.timeoutMs;
    if (scores == Scores::RefreshTime) {
        if (!timeout && pttl > 0 && !entries.isEmpty()) {
            // Every acquire and refresh resets both the newest score and the key's PEXPIRE.
            double newest = 0;
            for (const auto &e : entries)
                newest = std::max(newest, e.second.toDouble());
            timeout = pttl + (now - scoreToMs(newest, unit));
            snap.details.insert(QStringLiteral("timeout_inferred"), true);
        }
        if (timeout && ref.profile.timeoutInferred) // discovery's estimate, carried in the profile
            snap.details.insert(QStringLiteral("timeout_inferred"), true);
        if (timeout)
            snap.details.insert(QStringLiteral("timeout_ms"), *timeout);
        else
            snap.warnings << QStringLiteral(
                "the lock timeout is not stored: set it in the profile to see expiries");
    } else if (pttl >= 0) {
        snap.details.insert(QStringLiteral("key_pttl_ms"), pttl);
    }

    if (ref.profile.limit) {
        snap.limit = *ref.profile.limit;
        snap.limitSource = ref.profile.inferred ? core::LimitSource::Inferred : core::LimitSource::Profile;
    }

    const QList<ZsetEntry> holders =
        scores == Scores::RefreshTime ? groupMultiPermits(entries) : singleEntries(entries);
    qint64 rank = 0, live = 0, untimedCount = 0;
    QString untimed; // the first holder whose score is no time
    for (const ZsetEntry &entry : holders) {
        const QByteArray &score = entry.score;
        core::Holder h;
        h.rawId = entry.member;
        h.id = printableId(entry.member);
        h.rank = rank++;
        h.permits = entry.permits;
        h.details.insert(QStringLiteral("score"), QString::fromLatin1(score));
        if (entry.multi) {
            h.details.insert(QStringLiteral("multi_permit"), true);
            h.details.insert(QStringLiteral("members"),
                             QStringLiteral("%1_0 .. %1_%2").arg(h.id).arg(entry.permits - 1));
        }
        bool ok = false;
        const double v = score.toDouble(&ok);
        if (!ok || !std::isfinite(v)) {
            h.state = core::HolderState::Stale;
            snap.holders << h;
            continue;
        }
        const std::optional<core::ScoreUnit> looksLike = guessScoreUnit(v, now);
        // In a mixed set each score is shown as what it looks like, not in the majority's unit.
        const core::ScoreUnit own = unitGuessed && reading.mixedUnits ? looksLike.value_or(unit) : unit;
        const qint64 ms = scoreToMs(v, own);
        if (scores == Scores::Expiry && !looksLike) {
            // No time in either unit (0, a counter): the write scripts keep it as a holder, so does this.
            h.details.insert(QStringLiteral("expiry_unknown"), true);
            if (untimed.isEmpty())
                untimed = h.id;
            ++untimedCount;
        } else if (scores == Scores::Expiry) {
            h.expiresAtMs = ms;
        } else {
            h.acquiredAtMs = ms; // last acquire or refresh
            if (timeout)
                h.expiresAtMs = ms + *timeout;
        }
        if (h.expiresAtMs && *h.expiresAtMs <= now) {
            h.state = core::HolderState::ExpiredPresent;
        } else {
            if (snap.limit && live + h.permits > *snap.limit)
                h.state = core::HolderState::OverLimit;
            live += h.permits;
        }
        snap.holders << h;
    }
    if (!snap.limit)
        inferLimitFromHolders(snap, live);
    if (untimedCount > 0)
        snap.warnings
            << QStringLiteral(
                   "%1 holds members whose score is no time in seconds or milliseconds (%2, e.g. %3): "
                   "their expiry is unknown, so they count as holders and purge keeps them")
                   .arg(keys.value(0))
                   .arg(untimedCount)
                   .arg(untimed);
    if (card > entries.size())
        snap.warnings << QStringLiteral("%1 has %2 entries; only the first %3 were read")
                             .arg(keys.value(0))
                             .arg(card)
                             .arg(entries.size());
    const qint64 over = snap.countInState(core::HolderState::OverLimit);
    if (over > 0)
        snap.warnings << QStringLiteral("%1 more live holders than the limit %2").arg(over).arg(*snap.limit);
    return snap;
}

void ZsetKind::snapshot(RedisCommands &conn, const core::SemaphoreRef &ref,
                        core::Callback<core::Snapshot> done) {
    conn.eval(m_snapshot, keysOf(ref.name), {QByteArray::number(kSnapshotCap)},
              [ref, done](const RedisReply &reply) {
                  done(parseSnapshot(ref, {ref.name}, reply, Scores::Expiry));
              });
}

void ZsetKind::tryAcquire(RedisCommands &conn, const core::SemaphoreRef &ref,
                          const core::AcquireRequest &request, core::Callback<core::AcquireResult> done) {
    if (!ref.profile.limit || *ref.profile.limit < 1) {
        core::AcquireResult result;
        result.error =
            QStringLiteral("acquire refused: the ZSET semaphore %1 does not store its limit; give one "
                           "(--limit, or the profile)")
                .arg(ref.name);
        done(result);
        return;
    }
    const QString holder = request.holder.isEmpty() ? makeHolderId() : request.holder;
    const QList<QByteArray> args{holder.toUtf8(), QByteArray::number(*ref.profile.limit),
                                 QByteArray::number(std::max<qint64>(1, request.ttlMs)),
                                 unitArgument(ref.profile.scoreUnit), clientLeaseArgument(ref.profile)};
    RedisCommands *c = &conn;
    const bool wantHolders = request.waitMs <= 0;
    conn.eval(m_acquire, keysOf(ref.name), args,
              [this, c, ref, holder, wantHolders, ttlMs = request.ttlMs, done](const RedisReply &reply) {
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
                      result.grant.expiresAtMs = integerAt(reply, 1);
                      result.grant.rank = integerAt(reply, 2);
                      if (const QString capped = cappedReason(integerAt(reply, 3)); !capped.isEmpty()) {
                          result.grant.details.insert(QStringLiteral("lease_capped"), capped);
                          result.grant.details.insert(QStringLiteral("warnings"),
                                                      QStringList{shorterLease(ttlMs, capped)});
                      }
                      done(result);
                      return;
                  }
                  result.status = core::AcquireResult::Status::Busy;
                  if (*code == 0)
                      result.error = QStringLiteral("%1 already holds a slot").arg(holder);
                  const qint64 earliest = integerAt(reply, 1).value_or(-1);
                  if (earliest > 0)
                      result.earliestExpiryMs = earliest;
                  if (!wantHolders) {
                      done(result);
                      return;
                  }
                  c->eval(m_snapshot, keysOf(ref.name), {QByteArray::number(kSnapshotCap)},
                          [ref, result, done](const RedisReply &snapReply) mutable {
                              const core::Snapshot snap =
                                  parseSnapshot(ref, {ref.name}, snapReply, Scores::Expiry);
                              result.holders = snap.holders;
                              if (result.earliestExpiryMs && snap.serverNowMs > 0)
                                  result.retryAfterMs =
                                      std::max<qint64>(0, *result.earliestExpiryMs - snap.serverNowMs);
                              done(result);
                          });
              });
}

void ZsetKind::refresh(RedisCommands &conn, const core::Grant &grant, qint64 ttlMs,
                       core::Callback<core::RefreshResult> done) {
    const QList<QByteArray> args{
        holderBytes(grant.rawHolder, grant.holder), QByteArray::number(std::max<qint64>(1, ttlMs)),
        unitArgument(grant.ref.profile.scoreUnit), clientLeaseArgument(grant.ref.profile)};
    conn.eval(m_refresh, keysOf(grant.ref.name), args, [ttlMs, done](const RedisReply &reply) {
        core::RefreshResult result;
        const auto code = integerAt(reply, 0);
        if (reply.isError() || !code) {
            result.error = failureText(QStringLiteral("refresh"), reply);
        } else if (*code == -2) {
            result.error = QStringLiteral("refresh refused: ") + QString::fromUtf8(bytesAt(reply, 1));
        } else if (*code == 1) {
            result.status = core::RefreshResult::Status::Ok;
            result.expiresAtMs = integerAt(reply, 1);
            if (const QString capped = cappedReason(integerAt(reply, 2)); !capped.isEmpty())
                result.warnings << shorterLease(ttlMs, capped);
        } else {
            result.status = core::RefreshResult::Status::Lost;
        }
        done(result);
    });
}

void ZsetKind::release(RedisCommands &conn, const core::Grant &grant,
                       core::Callback<core::ReleaseResult> done) {
    conn.eval(m_release, keysOf(grant.ref.name), {holderBytes(grant.rawHolder, grant.holder)},
              [done](const RedisReply &reply) {
                  core::ReleaseResult result;
                  if (reply.isError() || !reply.toInteger())
                      result.error = failureText(QStringLiteral("release"), reply);
                  else
                      result.status = *reply.toInteger() == 1 ? core::ReleaseResult::Status::Ok
                                                              : core::ReleaseResult::Status::NotHeld;
                  done(result);
              });
}

void ZsetKind::forceRelease(RedisCommands &conn, const core::SemaphoreRef &ref, const core::Holder &observed,
                            std::optional<qint64> observedVersion,
                            core::Callback<core::ForceReleaseResult> done) {
    // The score the operator saw identifies the acquisition: a re-acquire or refresh changes it.
    const QByteArray score = observed.details.value(QStringLiteral("score")).toString().toLatin1();
    const QString id = observed.id;
    conn.eval(m_forceRelease, keysOf(ref.name), {holderBytes(observed.rawId, observed.id), score},
              [id, done](const RedisReply &reply) {
                  done(forceReleaseFromReply(reply, id, QStringLiteral("re-acquired or refreshed, score")));
              });
}

void ZsetKind::purgeExpired(RedisCommands &conn, const core::SemaphoreRef &ref,
                            core::Callback<core::MaintenanceResult> done) {
    conn.eval(
        m_purge, keysOf(ref.name), {unitArgument(ref.profile.scoreUnit)}, [done](const RedisReply &reply) {
            const auto code = integerAt(reply, 0);
            if (code == -2) {
                done({false, 0, QStringLiteral("purge refused: ") + QString::fromUtf8(bytesAt(reply, 1))});
                return;
            }
            const auto n = integerAt(reply, 1);
            if (reply.isError() || code != 1 || !n) {
                done({false, 0, failureText(QStringLiteral("purge"), reply)});
                return;
            }
            done({true, *n,
                  QStringLiteral("removed %1")
                      .arg(core::countText(*n, QStringLiteral("expired holder"),
                                           QStringLiteral("expired holders")))});
        });
}

} // namespace semscope::redis
