#include "LockKind.h"

#include "KindReplies.h"
#include "SeedKindSupport.h"

namespace semscope::redis {

using namespace kinds;
using core::AcquireResult;
using core::ForceReleaseResult;
using core::RefreshResult;
using core::ReleaseResult;

namespace {

QByteArray number(qint64 v) {
    return QByteArray::number(v);
}

QByteArray holderBytes(const QByteArray &raw, const QString &printable) {
    return raw.isEmpty() ? printable.toUtf8() : raw;
}

const QString kNoTtlWarning = QStringLiteral("no TTL: held forever if the holder crashed");

} // namespace

LockKind::LockKind()
    : m_snapshot(LuaScript::fromResource(QStringLiteral("lock_snapshot")))
    , m_acquire(LuaScript::fromResource(QStringLiteral("lock_acquire")))
    , m_refresh(LuaScript::fromResource(QStringLiteral("lock_refresh")))
    , m_release(LuaScript::fromResource(QStringLiteral("lock_release")))
    , m_forceRelease(LuaScript::fromResource(QStringLiteral("lock_force_release"))) {}

void LockKind::snapshot(RedisCommands &conn, const core::SemaphoreRef &ref,
                        core::Callback<core::Snapshot> done) {
    conn.eval(m_snapshot, keysOf(ref.name), {number(kValueCap)}, [ref, done](const RedisReply &reply) {
        core::Snapshot snap;
        snap.ref = ref;
        snap.keys << ref.name;
        snap.limit = 1;
        snap.limitSource = core::LimitSource::Stored;
        if (reply.isError() || !reply.isArray() || reply.elements.size() < 5) {
            snap.warnings << failureText(QStringLiteral("reading the lock"), reply);
            done(snap);
            return;
        }
        const qint64 now = integerAt(reply, 0).value_or(0);
        snap.serverNowMs = now;
        const QByteArray type = elementAt(reply, 1).str;
        const qint64 pttl = integerAt(reply, 3).value_or(-2);
        if (type == "none") {
            done(snap);
            return;
        }
        if (!checkType(ref.name.toUtf8(), type, "string", snap)) {
            done(snap);
            return;
        }
        const qint64 length = integerAt(reply, 4).value_or(0);
        core::Holder h;
        h.rawId = elementAt(reply, 2).str;
        h.id = printableId(h.rawId);
        h.rank = 0;
        if (pttl >= 0) {
            h.expiresAtMs = now + pttl;
        } else {
            snap.warnings << kNoTtlWarning;
            h.details.insert(QStringLiteral("no_ttl"), true);
        }
        if (length > kValueCap) {
            snap.warnings
                << QStringLiteral("value is %1 bytes; showing the first %2").arg(length).arg(kValueCap);
            h.details.insert(QStringLiteral("truncated"), true);
        }
        snap.holders << h;
        done(snap);
    });
}

void LockKind::tryAcquire(RedisCommands &conn, const core::SemaphoreRef &ref,
                          const core::AcquireRequest &request, core::Callback<core::AcquireResult> done) {
    const QByteArray token = request.holder.toUtf8();
    if (token.isEmpty() || request.ttlMs <= 0) {
        AcquireResult r;
        r.error = token.isEmpty() ? QStringLiteral("holder token must not be empty")
                                  : QStringLiteral("ttl must be positive");
        done(r);
        return;
    }
    conn.eval(
        m_acquire, keysOf(ref.name), {token, number(request.ttlMs), number(kValueCap)},
        [ref, token, done](const RedisReply &reply) {
            AcquireResult r;
            r.attempts = 1;
            const std::optional<qint64> granted = integerAt(reply, 0);
            if (reply.isError() || !granted) {
                r.error = failureText(QStringLiteral("acquire"), reply);
            } else if (*granted == 1) {
                r.status = AcquireResult::Status::Granted;
                r.grant.ref = ref;
                r.grant.rawHolder = token;
                r.grant.holder = printableId(token);
                r.grant.expiresAtMs = integerAt(reply, 2);
            } else {
                const qint64 now = integerAt(reply, 1).value_or(0);
                const qint64 pttl = integerAt(reply, 3).value_or(-2);
                core::Holder h;
                h.rawId = elementAt(reply, 2).str;
                h.id = printableId(h.rawId);
                h.rank = 0;
                if (pttl >= 0) {
                    h.expiresAtMs = now + pttl;
                    r.earliestExpiryMs = h.expiresAtMs;
                    r.retryAfterMs = pttl;
                }
                if (h.rawId == token) {
                    r.error =
                        QStringLiteral("%1 already holds %2; refresh or release it").arg(h.id, ref.name);
                } else {
                    r.status = AcquireResult::Status::Busy;
                    r.holders << h;
                }
            }
            done(r);
        });
}

void LockKind::refresh(RedisCommands &conn, const core::Grant &grant, qint64 ttlMs,
                       core::Callback<core::RefreshResult> done) {
    if (ttlMs <= 0) {
        done(RefreshResult{RefreshResult::Status::Error, std::nullopt,
                           QStringLiteral("ttl must be positive")});
        return;
    }
    conn.eval(m_refresh, keysOf(grant.ref.name), {holderBytes(grant.rawHolder, grant.holder), number(ttlMs)},
              [done](const RedisReply &reply) {
                  RefreshResult r;
                  const std::optional<qint64> ok = integerAt(reply, 0);
                  if (reply.isError() || !ok) {
                      r.error = failureText(QStringLiteral("refresh"), reply);
                  } else if (*ok == 1) {
                      r.status = RefreshResult::Status::Ok;
                      r.expiresAtMs = integerAt(reply, 1);
                  } else {
                      r.status = RefreshResult::Status::Lost;
                      r.error = QStringLiteral("the lock expired or now holds another token");
                  }
                  done(r);
              });
}

void LockKind::release(RedisCommands &conn, const core::Grant &grant,
                       core::Callback<core::ReleaseResult> done) {
    conn.eval(m_release, keysOf(grant.ref.name), {holderBytes(grant.rawHolder, grant.holder)},
              [done](const RedisReply &reply) {
                  ReleaseResult r;
                  if (reply.isError() || !reply.isInteger()) {
                      r.error = failureText(QStringLiteral("release"), reply);
                  } else if (reply.integer == 1) {
                      r.status = ReleaseResult::Status::Ok;
                  } else {
                      r.status = ReleaseResult::Status::NotHeld;
                      r.error = QStringLiteral("not held (expired, released or taken by another token)");
                  }
                  done(r);
              });
}

void LockKind::forceRelease(RedisCommands &conn, const core::SemaphoreRef &ref, const core::Holder &observed,
                            std::optional<qint64>, core::Callback<core::ForceReleaseResult> done) {
    if (observed.details.value(QStringLiteral("truncated")).toBool()) {
        done(ForceReleaseResult{
            ForceReleaseResult::Status::Error,
            QStringLiteral("the value was shown cut, so it cannot be compared; delete the key "
                           "by hand if it is really stuck")});
        return;
    }
    conn.eval(m_forceRelease, keysOf(ref.name), {holderBytes(observed.rawId, observed.id)},
              [done](const RedisReply &reply) {
                  ForceReleaseResult r;
                  if (reply.isError() || !reply.isInteger()) {
                      r.message = failureText(QStringLiteral("force-release"), reply);
                  } else if (reply.integer == 1) {
                      r.status = ForceReleaseResult::Status::Released;
                      r.message = QStringLiteral("deleted the lock");
                  } else if (reply.integer == 0) {
                      r.status = ForceReleaseResult::Status::Changed;
                      r.message = QStringLiteral("the lock now holds a different token; nothing was done");
                  } else {
                      r.status = ForceReleaseResult::Status::Gone;
                      r.message = QStringLiteral("the lock is no longer held; nothing was done");
                  }
                  done(r);
              });
}

void LockKind::purgeExpired(RedisCommands &, const core::SemaphoreRef &,
                            core::Callback<core::MaintenanceResult> done) {
    done(
        core::MaintenanceResult{true, 0, QStringLiteral("Redis expires lock keys itself; nothing to purge")});
}

} // namespace semscope::redis
