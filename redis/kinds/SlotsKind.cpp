#include "SlotsKind.h"

#include "KeyLayouts.h"
#include "KindReplies.h"
#include "SeedKindSupport.h"
#include "core/CountText.h"
#include "core/Duration.h"

#include <QHash>
#include <QSet>

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

// The acquisition token a script compares: empty for an acquisition that had none (the seed's
// clients record none, nor does semscope on a semaphore it did not create).
QByteArray tokenArg(const std::optional<qint64> &token) {
    return token ? QByteArray::number(*token) : QByteArray();
}

// Write scripts are the shared helpers (slots_common.lua) followed by the operation, so each stays
// one EVALSHA.
LuaScript writeScript(const QString &name) {
    return LuaScript(LuaScript::fromResource(QStringLiteral("slots_common")).source() + '\n' +
                     LuaScript::fromResource(name).source());
}

// Members of R|lease that are semscope's bookkeeping, not a holder's lease (slots_common.lua).
constexpr QByteArrayView kFenceMember = "semscope:fence";
constexpr QByteArrayView kTokenPrefix = "semscope:token:";

// Said wherever a limit from the profile (or --limit) meets a semaphore that already has its own.
QString limitMismatch(const core::SemaphoreRef &ref, qint64 slotCount) {
    return QStringLiteral("%1 has %2; the limit given (%3) is not used: it only sizes a new "
                          "semaphore (set-limit changes this one)")
        .arg(ref.name, core::countText(slotCount, QStringLiteral("slot"), QStringLiteral("slots")))
        .arg(ref.profile.limit.value_or(0));
}

// An acquire that asked for a lease (AcquireRequest::ttlGiven) on a layout that keeps none.
QString noLeaseKept(const core::SemaphoreRef &ref, qint64 ttlMs) {
    return QStringLiteral(
               "acquire refused: %1 was not created by semscope and its layout keeps no lease, so "
               "a slot taken now would be held until someone releases it, not for the %2 asked; "
               "nothing was taken. To take a slot without a lease, leave the TTL out (semscope-cli: "
               "omit --ttl)")
        .arg(ref.name, core::formatDurationMs(ttlMs));
}

// A granted reply {slot, expiry or -1, token or -1, N}. What the operator must be told goes into the
// grant's details ("warnings"): that no lease was taken because the layout keeps none, and that the
// semaphore's own limit is not the one given.
core::Grant grantFromReply(const core::SemaphoreRef &ref, const QString &holder, qint64 ttlMs,
                           const RedisReply &reply) {
    core::Grant g;
    g.ref = ref;
    g.holder = holder;
    g.rawHolder = holder.toUtf8();
    // No rank: a slot number (1..N, as the layout stores it) is not a place in an order, and ranks
    // count from 0 everywhere else (README, "Rank and slot numbers").
    g.slot = integerAt(reply, 0);
    if (const qint64 expiry = integerAt(reply, 1).value_or(-1); expiry > 0)
        g.expiresAtMs = expiry;
    if (const qint64 token = integerAt(reply, 2).value_or(-1); token > 0)
        g.token = token;
    QStringList warnings;
    if (const auto limit = integerAt(reply, 3)) {
        g.details.insert(QStringLiteral("limit"), *limit);
        if (ref.profile.limit && *ref.profile.limit != *limit)
            warnings << limitMismatch(ref, *limit);
    }
    if (!g.expiresAtMs && ttlMs > 0)
        warnings << QStringLiteral("no lease taken: %1 was not created by semscope and its layout keeps "
                                   "none, so slot %2 is held until it is released")
                        .arg(ref.name)
                        .arg(g.slot.value_or(0));
    if (!warnings.isEmpty())
        g.details.insert(QStringLiteral("warnings"), warnings);
    return g;
}

} // namespace

SlotsKind::SlotsKind()
    : m_snapshot(LuaScript::fromResource(QStringLiteral("slots_snapshot")))
    , m_acquire(writeScript(QStringLiteral("slots_acquire")))
    , m_refresh(writeScript(QStringLiteral("slots_refresh")))
    , m_release(writeScript(QStringLiteral("slots_release")))
    , m_forceRelease(writeScript(QStringLiteral("slots_force_release")))
    , m_purge(writeScript(QStringLiteral("slots_purge")))
    , m_repair(LuaScript::fromResource(QStringLiteral("slots_repair")))
    , m_setLimit(LuaScript::fromResource(QStringLiteral("slots_set_limit"))) {}

QList<QByteArray> SlotsKind::keysOf(const QString &name) const {
    return keyLayout(core::Kind::Slots).keysFor(name);
}

core::Snapshot SlotsKind::parseSnapshot(const core::SemaphoreRef &ref, const QStringList &keys,
                                        const RedisReply &reply) {
    if (reply.isError() || !reply.isArray() || reply.elements.size() < 9)
        return failedSnapshot(ref, keys, QStringLiteral("reading the slot semaphore"), reply);
    core::Snapshot snap;
    snap.ref = ref;
    snap.keys = keys;
    const qint64 now = integerAt(reply, 0).value_or(0);
    snap.serverNowMs = now;
    const QByteArray listType = bytesAt(reply, 1), mapType = bytesAt(reply, 2), leaseType = bytesAt(reply, 3);
    const KeyLayout &layout = keyLayout(core::Kind::Slots); // |list, |map, |lease
    const QList<QByteArray> k = layout.keysFor(ref.name);
    const bool listOk = checkType(k[0], listType, layout.keys[0].type, snap);
    const bool mapOk = checkType(k[1], mapType, layout.keys[1].type, snap);
    checkType(k[2], leaseType, layout.keys[2].type, snap);
    const qint64 listLen = listOk ? integerAt(reply, 4).value_or(0) : 0;
    const qint64 mapLen = mapOk ? integerAt(reply, 5).value_or(0) : 0;

    // Free slots; duplicates and garbage are corruption worth a warning each.
    QHash<qint64, int> freeCount;
    const RedisReply &items = elementAt(reply, 6);
    int garbageFree = 0;
    for (const RedisReply &item : items.elements) {
        const auto slot = strictInteger(item.str);
        if (!slot || *slot < 1) {
            ++garbageFree;
            continue;
        }
        snap.freeSlots << *slot;
        freeCount[*slot] += 1;
    }
    if (garbageFree > 0)
        snap.warnings
            << QStringLiteral("%1 holds %2")
                   .arg(keys.value(0),
                        core::forCount(
                            garbageFree, QStringLiteral("1 entry that is not a slot number"),
                            QStringLiteral("%1 entries that are not slot numbers").arg(garbageFree)));
    if (listLen > items.elements.size())
        snap.warnings << QStringLiteral("%1 has %2 entries; only the first %3 were read")
                             .arg(keys.value(0))
                             .arg(listLen)
                             .arg(items.elements.size());

    // Leases and acquisition tokens (semscope-created semaphores only).
    QHash<QByteArray, qint64> leases, tokens;
    bool owned = false;
    for (const auto &[member, score] : pairsAt(reply, 8)) {
        if (member == kOwnedMarker) {
            owned = true;
            continue;
        }
        bool ok = false;
        const double v = score.toDouble(&ok);
        if (!ok)
            continue;
        if (member == kFenceMember)
            snap.counter = qint64(v);
        else if (member.startsWith(kTokenPrefix))
            tokens.insert(member.mid(kTokenPrefix.size()), qint64(v));
        else
            leases.insert(member, qint64(v));
    }
    snap.details.insert(QStringLiteral("lease"), owned);

    // Holders.
    const RedisReply &map = elementAt(reply, 7);
    QHash<qint64, QStringList> holdersOfSlot;
    qint64 maxSlot = 0;
    for (qsizetype i = 0; i + 2 < map.elements.size(); i += 3) {
        core::Holder h;
        h.rawId = map.elements.at(i).str;
        h.id = printableId(h.rawId);
        const QByteArray value = map.elements.at(i + 1).str;
        const qint64 valueLen = map.elements.at(i + 2).toInteger().value_or(value.size());
        const auto slot = strictInteger(value);
        if (!slot || *slot < 1) {
            snap.warnings << QStringLiteral("%1: holder %2 maps to %3, not a slot number")
                                 .arg(keys.value(1), h.id,
                                      valueLen > 64 ? byteSize(valueLen)
                                                    : QStringLiteral("\"%1\"").arg(QString::fromUtf8(value)));
            h.state = core::HolderState::Stale;
        } else {
            h.slot = *slot; // and no rank: see grantFromReply
            holdersOfSlot[*slot] << h.id;
            maxSlot = std::max(maxSlot, *slot);
        }
        if (tokens.contains(h.rawId))
            h.token = tokens.value(h.rawId);
        if (leases.contains(h.rawId)) {
            h.expiresAtMs = leases.value(h.rawId);
            if (*h.expiresAtMs <= now)
                h.state = core::HolderState::ExpiredPresent;
        }
        snap.holders << h;
    }
    if (mapLen > snap.holders.size())
        snap.warnings << QStringLiteral("%1 has %2 holders; only the first %3 were read")
                             .arg(keys.value(1))
                             .arg(mapLen)
                             .arg(snap.holders.size());
    for (qint64 s : std::as_const(snap.freeSlots))
        maxSlot = std::max(maxSlot, s);

    // N: what the layout holds once it exists (the acquire script reads it the same way), else the
    // profile's. A profile limit that differs is the operator's to reconcile: only set-limit changes
    // the semaphore.
    if (listLen + mapLen > 0) {
        QSet<qint64> distinct(snap.freeSlots.cbegin(), snap.freeSlots.cend());
        for (auto it = holdersOfSlot.cbegin(); it != holdersOfSlot.cend(); ++it)
            distinct.insert(it.key());
        snap.limit = std::max<qint64>(maxSlot, distinct.size());
        snap.limitSource = core::LimitSource::Stored;
        if (ref.profile.limit && *ref.profile.limit != *snap.limit)
            snap.warnings << limitMismatch(ref, *snap.limit);
    } else if (ref.profile.limit) {
        snap.limit = *ref.profile.limit;
        snap.limitSource = ref.profile.inferred ? core::LimitSource::Inferred : core::LimitSource::Profile;
    }

    // Consistency checks: every slot 1..limit is either free once or held once, as the seed's
    // clients leave it when none crashed between their LPOP and HSET; anything else is what `repair`
    // undoes (README, "Semaphore layouts semscope reads and operates").
    QList<qint64> duplicatesFree, inBoth, duplicateHeld;
    for (auto it = freeCount.cbegin(); it != freeCount.cend(); ++it) {
        if (it.value() > 1)
            duplicatesFree << it.key();
        if (holdersOfSlot.contains(it.key()))
            inBoth << it.key();
    }
    for (auto it = holdersOfSlot.cbegin(); it != holdersOfSlot.cend(); ++it) {
        if (it.value().size() > 1)
            duplicateHeld << it.key();
    }
    if (!duplicatesFree.isEmpty())
        snap.warnings << QStringLiteral("duplicate free slots in %1: %2 (repair drops them)")
                             .arg(keys.value(0), numberRanges(duplicatesFree));
    if (!inBoth.isEmpty())
        snap.warnings << QStringLiteral("slots both free and held: %1 (repair drops them from the free list)")
                             .arg(numberRanges(inBoth));
    if (!duplicateHeld.isEmpty())
        snap.warnings
            << QStringLiteral("slots held by more than one holder: %1").arg(numberRanges(duplicateHeld));
    if (snap.limit && listLen == items.elements.size() && mapLen == snap.holders.size()) {
        QList<qint64> missing;
        for (qint64 s = 1; s <= *snap.limit && missing.size() < 1000; ++s) {
            if (!freeCount.contains(s) && !holdersOfSlot.contains(s))
                missing << s;
        }
        if (!missing.isEmpty())
            snap.warnings << QStringLiteral(
                                 "slots neither free nor held (leaked): %1 (repair re-pushes them)")
                                 .arg(numberRanges(missing));
        if (listLen + mapLen > *snap.limit)
            snap.warnings << QStringLiteral("%1 free + %2 held is more than the limit %3")
                                 .arg(listLen)
                                 .arg(mapLen)
                                 .arg(*snap.limit);
    }
    // Holders beyond the limit, and the second holder of a doubly held slot, are over the limit.
    QSet<qint64> seenSlots;
    for (core::Holder &h : snap.holders) {
        if (!h.slot)
            continue;
        const bool beyond = snap.limit && *h.slot > *snap.limit;
        if (beyond || seenSlots.contains(*h.slot))
            h.state = core::HolderState::OverLimit;
        seenSlots.insert(*h.slot);
    }
    std::sort(snap.holders.begin(), snap.holders.end(), [](const core::Holder &a, const core::Holder &b) {
        return a.slot.value_or(std::numeric_limits<qint64>::max()) <
               b.slot.value_or(std::numeric_limits<qint64>::max());
    });
    return snap;
}

void SlotsKind::snapshot(RedisCommands &conn, const core::SemaphoreRef &ref,
                         core::Callback<core::Snapshot> done) {
    const QList<QByteArray> keys = keysOf(ref.name);
    conn.eval(
        m_snapshot, keys, {QByteArray::number(kSnapshotCap)},
        [ref, keys, done](const RedisReply &reply) { done(parseSnapshot(ref, keyNames(keys), reply)); });
}

// slots_snapshot.lua's reply built from one routed command per key: R|list and R|map hash to
// different slots, so on a Redis Cluster no script can read them together. The map is read with one
// HSCAN page of up to the cap (all of a small hash; a huge one may come back partly).
void SlotsKind::snapshotKeyByKey(RedisCommands &conn, const core::SemaphoreRef &ref,
                                 core::Callback<core::Snapshot> done) {
    const QList<QByteArray> k = keysOf(ref.name);
    const QByteArray cap = QByteArray::number(kSnapshotCap);
    const QByteArray last = QByteArray::number(kSnapshotCap - 1);
    conn.pipeline(
        {{"TIME"},
         {"TYPE", k[0]},
         {"TYPE", k[1]},
         {"TYPE", k[2]},
         {"LLEN", k[0]},
         {"LRANGE", k[0], "0", last},
         {"HLEN", k[1]},
         {"HSCAN", k[1], "0", "COUNT", cap},
         {"ZRANGE", k[2], "0", last, "WITHSCORES"}},
        [ref, k, done](const QList<RedisReply> &r) {
            if (const auto failure = firstFailure(r)) {
                done(parseSnapshot(ref, keyNames(k), *failure));
                return;
            }
            const bool list = r.value(1).str == "list";
            const bool map = r.value(2).str == "hash";
            const bool lease = r.value(3).str == "zset";
            QList<RedisReply> items;
            if (list) {
                for (const RedisReply &v : r.value(5).elements)
                    items << RedisReply::string(v.str.left(64));
            }
            QList<RedisReply> triples;
            if (map) {
                const RedisReply page = r.value(7).elements.value(1);
                for (qsizetype i = 0; i + 1 < page.elements.size() && triples.size() < 3 * kSnapshotCap;
                     i += 2) {
                    const QByteArray &value = page.elements.at(i + 1).str;
                    triples << RedisReply::string(page.elements.at(i).str.left(1024))
                            << RedisReply::string(value.left(64)) << RedisReply::integerReply(value.size());
                }
            }
            done(parseSnapshot(
                ref, keyNames(k),
                arrayReply({RedisReply::integerReply(timeReplyMs(r.value(0))), typeReply(r.value(1)),
                            typeReply(r.value(2)), typeReply(r.value(3)),
                            RedisReply::integerReply(list ? r.value(4).integer : 0),
                            RedisReply::integerReply(map ? r.value(6).integer : 0), arrayReply(items),
                            arrayReply(triples), lease ? arrayOrEmpty(r.value(8)) : arrayReply({})})));
        });
}

void SlotsKind::tryAcquire(RedisCommands &conn, const core::SemaphoreRef &ref,
                           const core::AcquireRequest &request, core::Callback<core::AcquireResult> done) {
    const QString holder = request.holder.isEmpty() ? makeHolderId() : request.holder;
    const QList<QByteArray> keys = keysOf(ref.name);
    const QList<QByteArray> args{holder.toUtf8(), QByteArray::number(ref.profile.limit.value_or(0)),
                                 QByteArray::number(std::max<qint64>(0, request.ttlMs)),
                                 request.ttlGiven ? QByteArray("1") : QByteArray("0")};
    RedisCommands *c = &conn;
    const bool wantHolders = request.waitMs <= 0; // a one-shot caller shows who holds the slots
    const qint64 ttlMs = request.ttlMs;
    conn.eval(m_acquire, keys, args,
              [this, c, ref, holder, ttlMs, keys, wantHolders, done](const RedisReply &reply) {
                  core::AcquireResult result;
                  result.attempts = 1;
                  const auto code = integerAt(reply, 0);
                  if (reply.isError() || !code || *code == -2) {
                      result.status = core::AcquireResult::Status::Error;
                      result.error = code && *code == -2 ? QStringLiteral("acquire refused: ") +
                                                               QString::fromUtf8(bytesAt(reply, 1))
                                                         : failureText(QStringLiteral("acquire"), reply);
                      done(result);
                      return;
                  }
                  if (*code == -3) {
                      result.status = core::AcquireResult::Status::Error;
                      result.error = noLeaseKept(ref, ttlMs);
                      done(result);
                      return;
                  }
                  if (*code > 0) {
                      result.status = core::AcquireResult::Status::Granted;
                      result.grant = grantFromReply(ref, holder, ttlMs, reply);
                      done(result);
                      return;
                  }
                  result.status = core::AcquireResult::Status::Busy;
                  if (*code == 0)
                      result.error = QStringLiteral("%1 already holds slot %2")
                                         .arg(holder)
                                         .arg(integerAt(reply, 1).value_or(-1));
                  const qint64 earliest = integerAt(reply, 2).value_or(-1);
                  if (*code == -1 && earliest > 0)
                      result.earliestExpiryMs = earliest;
                  if (!wantHolders) {
                      done(result);
                      return;
                  }
                  c->eval(m_snapshot, keys, {QByteArray::number(kSnapshotCap)},
                          [ref, keys, result, done](const RedisReply &snapReply) mutable {
                              const core::Snapshot snap = parseSnapshot(ref, keyNames(keys), snapReply);
                              result.holders = snap.holders;
                              if (snap.serverNowMs > 0 && result.earliestExpiryMs)
                                  result.retryAfterMs =
                                      std::max<qint64>(0, *result.earliestExpiryMs - snap.serverNowMs);
                              done(result);
                          });
              });
}

void SlotsKind::refresh(RedisCommands &conn, const core::Grant &grant, qint64 ttlMs,
                        core::Callback<core::RefreshResult> done) {
    const QList<QByteArray> args{holderBytes(grant.rawHolder, grant.holder),
                                 grant.slot ? QByteArray::number(*grant.slot) : QByteArray(),
                                 QByteArray::number(std::max<qint64>(0, ttlMs)), tokenArg(grant.token)};
    conn.eval(m_refresh, keysOf(grant.ref.name), args, [done](const RedisReply &reply) {
        core::RefreshResult result;
        const auto code = integerAt(reply, 0);
        if (reply.isError() || !code) {
            result.error = failureText(QStringLiteral("refresh"), reply);
        } else if (*code == 1) {
            result.status = core::RefreshResult::Status::Ok;
            const qint64 expiry = integerAt(reply, 1).value_or(-1);
            if (expiry > 0)
                result.expiresAtMs = expiry;
        } else {
            result.status = core::RefreshResult::Status::Lost;
        }
        done(result);
    });
}

void SlotsKind::release(RedisCommands &conn, const core::Grant &grant,
                        core::Callback<core::ReleaseResult> done) {
    const QList<QByteArray> args{holderBytes(grant.rawHolder, grant.holder),
                                 grant.slot ? QByteArray::number(*grant.slot) : QByteArray(),
                                 tokenArg(grant.token)};
    conn.eval(m_release, keysOf(grant.ref.name), args, [done](const RedisReply &reply) {
        core::ReleaseResult result;
        if (reply.isError() || !reply.toInteger()) {
            result.error = failureText(QStringLiteral("release"), reply);
        } else {
            result.status = *reply.toInteger() == 1 ? core::ReleaseResult::Status::Ok
                                                    : core::ReleaseResult::Status::NotHeld;
        }
        done(result);
    });
}

void SlotsKind::forceRelease(RedisCommands &conn, const core::SemaphoreRef &ref, const core::Holder &observed,
                             std::optional<qint64> observedVersion,
                             core::Callback<core::ForceReleaseResult> done) {
    if (!observed.slot) {
        done({core::ForceReleaseResult::Status::Error,
              QStringLiteral("force-release of %1 needs the slot it was seen holding").arg(observed.id)});
        return;
    }
    // The slot and, where semscope records one, the acquisition token: a holder that gave its slot
    // back and took the same one again is another acquisition, not the one the operator saw.
    const QList<QByteArray> args{holderBytes(observed.rawId, observed.id), QByteArray::number(*observed.slot),
                                 tokenArg(observed.token)};
    QString seen = QStringLiteral("was seen with slot %1").arg(*observed.slot);
    if (observed.token)
        seen += QStringLiteral(", token %1").arg(*observed.token);
    conn.eval(m_forceRelease, keysOf(ref.name), args,
              [id = observed.id, seen, done](const RedisReply &reply) {
                  done(forceReleaseFromReply(reply, id, seen));
              });
}

void SlotsKind::purgeExpired(RedisCommands &conn, const core::SemaphoreRef &ref,
                             core::Callback<core::MaintenanceResult> done) {
    conn.eval(m_purge, keysOf(ref.name), {}, [done](const RedisReply &reply) {
        if (reply.isError() || !reply.toInteger()) {
            done({false, 0, failureText(QStringLiteral("purge"), reply)});
            return;
        }
        const qint64 n = *reply.toInteger();
        done({true, n,
              QStringLiteral("reclaimed %1 whose lease ran out")
                  .arg(core::countText(n, QStringLiteral("holder"), QStringLiteral("holders")))});
    });
}

void SlotsKind::repair(RedisCommands &conn, const core::SemaphoreRef &ref,
                       core::Callback<core::MaintenanceResult> done) {
    conn.eval(m_repair, keysOf(ref.name), {QByteArray::number(ref.profile.limit.value_or(0))},
              [done](const RedisReply &reply) {
                  const auto code = integerAt(reply, 0);
                  const QString message = QString::fromUtf8(bytesAt(reply, 1));
                  if (reply.isError() || !code) {
                      done({false, 0, failureText(QStringLiteral("repair"), reply)});
                  } else if (*code < 0) {
                      done({false, 0, QStringLiteral("repair refused: ") + message});
                  } else {
                      done({true, *code, message});
                  }
              });
}

void SlotsKind::setLimit(RedisCommands &conn, const core::SemaphoreRef &ref, qint64 limit,
                         core::Callback<core::MaintenanceResult> done) {
    if (limit < 1) {
        done({false, 0, QStringLiteral("set limit refused: the limit must be at least 1")});
        return;
    }
    conn.eval(
        m_setLimit, keysOf(ref.name), {QByteArray::number(limit)}, [ref, done](const RedisReply &reply) {
            const auto code = integerAt(reply, 0);
            if (reply.isError() || !code) {
                done({false, 0, failureText(QStringLiteral("set limit"), reply)});
                return;
            }
            if (*code == -1) {
                done({false, 0,
                      QStringLiteral(
                          "set limit refused: slots %1 of %2 are held, above the new limit; release "
                          "or force-release them first")
                          .arg(QString::fromUtf8(bytesAt(reply, 1).left(200)), ref.name)});
                return;
            }
            if (*code < 0) {
                done(
                    {false, 0, QStringLiteral("set limit refused: ") + QString::fromUtf8(bytesAt(reply, 1))});
                return;
            }
            const qint64 before = *code;
            const qint64 after = integerAt(reply, 1).value_or(0);
            const qint64 added = integerAt(reply, 2).value_or(0);
            const qint64 removed = integerAt(reply, 3).value_or(0);
            const qint64 dropped = integerAt(reply, 4).value_or(0);
            const bool owned = integerAt(reply, 5).value_or(0) == 1;
            QString message =
                QStringLiteral("limit of %1 is now %2 (was %3): %4 added, %5 removed")
                    .arg(ref.name)
                    .arg(after)
                    .arg(core::countText(before, QStringLiteral("slot"), QStringLiteral("slots")),
                         core::countText(added, QStringLiteral("free slot"), QStringLiteral("free slots")))
                    .arg(removed);
            if (dropped > 0)
                message += QStringLiteral(", %1 dropped")
                               .arg(core::countText(dropped, QStringLiteral("bad or duplicate free entry"),
                                                    QStringLiteral("bad or duplicate free entries")));
            if (!owned)
                message += QStringLiteral(
                    "; clients that pass their own slot count to the acquire script (the seed's) refill the "
                    "list up to theirs, so change their configuration too");
            done({true, added + removed + dropped, message});
        });
}

} // namespace semscope::redis
