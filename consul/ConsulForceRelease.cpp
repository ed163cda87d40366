#include "ConsulForceRelease.h"

#include "LockDocument.h"
#include "PrefixView.h"

namespace semscope::consul {

void forceReleaseHolder(ConsulClient &consul, const core::SemaphoreRef &ref, const core::Holder &observed,
                        std::optional<qint64> observedVersion, bool invalidateSession,
                        core::Callback<core::ForceReleaseResult> done) {
    ConsulClient *client = &consul;
    core::ForceReleaseResult out;
    const QString prefix = normalizePrefix(ref.name);
    const QString sid = observed.rawId.isEmpty() ? observed.id : QString::fromUtf8(observed.rawId);
    const QString lockKey = prefix + QStringLiteral("/.lock");

    // Waiters and orphans have no slot: "releasing" them removes their contender key, compared on
    // the ModifyIndex the operator saw.
    if (!observed.occupiesSlot()) {
        const QString key =
            observed.details.value(QStringLiteral("contenderKey"), QString(prefix + QLatin1Char('/') + sid))
                .toString();
        bool ok = false;
        const quint64 seen =
            observed.details.value(QStringLiteral("contenderModifyIndex")).toString().toULongLong(&ok);
        if (!ok) {
            out.message = QStringLiteral("no contender ModifyIndex was observed; read the semaphore again");
            done(out);
            return;
        }
        client->kvGet(key, {}, [client, key, seen, done](ConsulClient::KvResult r) {
            core::ForceReleaseResult res;
            if (!r.http.ok()) {
                res.message = r.http.error;
                return done(res);
            }
            if (!r.found || r.entries.isEmpty()) {
                res.status = core::ForceReleaseResult::Status::Gone;
                res.message = QStringLiteral("%1 is already gone").arg(key);
                return done(res);
            }
            client->kvDelete(key, {seen, false}, [key, done](ConsulClient::BoolResult d) {
                core::ForceReleaseResult x;
                if (!d.http.ok())
                    x.message = d.http.error;
                else if (!d.value)
                    x.status = core::ForceReleaseResult::Status::Changed,
                    x.message = QStringLiteral("%1 changed since it was read").arg(key);
                else
                    x.status = core::ForceReleaseResult::Status::Released,
                    x.message = QStringLiteral("deleted %1").arg(key);
                done(x);
            });
        });
        return;
    }

    client->kvGet(
        lockKey, {},
        [client, ref, sid, lockKey, observedVersion, invalidateSession, done](ConsulClient::KvResult r) {
            core::ForceReleaseResult res;
            if (!r.http.ok()) {
                res.message = QStringLiteral("failed to read %1: %2").arg(lockKey, r.http.error);
                return done(res);
            }
            if (!r.found || r.entries.isEmpty()) {
                res.status = core::ForceReleaseResult::Status::Gone;
                res.message = QStringLiteral("%1 no longer exists").arg(lockKey);
                return done(res);
            }
            const KvEntry lock = r.entries.first();
            if (observedVersion && quint64(*observedVersion) != lock.modifyIndex) {
                res.status = core::ForceReleaseResult::Status::Changed;
                res.message =
                    QStringLiteral("%1 changed since it was read (ModifyIndex %2, now %3); nothing done")
                        .arg(lockKey)
                        .arg(*observedVersion)
                        .arg(lock.modifyIndex);
                return done(res);
            }
            auto afterRelease = [client, sid, invalidateSession, done](core::ForceReleaseResult x) {
                if (x.status != core::ForceReleaseResult::Status::Released || !invalidateSession)
                    return done(x);
                client->sessionDestroy(sid, [x, sid, done](ConsulClient::BoolResult d) mutable {
                    x.message +=
                        d.http.ok()
                            ? QStringLiteral("; session %1 invalidated").arg(sid)
                            : QStringLiteral("; invalidating session %1 failed: %2").arg(sid, d.http.error);
                    done(x);
                });
            };
            if (lock.flags == kLockFlagValue) {
                // `consul lock -n 1`: the holder is the key's Session. Unlock only if nothing moved.
                if (lock.session != sid) {
                    res.status = lock.session.isEmpty() ? core::ForceReleaseResult::Status::Gone
                                                        : core::ForceReleaseResult::Status::Changed;
                    res.message = lock.session.isEmpty()
                                      ? QStringLiteral("the mutex is not held")
                                      : QStringLiteral("the mutex is now held by %1").arg(lock.session);
                    return done(res);
                }
                ConsulClient::TxnOp check{QStringLiteral("check-index"),
                                          lockKey,
                                          std::nullopt,
                                          std::nullopt,
                                          lock.modifyIndex,
                                          QString()};
                ConsulClient::TxnOp unlock{QStringLiteral("unlock"),
                                           lockKey,
                                           lock.hasValue ? std::optional(lock.value) : std::nullopt,
                                           lock.flags,
                                           std::nullopt,
                                           sid};
                client->txn({check, unlock}, [sid, lockKey, afterRelease](ConsulClient::TxnResult t) {
                    core::ForceReleaseResult x;
                    if (!t.http.ok())
                        x.message = t.http.error;
                    else if (t.rolledBack)
                        x.status = core::ForceReleaseResult::Status::Changed,
                        x.message = QStringLiteral("%1 changed while releasing; nothing done").arg(lockKey);
                    else
                        x.status = core::ForceReleaseResult::Status::Released,
                        x.message = QStringLiteral("released mutex held by %1").arg(sid);
                    afterRelease(x);
                });
                return;
            }
            QString error;
            auto doc = LockDocument::parse(lock.value, &error);
            if (!doc) {
                res.message = QStringLiteral("cannot edit %1: %2").arg(lockKey, error);
                return done(res);
            }
            if (!doc->removeHolder(sid)) {
                res.status = core::ForceReleaseResult::Status::Gone;
                res.message = QStringLiteral("%1 is no longer a holder").arg(sid);
                return done(res);
            }
            ConsulClient::KvPutOptions opts;
            opts.cas = lock.modifyIndex;
            opts.flags = lock.flags; // a PUT without flags would reset them to 0 and break official clients
            client->kvPut(
                lockKey, doc->serialize(), opts, [sid, lockKey, afterRelease](ConsulClient::BoolResult p) {
                    core::ForceReleaseResult x;
                    if (!p.http.ok())
                        x.message = QStringLiteral("failed to update %1: %2").arg(lockKey, p.http.error);
                    else if (!p.value)
                        x.status = core::ForceReleaseResult::Status::Changed,
                        x.message = QStringLiteral("%1 changed while releasing; nothing done").arg(lockKey);
                    else
                        x.status = core::ForceReleaseResult::Status::Released,
                        x.message = QStringLiteral("removed %1 from %2").arg(sid, lockKey);
                    afterRelease(x);
                });
        });
}

} // namespace semscope::consul
