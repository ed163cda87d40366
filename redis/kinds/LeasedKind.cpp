#include "LeasedKind.h"

#include "KeyLayouts.h"
#include "KindReplies.h"
#include "SeedKindSupport.h"
#include "core/CountText.h"

namespace semscope::redis {

using namespace kinds;
using core::AcquireResult;
using core::countText;
using core::ForceReleaseResult;
using core::forCount;
using core::HolderState;
using core::MaintenanceResult;
using core::RefreshResult;
using core::ReleaseResult;

namespace {

// The types of keysOf(), in its order (kinds/KeyLayouts.cpp describes the layout).
const QList<QByteArray> kExpectedTypes = keyLayout(core::Kind::Leased).types();

// Write scripts are the shared helpers followed by the operation, so each stays one EVALSHA. Scripts
// that rewrite the queue also get the maintenance helpers; the hot ones do without (every helper is
// a closure made again at each call).
LuaScript writeScript(const QString &name, bool maintenance = false) {
    QByteArray source = LuaScript::fromResource(QStringLiteral("leased_common")).source() + '\n';
    if (maintenance)
        source += LuaScript::fromResource(QStringLiteral("leased_maintenance")).source() + '\n';
    return LuaScript(source + LuaScript::fromResource(name).source());
}

struct OwnerRecord {
    std::optional<qint64> token;
    std::optional<qint64> acquiredAtMs;
    QString info;
    bool wellFormed = false;
};

// "<token>|<acquired ms>|<client info>"; the info may itself contain '|'.
OwnerRecord parseOwner(const QByteArray &record) {
    OwnerRecord r;
    const qsizetype first = record.indexOf('|');
    const qsizetype second = first < 0 ? -1 : record.indexOf('|', first + 1);
    if (second < 0)
        return r;
    bool tokenOk = false;
    bool acquiredOk = false;
    const qint64 token = record.left(first).toLongLong(&tokenOk);
    const qint64 acquired = record.mid(first + 1, second - first - 1).toLongLong(&acquiredOk);
    if (tokenOk)
        r.token = token;
    if (acquiredOk)
        r.acquiredAtMs = acquired;
    r.info = QString::fromUtf8(record.mid(second + 1));
    r.wellFormed = tokenOk && acquiredOk;
    return r;
}

// A queued waiter's record, "<ticket>|<ttl ms>|<waiter lease ms>|<store tag>|<client info>".
struct WaiterRecord {
    qint64 ticket = 0;
    qint64 ttlMs = 0;
    qint64 leaseMs = 0;
    QString info;
    bool wellFormed = false;
};

WaiterRecord parseWaiter(const QByteArray &record) {
    WaiterRecord r;
    qint64 numbers[3] = {0, 0, 0};
    qsizetype from = 0;
    for (qint64 &n : numbers) {
        const qsizetype bar = record.indexOf('|', from);
        bool ok = false;
        if (bar >= 0)
            n = QByteArrayView(record).sliced(from, bar - from).toLongLong(&ok);
        if (!ok)
            return r;
        from = bar + 1;
    }
    const qsizetype tagEnd = record.indexOf('|', from);
    if (tagEnd < 0)
        return r;
    r.ticket = numbers[0];
    r.ttlMs = numbers[1];
    r.leaseMs = numbers[2];
    r.info = QString::fromUtf8(record.mid(tagEnd + 1));
    r.wellFormed = true;
    return r;
}

void applyOwner(core::Holder &holder, const OwnerRecord &owner) {
    holder.token = owner.token;
    holder.acquiredAtMs = owner.acquiredAtMs;
    if (!owner.info.isEmpty())
        holder.details.insert(QStringLiteral("client"), owner.info);
}

QByteArray number(qint64 v) {
    return QByteArray::number(v);
}

bool validHolderId(const QByteArray &raw) {
    return !raw.isEmpty() && !raw.contains('\n');
}

} // namespace

LeasedKind::LeasedKind()
    : m_snapshot(LuaScript::fromResource(QStringLiteral("leased_snapshot")))
    , m_acquire(writeScript(QStringLiteral("leased_acquire")))
    , m_refresh(writeScript(QStringLiteral("leased_refresh")))
    , m_release(writeScript(QStringLiteral("leased_release")))
    , m_forceRelease(writeScript(QStringLiteral("leased_force_release")))
    , m_purge(writeScript(QStringLiteral("leased_purge"), true))
    , m_repair(writeScript(QStringLiteral("leased_repair"), true))
    , m_setLimit(writeScript(QStringLiteral("leased_set_limit"), true))
    , m_leave(writeScript(QStringLiteral("leased_leave"))) {}

QList<QByteArray> LeasedKind::keysOf(const QString &name) const {
    return keyLayout(core::Kind::Leased).keysFor(name);
}

QByteArray LeasedKind::releaseChannel(const QString &name) const {
    return '{' + name.toUtf8() + "}:released";
}

void LeasedKind::snapshot(RedisCommands &conn, const core::SemaphoreRef &ref,
                          core::Callback<core::Snapshot> done) {
    const QList<QByteArray> keys = keysOf(ref.name);
    conn.eval(m_snapshot, keys, {number(kSnapshotCap)}, [ref, keys, done](const RedisReply &reply) {
        core::Snapshot snap;
        snap.ref = ref;
        for (const QByteArray &k : keys)
            snap.keys << QString::fromUtf8(k);
        if (reply.isError() || !reply.isArray() || reply.elements.size() < 9) {
            snap.warnings << failureText(QStringLiteral("reading the semaphore"), reply);
            done(snap);
            return;
        }
        const qint64 now = integerAt(reply, 0).value_or(0);
        snap.serverNowMs = now;

        const RedisReply &types = elementAt(reply, 1);
        for (int i = 0; i < kExpectedTypes.size(); ++i) {
            checkType(snap.keys.at(i).toUtf8(), elementAt(types, i).str, kExpectedTypes.at(i), snap);
        }

        // meta
        QHash<QByteArray, QByteArray> meta;
        const RedisReply &metaReply = elementAt(reply, 2);
        for (int i = 0; i + 1 < metaReply.elements.size(); i += 2)
            meta.insert(metaReply.elements.at(i).str, metaReply.elements.at(i + 1).str);
        if (meta.contains("limit")) {
            bool ok = false;
            const qint64 limit = meta.value("limit").toLongLong(&ok);
            if (ok && limit >= 1) {
                snap.limit = limit;
                snap.limitSource = core::LimitSource::Stored;
            } else {
                snap.warnings << QStringLiteral("stored limit '%1' is not a positive integer")
                                     .arg(QString::fromUtf8(meta.value("limit").left(40)));
            }
        }
        if (!snap.limit && ref.profile.limit) {
            snap.limit = ref.profile.limit;
            snap.limitSource =
                ref.profile.inferred ? core::LimitSource::Inferred : core::LimitSource::Profile;
        }
        if (meta.contains("fence")) {
            bool ok = false;
            const qint64 fence = meta.value("fence").toLongLong(&ok);
            if (ok)
                snap.counter = fence;
            else
                snap.warnings << QStringLiteral("fencing counter is not an integer");
        }
        if (meta.contains("ttl"))
            snap.details.insert(QStringLiteral("default_ttl_ms"), meta.value("ttl").toLongLong());
        if (meta.contains("created"))
            snap.details.insert(QStringLiteral("created_ms"), meta.value("created").toLongLong());

        // holders, in expiry order
        const RedisReply &holders = elementAt(reply, 3);
        const RedisReply &records = elementAt(reply, 4);
        const RedisReply &marks = elementAt(reply, 8);
        qint64 live = 0;
        for (int i = 0; i + 1 < holders.elements.size(); i += 2) {
            core::Holder h;
            h.rawId = holders.elements.at(i).str;
            h.id = printableId(h.rawId);
            h.rank = i / 2;
            const std::optional<double> score = holders.elements.at(i + 1).toDouble();
            if (score)
                h.expiresAtMs = static_cast<qint64>(*score);
            else
                snap.warnings << QStringLiteral("holder %1 has a non-numeric expiry").arg(h.id);
            const RedisReply &record = elementAt(records, i / 2);
            if (record.isString()) {
                const OwnerRecord owner = parseOwner(record.str);
                applyOwner(h, owner);
                if (!owner.wellFormed)
                    snap.warnings << QStringLiteral("owner record of %1 is malformed").arg(h.id);
            } else if (types.elements.value(2).str == "hash") {
                snap.warnings << QStringLiteral("holder %1 has no owner record (token unknown)").arg(h.id);
            }
            if (const WaiterRecord handOff = parseWaiter(elementAt(marks, i / 2).str); handOff.wellFormed)
                h.details.insert(QStringLiteral("hand_off"),
                                 QStringLiteral("handed over by a release (ticket %1)").arg(handOff.ticket));
            if (h.expiresAtMs && *h.expiresAtMs <= now) {
                h.state = HolderState::ExpiredPresent;
            } else {
                h.state = snap.limit && live >= *snap.limit ? HolderState::OverLimit : HolderState::Live;
                ++live;
            }
            snap.holders << h;
        }

        // waiters, in queue order
        const RedisReply &queue = elementAt(reply, 5);
        const RedisReply &waiting = elementAt(reply, 6);
        qint64 dead = 0;
        qint64 stray = 0;
        for (int i = 0; i < queue.elements.size(); ++i) {
            core::Holder w;
            w.rawId = queue.elements.at(i).str;
            w.id = printableId(w.rawId);
            w.rank = i;
            w.state = HolderState::Waiting;
            const WaiterRecord record = parseWaiter(elementAt(waiting, i).str);
            if (record.wellFormed) {
                w.details.insert(QStringLiteral("ticket"), record.ticket);
                w.details.insert(QStringLiteral("requested_ttl_ms"), record.ttlMs);
                if (!record.info.isEmpty())
                    w.details.insert(QStringLiteral("client"), record.info);
                w.expiresAtMs = record.leaseMs;
                if (record.leaseMs <= now)
                    ++dead;
            } else {
                w.state = HolderState::Orphan;
                ++stray;
            }
            snap.holders << w;
        }
        if (dead > 0)
            snap.warnings << (dead == 1
                                  ? QStringLiteral("1 waiter stopped renewing its place; it drops out "
                                                   "when it reaches the head of the queue, or at a purge")
                                  : QStringLiteral("%1 waiters stopped renewing their place; they drop "
                                                   "out when they reach the head of the queue, or at a "
                                                   "purge")
                                        .arg(dead));
        if (stray > 0)
            snap.warnings << QStringLiteral("%1 without a waiter record; repair removes %2")
                                 .arg(countText(stray, QStringLiteral("queue entry"),
                                                QStringLiteral("queue entries")),
                                      forCount(stray, QStringLiteral("it"), QStringLiteral("them")));

        const RedisReply &counts = elementAt(reply, 7);
        const qint64 holderCount = integerAt(counts, 0).value_or(0);
        const qint64 ownerCount = integerAt(counts, 1).value_or(0);
        const qint64 waiterCount = integerAt(counts, 2).value_or(0);
        if (holderCount > kSnapshotCap)
            snap.warnings << QStringLiteral("showing %1 of %2 holders").arg(kSnapshotCap).arg(holderCount);
        if (waiterCount > kSnapshotCap)
            snap.warnings << QStringLiteral("showing %1 of %2 waiters").arg(kSnapshotCap).arg(waiterCount);
        if (ownerCount > holderCount)
            snap.warnings << QStringLiteral("%1 without a holder; repair removes %2")
                                 .arg(countText(ownerCount - holderCount, QStringLiteral("owner record"),
                                                QStringLiteral("owner records")),
                                      forCount(ownerCount - holderCount, QStringLiteral("it"),
                                               QStringLiteral("them")));
        if (snap.limit && live > *snap.limit)
            snap.warnings
                << QStringLiteral("%1 live holders exceed the limit of %2").arg(live).arg(*snap.limit);
        // A meta lost (DEL, allkeys-* eviction) while the rest stays: acquires are refused until it is
        // whole again, as a new counter would repeat the tokens of the holders still there.
        const QByteArray metaType = elementAt(types, 1).str;
        const bool onRecord = holderCount > 0 || ownerCount > 0 || waiterCount > 0;
        if ((metaType == "none" || metaType == "hash") && !meta.contains("fence") && onRecord)
            snap.warnings << QStringLiteral("meta missing — run repair: %1 lost its fencing counter (deleted "
                                            "or evicted) while holders or waiters remain; acquires are "
                                            "refused until repair rebuilds it above every token on record")
                                 .arg(snap.keys.at(1));
        if ((metaType == "none" || metaType == "hash") && !meta.contains("limit") &&
            (onRecord || meta.contains("fence")))
            snap.warnings << QStringLiteral("no limit is stored in %1 (lost with the meta?); acquires are "
                                            "refused until set-limit stores one")
                                 .arg(snap.keys.at(1));
        snap.details.insert(QStringLiteral("waiters"), waiterCount);
        done(snap);
    });
}

void LeasedKind::tryAcquire(RedisCommands &conn, const core::SemaphoreRef &ref,
                            const core::AcquireRequest &request, core::Callback<core::AcquireResult> done) {
    // Without a notify channel a waiting caller is queued as one that takes no hand-offs: a release
    // wakes it on the release channel and it retries.
    acquireAttempt(conn, ref, request, QByteArray(), kBusyListCap, -1,
                   [done](const AcquireResult &r, qint64) { done(r); });
}

void LeasedKind::attemptQueued(RedisCommands &conn, const core::SemaphoreRef &ref,
                               const core::AcquireRequest &request, const QByteArray &tag, bool listHolders,
                               qint64 ticket, AttemptCallback done) {
    acquireAttempt(conn, ref, request, tag, listHolders ? kBusyListCap : 0, ticket, std::move(done));
}

const LeasedKind::Names &LeasedKind::names(const QString &name) {
    if (m_names.keys.isEmpty() || m_names.name != name) {
        m_names.name = name;
        m_names.keys = keysOf(name);
    }
    return m_names;
}

void LeasedKind::evalWrite(RedisCommands &conn, const LuaScript &script, const QList<QByteArray> &keys,
                           const QList<QByteArray> &args, RedisCommands::ReplyCallback done) {
    conn.eval(script, keys, args, [&conn, keys, done = std::move(done)](const RedisReply &reply) {
        // Redis' own message; the scripts' TYPE checks (ensure()) name the key themselves.
        if (!reply.isServerError() || !reply.str.startsWith("WRONGTYPE Operation")) {
            done(reply);
            return;
        }
        QList<QList<QByteArray>> types;
        for (const QByteArray &key : keys)
            types << QList<QByteArray>{"TYPE", key};
        conn.pipeline(types, [keys, reply, done](const QList<RedisReply> &replies) {
            for (int i = 0; i < keys.size() && i < replies.size() && i < kExpectedTypes.size(); ++i) {
                const QByteArray type = replies.at(i).str;
                if (replies.at(i).isString() && type != "none" && type != kExpectedTypes.at(i)) {
                    done(RedisReply::error("WRONGTYPE " + keys.at(i) + " is a " + type + ", expected a " +
                                           kExpectedTypes.at(i)));
                    return;
                }
            }
            done(reply);
        });
    });
}

const QByteArray &LeasedKind::clientInfoBytes() {
    if (m_clientInfo.isEmpty())
        m_clientInfo = clientInfo().toUtf8();
    return m_clientInfo;
}

void LeasedKind::acquireAttempt(RedisCommands &conn, const core::SemaphoreRef &ref,
                                const core::AcquireRequest &request, const QByteArray &tag, int listCap,
                                qint64 ticket, AttemptCallback done) {
    const QByteArray holder = request.holder.toUtf8();
    if (!validHolderId(holder) || request.ttlMs <= 0) {
        AcquireResult r;
        r.error = !validHolderId(holder) ? QStringLiteral("holder id must be non-empty and on one line")
                                         : QStringLiteral("ttl must be positive");
        done(r, -1);
        return;
    }
    const qint64 createLimit = ref.profile.limit.value_or(1) >= 1 ? ref.profile.limit.value_or(1) : 1;
    const QList<QByteArray> args{holder,
                                 number(request.ttlMs),
                                 number(createLimit),
                                 clientInfoBytes(),
                                 request.waitMs > 0 ? QByteArray("1") : QByteArray("0"),
                                 number(kWaiterLeaseMs),
                                 request.waitMs > 0 ? tag : QByteArray(),
                                 number(listCap),
                                 number(ticket)};
    evalWrite(conn, m_acquire, names(ref.name).keys, args, [ref, holder, done](const RedisReply &reply) {
        AcquireResult r;
        r.attempts = 1;
        qint64 ticket = -1;
        const QByteArray status = elementAt(reply, 0).str;
        if (reply.isError() || !reply.isArray()) {
            r.error = failureText(QStringLiteral("acquire"), reply);
        } else if (status == "ok") {
            r.status = AcquireResult::Status::Granted;
            r.grant.ref = ref;
            r.grant.rawHolder = holder;
            r.grant.holder = printableId(holder);
            r.grant.token = integerAt(reply, 1);
            r.grant.expiresAtMs = integerAt(reply, 2);
            r.grant.rank = integerAt(reply, 4);
        } else if (status == "busy") {
            r.status = AcquireResult::Status::Busy;
            const qint64 now = integerAt(reply, 1).value_or(0);
            const qint64 wake = integerAt(reply, 2).value_or(-1);
            const qint64 pos = integerAt(reply, 3).value_or(-1);
            ticket = integerAt(reply, 4).value_or(-1);
            if (wake >= 0)
                r.retryAfterMs = std::max<qint64>(0, wake - now);
            if (pos >= 0)
                r.queuePosition = pos;
            for (int i = 5; i + 2 < reply.elements.size(); i += 3) {
                core::Holder h;
                h.rawId = reply.elements.at(i).str;
                h.id = printableId(h.rawId);
                h.rank = (i - 5) / 3;
                h.expiresAtMs = reply.elements.at(i + 1).toInteger();
                applyOwner(h, parseOwner(reply.elements.at(i + 2).str));
                if (h.expiresAtMs && (!r.earliestExpiryMs || *h.expiresAtMs < *r.earliestExpiryMs))
                    r.earliestExpiryMs = h.expiresAtMs;
                r.holders << h;
            }
        } else if (status == "held") {
            const OwnerRecord owner = parseOwner(elementAt(reply, 2).str);
            r.error = QStringLiteral("%1 already holds a slot of %2%3; refresh or release it")
                          .arg(printableId(holder), ref.name,
                               owner.token ? QStringLiteral(" (token %1)").arg(*owner.token) : QString());
        } else {
            r.error = failureText(QStringLiteral("acquire"), reply);
        }
        done(r, ticket);
    });
}

QByteArray LeasedKind::notifyChannel(const QString &name, const QByteArray &tag) const {
    return releaseChannel(name) + ':' + tag;
}

std::optional<WaitQueueKind::HandOff> LeasedKind::parseHandOff(const QByteArray &message) const {
    // "<ticket> <token> <expiresAt> <holder>"; the holder id may itself contain spaces.
    HandOff h;
    qsizetype from = 0;
    qint64 fields[3] = {0, 0, 0};
    for (qint64 &field : fields) {
        const qsizetype space = message.indexOf(' ', from);
        if (space < 0)
            return std::nullopt;
        bool ok = false;
        field = QByteArrayView(message).sliced(from, space - from).toLongLong(&ok);
        if (!ok)
            return std::nullopt;
        from = space + 1;
    }
    h.ticket = fields[0];
    h.token = fields[1];
    h.expiresAtMs = fields[2];
    h.holder = message.mid(from);
    if (h.holder.isEmpty())
        return std::nullopt;
    return h;
}

void LeasedKind::refresh(RedisCommands &conn, const core::Grant &grant, qint64 ttlMs,
                         core::Callback<core::RefreshResult> done) {
    if (ttlMs <= 0) {
        done(RefreshResult{RefreshResult::Status::Error, std::nullopt,
                           QStringLiteral("ttl must be positive")});
        return;
    }
    const QByteArray holder = grant.rawHolder.isEmpty() ? grant.holder.toUtf8() : grant.rawHolder;
    const QList<QByteArray> args{holder, grant.token ? number(*grant.token) : QByteArray(), number(ttlMs)};
    evalWrite(conn, m_refresh, names(grant.ref.name).keys, args, [done](const RedisReply &reply) {
        RefreshResult r;
        const std::optional<qint64> ok = integerAt(reply, 0);
        if (reply.isError() || !ok) {
            r.error = failureText(QStringLiteral("refresh"), reply);
        } else if (*ok == 1) {
            r.status = RefreshResult::Status::Ok;
            r.expiresAtMs = integerAt(reply, 1);
        } else {
            r.status = RefreshResult::Status::Lost;
            const QByteArray why = elementAt(reply, 1).str;
            r.error = why == "expired" ? QStringLiteral("the lease had expired")
                      : why == "token" ? QStringLiteral("the slot now belongs to a different acquisition")
                                       : QStringLiteral("the holder is gone (released or force-released)");
        }
        done(r);
    });
}

void LeasedKind::release(RedisCommands &conn, const core::Grant &grant,
                         core::Callback<core::ReleaseResult> done) {
    // Without a tag no hand-off comes back: every waiter is told on its own notify channel.
    releaseHandingOff(conn, grant, QByteArray(),
                      [done](const ReleaseResult &r, const QList<HandOff> &) { done(r); });
}

void LeasedKind::releaseHandingOff(RedisCommands &conn, const core::Grant &grant, const QByteArray &tag,
                                   ReleaseCallback done) {
    const QByteArray holder = grant.rawHolder.isEmpty() ? grant.holder.toUtf8() : grant.rawHolder;
    const QList<QByteArray> args{holder, grant.token ? number(*grant.token) : QByteArray(), tag};
    evalWrite(conn, m_release, names(grant.ref.name).keys, args, [this, done](const RedisReply &reply) {
        ReleaseResult r;
        QList<HandOff> handOffs;
        // 1, 0 or -1; or {1, hand-off, ...} when slots went to waiters of the caller's store.
        const std::optional<qint64> status = reply.isArray()     ? integerAt(reply, 0)
                                             : reply.isInteger() ? std::optional<qint64>(reply.integer)
                                                                 : std::nullopt;
        if (reply.isError() || !status || (reply.isArray() && *status != 1)) {
            r.error = failureText(QStringLiteral("release"), reply);
        } else if (*status == 1) {
            r.status = ReleaseResult::Status::Ok;
            for (int i = 1; i < reply.elements.size(); ++i) {
                if (const std::optional<HandOff> h = parseHandOff(reply.elements.at(i).str))
                    handOffs << *h;
            }
        } else {
            r.status = ReleaseResult::Status::NotHeld;
            r.error = *status == 0 ? QStringLiteral("not held (expired, released or force-released)")
                                   : QStringLiteral("the slot now belongs to a different acquisition");
        }
        done(r, handOffs);
    });
}

void LeasedKind::forceRelease(RedisCommands &conn, const core::SemaphoreRef &ref,
                              const core::Holder &observed, std::optional<qint64>,
                              core::Callback<core::ForceReleaseResult> done) {
    if (!observed.token) {
        done(ForceReleaseResult{ForceReleaseResult::Status::Error,
                                QStringLiteral("the observed holder carries no token to compare; read the "
                                               "semaphore again")});
        return;
    }
    const QByteArray holder = observed.rawId.isEmpty() ? observed.id.toUtf8() : observed.rawId;
    const qint64 token = *observed.token;
    const QList<QByteArray> args{holder, number(token)};
    evalWrite(conn, m_forceRelease, keysOf(ref.name), args, [done, token](const RedisReply &reply) {
        ForceReleaseResult r;
        const QByteArray status = elementAt(reply, 0).str;
        if (reply.isError() || !reply.isArray()) {
            r.message = failureText(QStringLiteral("force-release"), reply);
        } else if (status == "released") {
            r.status = ForceReleaseResult::Status::Released;
            r.message = QStringLiteral("released the slot held with token %1").arg(token);
        } else if (status == "gone") {
            r.status = ForceReleaseResult::Status::Gone;
            r.message = QStringLiteral("the holder is no longer there; nothing was done");
        } else if (status == "changed") {
            r.status = ForceReleaseResult::Status::Changed;
            const QByteArray now = elementAt(reply, 1).str;
            r.message = QStringLiteral("the holder now has token %1, not the observed %2; nothing was done")
                            .arg(now.isEmpty() ? QStringLiteral("(none)") : QString::fromUtf8(now))
                            .arg(token);
        } else {
            r.message = failureText(QStringLiteral("force-release"), reply);
        }
        done(r);
    });
}

void LeasedKind::purgeExpired(RedisCommands &conn, const core::SemaphoreRef &ref,
                              core::Callback<core::MaintenanceResult> done) {
    evalWrite(conn, m_purge, keysOf(ref.name), {}, [done](const RedisReply &reply) {
        MaintenanceResult r;
        const std::optional<qint64> holders = integerAt(reply, 0);
        const std::optional<qint64> waiters = integerAt(reply, 1);
        if (reply.isError() || !holders || !waiters) {
            r.message = failureText(QStringLiteral("purge"), reply);
        } else {
            r.ok = true;
            r.affected = *holders + *waiters;
            r.message =
                QStringLiteral("removed %1 and %2")
                    .arg(countText(*holders, QStringLiteral("expired holder"),
                                   QStringLiteral("expired holders")),
                         countText(*waiters, QStringLiteral("dead waiter"), QStringLiteral("dead waiters")));
        }
        done(r);
    });
}

void LeasedKind::repair(RedisCommands &conn, const core::SemaphoreRef &ref,
                        core::Callback<core::MaintenanceResult> done) {
    evalWrite(conn, m_repair, keysOf(ref.name), {}, [done](const RedisReply &reply) {
        MaintenanceResult r;
        const std::optional<qint64> orphans = integerAt(reply, 0);
        const std::optional<qint64> stray = integerAt(reply, 1);
        const std::optional<qint64> raised = integerAt(reply, 2);
        const std::optional<qint64> noLimit = integerAt(reply, 3);
        if (reply.isError() || !orphans || !stray || !raised || !noLimit) {
            r.message = failureText(QStringLiteral("repair"), reply);
        } else {
            r.ok = true;
            r.affected = *orphans + *stray + *raised;
            r.message =
                QStringLiteral("dropped %1 without a holder and %2%3")
                    .arg(countText(*orphans, QStringLiteral("owner record"), QStringLiteral("owner records")),
                         countText(*stray, QStringLiteral("stray queue entry"),
                                   QStringLiteral("stray queue entries")),
                         *raised ? QStringLiteral("; rebuilt the fencing counter above every token on record")
                                 : QString());
            if (*noLimit)
                r.message += QStringLiteral("; the limit was lost and nothing on record proves it: set it "
                                            "with set-limit before acquiring");
        }
        done(r);
    });
}

void LeasedKind::setLimit(RedisCommands &conn, const core::SemaphoreRef &ref, qint64 limit,
                          core::Callback<core::MaintenanceResult> done) {
    if (limit < 1) {
        done(MaintenanceResult{false, 0, QStringLiteral("limit must be at least 1")});
        return;
    }
    evalWrite(conn, m_setLimit, keysOf(ref.name), {number(limit)}, [done, limit](const RedisReply &reply) {
        MaintenanceResult r;
        if (reply.isError() || !reply.isInteger()) {
            r.message = failureText(QStringLiteral("set limit"), reply);
        } else {
            r.ok = true;
            r.affected = 1;
            r.message = reply.integer < 0
                            ? QStringLiteral("limit set to %1").arg(limit)
                            : QStringLiteral("limit changed from %1 to %2").arg(reply.integer).arg(limit);
        }
        done(r);
    });
}

void LeasedKind::leaveQueue(RedisCommands &conn, const core::SemaphoreRef &ref, const QByteArray &waiter,
                            qint64 ticket, std::function<void()> done) {
    evalWrite(conn, m_leave, keysOf(ref.name), {waiter, number(ticket)}, [done](const RedisReply &) {
        if (done)
            done();
    });
}

} // namespace semscope::redis
