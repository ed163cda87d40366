#include "ConsulSemaphoreStore.h"

#include "core/AsyncChain.h"

#include "ConsulAcquire.h"
#include "ConsulDiscovery.h"
#include "ConsulForceRelease.h"
#include "NodeHealth.h"
#include "RawKvReader.h"
#include "core/CountText.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QHostInfo>
#include <QLoggingCategory>
#include <QTimer>

Q_LOGGING_CATEGORY(lcConsulStore, "semscope.consul.store", QtInfoMsg)

namespace semscope::consul {

namespace {

constexpr int kMaxReleaseRounds = 200; // CAS retries when .lock keeps changing under us
constexpr int kMaxTxnOps = 64;         // Consul's per-transaction limit

core::MaintenanceResult maintenance(bool ok, const QString &message, qint64 affected = 0) {
    core::MaintenanceResult r;
    r.ok = ok;
    r.message = message;
    r.affected = affected;
    return r;
}

QString sessionOf(const core::Grant &grant) {
    const QString sid = grant.details.value(QStringLiteral("session")).toString();
    return sid.isEmpty() ? grant.holder : sid;
}

} // namespace

struct ConsulSemaphoreStore::Watch {
    core::SemaphoreRef ref;
    QString prefix;
    core::Callback<core::Snapshot> onChange;
    quint64 index = 0;    // wait index for the next blocking query
    quint64 reported = 0; // X-Consul-Index of the last snapshot handed out
    bool first = true;
    std::optional<ConsulClient::RequestId> inflight;
    QTimer retry;
    int failures = 0;
    bool stopped = false;
};

struct ConsulSemaphoreStore::Renewer {
    core::Grant grant;
    QTimer timer;
    qint64 ttlMs = 0;
    QElapsedTimer sinceRenew;
};

ConsulSemaphoreStore::ConsulSemaphoreStore(ConsulConfig config, QObject *parent)
    : core::SemaphoreStore(parent)
    , m_client(new ConsulClient(std::move(config), this)) {
    connect(m_client, &ConsulClient::reachabilityChanged, this, [this](bool reachable, const QString &why) {
        Q_EMIT connectionStateChanged(reachable ? QStringLiteral("connected")
                                                : QStringLiteral("lost: ") + why);
    });
}

ConsulSemaphoreStore::~ConsulSemaphoreStore() {
    for (const auto &w : std::as_const(m_watches))
        w->stopped = true;
}

QString ConsulSemaphoreStore::defaultSessionName() {
    const QString user =
        qEnvironmentVariable("USER", qEnvironmentVariable("USERNAME", QStringLiteral("user")));
    return QStringLiteral("semscope %1@%2").arg(user, QHostInfo::localHostName());
}

ConsulClient::RequestId
ConsulSemaphoreStore::readPrefix(const QString &prefix, const ConsulClient::ReadOptions &opts,
                                 core::Callback<std::pair<PrefixView, QString>> done) {
    ConsulClient::KvGetOptions get;
    static_cast<ConsulClient::ReadOptions &>(get) = opts;
    get.recurse = true;
    // Trailing '/': `?recurse` treats the key as a plain string prefix
    // (developer.hashicorp.com/consul/api-docs/kv, "recurse"), and `semaphore/foo` must not list
    // `semaphore/foo2/...`.
    return m_client->kvGet(prefix + QLatin1Char('/'), get, [prefix, done](ConsulClient::KvResult r) {
        if (!r.http.ok()) {
            done({PrefixView{}, r.http.error});
            return;
        }
        done({PrefixView::from(prefix, r.entries, r.http.meta.index), QString()});
    });
}

void ConsulSemaphoreStore::readSessions(
    core::Callback<std::pair<QHash<QString, SessionInfo>, QString>> done) {
    m_client->sessionList({}, [done](ConsulClient::SessionsResult r) {
        QHash<QString, SessionInfo> byId;
        for (const auto &s : r.sessions)
            byId.insert(s.id, s);
        done({byId, r.http.error});
    });
}

// -------------------------------------------------------------------------------------------------
// Reading

void ConsulSemaphoreStore::snapshot(const core::SemaphoreRef &ref, core::Callback<core::Snapshot> done) {
    const QString prefix = normalizePrefix(ref.name);
    if (prefix.isEmpty()) {
        core::Snapshot s;
        s.ref = ref;
        s.warnings.append(QStringLiteral("read failed: missing prefix"));
        done(s);
        return;
    }
    readPrefix(prefix, {}, [this, ref, done](std::pair<PrefixView, QString> r) {
        if (!r.second.isEmpty()) {
            core::Snapshot s;
            s.ref = ref;
            s.warnings.append(QStringLiteral("read failed: %1").arg(r.second));
            s.details.insert(QStringLiteral("error"), r.second);
            done(s);
            return;
        }
        const PrefixView view = r.first;
        readSessions([ref, view, done](std::pair<QHash<QString, SessionInfo>, QString> sessions) {
            core::Snapshot s = buildSnapshot(ref, view, sessions.first);
            if (!sessions.second.isEmpty())
                s.warnings.append(QStringLiteral("session details unavailable: %1").arg(sessions.second));
            done(s);
        });
    });
}

void ConsulSemaphoreStore::discover(const core::DiscoverRequest &request, core::Cancellation cancel,
                                    core::Callback<core::DiscoverProgress> progress,
                                    core::Callback<core::DiscoverResult> done) {
    discoverSemaphores(*m_client, request, std::move(cancel), std::move(progress), std::move(done));
}

// -------------------------------------------------------------------------------------------------
// Holding a slot

void ConsulSemaphoreStore::doAcquire(const core::SemaphoreRef &ref, const core::AcquireRequest &request,
                                     core::Cancellation cancel, core::Callback<core::AcquireResult> done) {
    auto *op = new ConsulAcquire(this, ref, request, std::move(cancel), std::move(done));
    op->start();
}

void ConsulSemaphoreStore::startRenewing(const core::Grant &grant, qint64 ttlMs) {
    const QString sid = sessionOf(grant);
    auto r = std::make_shared<Renewer>();
    r->grant = grant;
    r->ttlMs = ttlMs;
    r->sinceRenew.start();
    r->timer.setSingleShot(true);
    std::weak_ptr<Renewer> weak = r;
    connect(&r->timer, &QTimer::timeout, this, [this, weak, sid] {
        auto renewer = weak.lock();
        if (!renewer)
            return;
        m_client->sessionRenew(sid, [this, weak, sid](ConsulClient::SessionsResult res) {
            auto renewer = weak.lock();
            if (!renewer || m_renewers.value(sid) != renewer)
                return;
            if (res.http.ok() && res.found) {
                renewer->sinceRenew.restart();
                renewer->timer.start(int(std::max<qint64>(renewer->ttlMs / 2, 1)));
                return;
            }
            if (res.http.status == 404 || renewer->sinceRenew.elapsed() > renewer->ttlMs) {
                const core::Grant g = renewer->grant;
                stopRenewing(sid);
                Q_EMIT grantLost(g, res.http.status == 404
                                        ? QStringLiteral("session expired")
                                        : QStringLiteral("renew failed: %1").arg(res.http.error));
                return;
            }
            renewer->timer.start(1000); // api.RenewPeriodic retries every second on errors
        });
    });
    r->timer.start(int(std::max<qint64>(ttlMs / 2, 1)));
    m_renewers.insert(sid, r);
}

void ConsulSemaphoreStore::stopRenewing(const QString &sid) {
    if (auto r = m_renewers.take(sid))
        r->timer.stop();
}

void ConsulSemaphoreStore::doRefresh(const core::Grant &grant, qint64 ttlMs,
                                     core::Callback<core::RefreshResult> done) {
    const QString sid = sessionOf(grant);
    m_client->sessionRenew(sid, [this, sid, ttlMs, grant, done](ConsulClient::SessionsResult res) {
        core::RefreshResult r;
        if (res.http.status == 404 || (res.http.ok() && (!res.found || res.sessions.isEmpty()))) {
            r.status = core::RefreshResult::Status::Lost;
            r.error = QStringLiteral("session %1 expired or was invalidated").arg(sid);
            stopRenewing(sid);
        } else if (!res.http.ok()) {
            r.error = QStringLiteral("renew failed: %1").arg(res.http.error);
        } else {
            r.status = core::RefreshResult::Status::Ok;
            // The session TTL is fixed at creation; a renew restarts it (the server may raise it).
            const qint64 ttl = res.sessions.first().ttlMs().value_or(ttlMs);
            r.expiresAtMs = QDateTime::currentMSecsSinceEpoch() + ttl;
            if (auto renewer = m_renewers.value(sid))
                renewer->sinceRenew.restart();
        }
        done(r);
    });
}

void ConsulSemaphoreStore::doRelease(const core::Grant &grant, core::Callback<core::ReleaseResult> done) {
    const QString sid = sessionOf(grant);
    const QString prefix = normalizePrefix(grant.ref.name);
    stopRenewing(sid);
    // Official order: CAS ourselves out of .lock (with the contender delete in the same txn), then
    // destroy the session. The session is destroyed whatever happens, so a failed release still
    // frees the slot once others prune.
    auto finish = [this, sid, done](core::ReleaseResult r) {
        m_client->sessionDestroy(sid, [r, done](ConsulClient::BoolResult) { done(r); });
    };
    // Only the request in flight holds the next round (core::AsyncChain), so a release abandoned at
    // shutdown (its reply never comes) frees everything.
    const auto round = core::AsyncChain<int>::start(
        this, [this, sid, prefix, finish](const core::AsyncChain<int>::Ptr &self, int attempt) {
            const QString lockKey = prefix + QStringLiteral("/.lock");
            const QString contenderKey = prefix + QLatin1Char('/') + sid;
            m_client->kvGet(lockKey, {}, [=, this](ConsulClient::KvResult r) {
                core::ReleaseResult out;
                auto done = [&](core::ReleaseResult res) { finish(res); };
                if (!r.http.ok()) {
                    out.error = QStringLiteral("failed to read %1: %2").arg(lockKey, r.http.error);
                    return done(out);
                }
                if (!r.found || r.entries.isEmpty()) {
                    out.status = core::ReleaseResult::Status::NotHeld;
                    out.error = QStringLiteral("%1 is gone").arg(lockKey);
                    return done(out);
                }
                const KvEntry lock = r.entries.first();
                QString error;
                auto doc = LockDocument::parse(lock.value, &error);
                if (!doc) {
                    out.error = QStringLiteral("cannot release from %1: %2; the session is destroyed instead")
                                    .arg(prefix, error);
                    return done(out);
                }
                if (!doc->removeHolder(sid)) {
                    out.status = core::ReleaseResult::Status::NotHeld;
                    out.error = QStringLiteral("session %1 is not a holder of %2").arg(sid, prefix);
                    return done(out);
                }
                ConsulClient::TxnOp cas;
                cas.verb = QStringLiteral("cas");
                cas.key = lockKey;
                cas.index = lock.modifyIndex;
                cas.flags = lock.flags;
                cas.value = doc->serialize();
                ConsulClient::TxnOp del;
                del.verb = QStringLiteral("delete");
                del.key = contenderKey;
                m_client->txn({cas, del}, [=, this](ConsulClient::TxnResult t) {
                    core::ReleaseResult res;
                    auto end = [&](core::ReleaseResult x) { finish(x); };
                    if (!t.http.ok()) {
                        res.error = QStringLiteral("failed to update lock: %1").arg(t.http.error);
                        return end(res);
                    }
                    if (t.rolledBack) {
                        if (attempt + 1 >= kMaxReleaseRounds) {
                            res.error = QStringLiteral("%1 kept changing; gave up after %2 tries")
                                            .arg(lockKey)
                                            .arg(attempt + 1);
                            return end(res);
                        }
                        return (*self)(attempt + 1);
                    }
                    res.status = core::ReleaseResult::Status::Ok;
                    end(res);
                });
            });
        });
    (*round)(0);
}

// -------------------------------------------------------------------------------------------------
// Operator actions

void ConsulSemaphoreStore::doForceRelease(const core::SemaphoreRef &ref, const core::Holder &observed,
                                          std::optional<qint64> observedVersion,
                                          core::Callback<core::ForceReleaseResult> done) {
    forceRelease(ref, observed, observedVersion, m_invalidateOnForce, std::move(done));
}

void ConsulSemaphoreStore::forceRelease(const core::SemaphoreRef &ref, const core::Holder &observed,
                                        std::optional<qint64> observedVersion, bool invalidateSession,
                                        core::Callback<core::ForceReleaseResult> done) {
    if (refuseIfReadOnly(done))
        return;
    forceReleaseHolder(*m_client, ref, observed, observedVersion, invalidateSession, std::move(done));
}

void ConsulSemaphoreStore::doPurgeExpired(const core::SemaphoreRef &ref,
                                          core::Callback<core::MaintenanceResult> done) {
    const QString prefix = normalizePrefix(ref.name);
    readPrefix(prefix, {}, [this, prefix, done](std::pair<PrefixView, QString> r) {
        if (!r.second.isEmpty())
            return done(
                maintenance(false, QStringLiteral("failed to read prefix %1: %2").arg(prefix, r.second)));
        const PrefixView &view = r.first;
        if (view.lock && !view.doc && !view.isMutex)
            return done(maintenance(false, QStringLiteral("cannot purge: %1").arg(view.lockError)));
        QList<ConsulClient::TxnOp> ops;
        const QStringList stale = view.staleHolders();
        if (view.doc && !stale.isEmpty()) {
            LockDocument doc = *view.doc;
            doc.setHolders(view.liveHolders());
            ops.append({QStringLiteral("cas"), view.lockKey(), doc.serialize(), view.lock->flags,
                        view.lock->modifyIndex, QString()});
        }
        qint64 orphans = 0;
        for (const auto &c : view.contenders) {
            if (ops.size() >= kMaxTxnOps)
                break;
            if (c.session.isEmpty()) {
                ops.append({QStringLiteral("delete-cas"), c.key, std::nullopt, std::nullopt, c.modifyIndex,
                            QString()});
                ++orphans;
            }
        }
        if (ops.isEmpty())
            return done(maintenance(true, QStringLiteral("nothing to purge"), 0));
        const qint64 affected = stale.size() + orphans;
        m_client->txn(ops, [done, affected, stale, orphans](ConsulClient::TxnResult t) {
            if (!t.http.ok())
                return done(maintenance(false, QStringLiteral("purge failed: %1").arg(t.http.error)));
            if (t.rolledBack)
                return done(
                    maintenance(false, QStringLiteral("the semaphore changed while purging; nothing done "
                                                      "(read it again)")));
            done(maintenance(true,
                             QStringLiteral("pruned %1, deleted %2")
                                 .arg(core::countText(stale.size(), QStringLiteral("stale holder"),
                                                      QStringLiteral("stale holders")),
                                      core::countText(orphans, QStringLiteral("orphan contender key"),
                                                      QStringLiteral("orphan contender keys"))),
                             affected));
        });
    });
}

void ConsulSemaphoreStore::doRepair(const core::SemaphoreRef &ref,
                                    core::Callback<core::MaintenanceResult> done) {
    Q_UNUSED(ref);
    done(maintenance(false,
                     QStringLiteral("repair is for Redis semaphores; a Consul semaphore is cleaned with "
                                    "purge (prunes stale holders, deletes orphan contender keys), and a "
                                    "holder whose session should be over goes by invalidating that session "
                                    "(semscope-cli invalidate SESSION, or Tools → Consul sessions)")));
}

void ConsulSemaphoreStore::doSetLimit(const core::SemaphoreRef &ref, qint64 limit,
                                      core::Callback<core::MaintenanceResult> done) {
    if (limit <= 0)
        return done(maintenance(false, QStringLiteral("semaphore limit must be positive")));
    const QString prefix = normalizePrefix(ref.name);
    readPrefix(prefix, {}, [this, prefix, limit, done](std::pair<PrefixView, QString> r) {
        if (!r.second.isEmpty())
            return done(maintenance(false, r.second));
        const PrefixView &view = r.first;
        if (!view.lock)
            return done(maintenance(
                false, QStringLiteral("%1 has no .lock yet; the first acquire creates it").arg(prefix)));
        if (!view.doc)
            return done(
                maintenance(false, view.isMutex ? QStringLiteral("a mutex has no limit") : view.lockError));
        LockDocument doc = *view.doc;
        doc.setLimit(limit);
        ConsulClient::KvPutOptions opts;
        opts.cas = view.lock->modifyIndex;
        opts.flags = view.lock->flags;
        const int live = int(view.liveHolders().size());
        m_client->kvPut(
            view.lockKey(), doc.serialize(), opts, [done, limit, live](ConsulClient::BoolResult p) {
                if (!p.http.ok())
                    return done(maintenance(false, p.http.error));
                if (!p.value)
                    return done(maintenance(false, QStringLiteral(".lock changed meanwhile; nothing done")));
                QString msg =
                    QStringLiteral("limit set to %1; clients configured with another limit will report a "
                                   "limit conflict")
                        .arg(limit);
                if (live > limit)
                    msg += QStringLiteral(" (%1 live holders exceed it until they release)").arg(live);
                done(maintenance(true, msg, 1));
            });
    });
}

void ConsulSemaphoreStore::destroy(const core::SemaphoreRef &ref,
                                   core::Callback<core::MaintenanceResult> done) {
    if (refuseIfReadOnly(done))
        return;
    const QString prefix = normalizePrefix(ref.name);
    readPrefix(prefix, {}, [this, prefix, done](std::pair<PrefixView, QString> r) {
        if (!r.second.isEmpty())
            return done(maintenance(false, r.second));
        const PrefixView &view = r.first;
        if (!view.lock)
            return done(maintenance(true, QStringLiteral("%1 has no .lock; nothing to destroy").arg(prefix)));
        if (view.isMutex && !view.lock->session.isEmpty())
            return done(
                maintenance(false, QStringLiteral("Lock in use (held by %1)").arg(view.lock->session)));
        if (!view.isMutex) {
            if (!view.doc)
                return done(maintenance(false, QStringLiteral("cannot destroy: %1").arg(view.lockError)));
            const QStringList live = view.liveHolders();
            if (!live.isEmpty())
                return done(
                    maintenance(false, QStringLiteral("Semaphore in use (%1)")
                                           .arg(core::countText(live.size(), QStringLiteral("live holder"),
                                                                QStringLiteral("live holders")))));
        }
        m_client->kvDelete(
            view.lockKey(), {view.lock->modifyIndex, false}, [done, prefix](ConsulClient::BoolResult d) {
                if (!d.http.ok())
                    return done(maintenance(false, d.http.error));
                if (!d.value)
                    return done(
                        maintenance(false, QStringLiteral("Semaphore in use (it changed while destroying)")));
                done(maintenance(true, QStringLiteral("destroyed %1/.lock").arg(prefix), 1));
            });
    });
}

void ConsulSemaphoreStore::listSessions(core::Callback<SessionsOutcome> done) {
    m_client->sessionList({}, [done](ConsulClient::SessionsResult r) {
        SessionsOutcome out;
        out.ok = r.http.ok();
        out.error = r.http.error;
        out.sessions = r.sessions;
        done(out);
    });
}

void ConsulSemaphoreStore::invalidateSession(const QString &sessionId,
                                             core::Callback<core::MaintenanceResult> done) {
    if (refuseIfReadOnly(done))
        return;
    if (!isSessionId(sessionId))
        return done(maintenance(false, QStringLiteral("not a session id: %1").arg(sessionId)));
    m_client->sessionInfo(sessionId, {}, [this, sessionId, done](ConsulClient::SessionsResult info) {
        if (!info.http.ok())
            return done(maintenance(false, info.http.error));
        if (info.sessions.isEmpty())
            return done(maintenance(false, QStringLiteral("no session %1").arg(sessionId)));
        m_client->sessionDestroy(sessionId, [sessionId, done](ConsulClient::BoolResult d) {
            if (!d.http.ok())
                return done(maintenance(false, d.http.error));
            done(maintenance(true, QStringLiteral("session %1 invalidated").arg(sessionId), 1));
        });
    });
}

// -------------------------------------------------------------------------------------------------
// Watching

void ConsulSemaphoreStore::watch(const core::SemaphoreRef &ref, core::Callback<core::Snapshot> onChange) {
    const QString prefix = normalizePrefix(ref.name);
    unwatch(ref);
    auto w = std::make_shared<Watch>();
    w->ref = ref;
    w->prefix = prefix;
    w->onChange = std::move(onChange);
    w->retry.setSingleShot(true);
    std::weak_ptr<Watch> weak = w;
    connect(&w->retry, &QTimer::timeout, this, [this, weak] {
        if (auto live = weak.lock())
            watchRound(live);
    });
    m_watches.insert(prefix, w);
    watchRound(w);
}

void ConsulSemaphoreStore::unwatch(const core::SemaphoreRef &ref) {
    auto w = m_watches.take(normalizePrefix(ref.name));
    if (!w)
        return;
    w->stopped = true;
    w->retry.stop();
    if (w->inflight)
        m_client->abort(*w->inflight);
}

void ConsulSemaphoreStore::watchRound(const std::shared_ptr<Watch> &w) {
    if (w->stopped)
        return;
    ConsulClient::ReadOptions opts;
    opts.index = w->index;
    opts.waitMs = m_watchWaitMs;
    std::weak_ptr<Watch> weak = w;
    w->inflight = readPrefix(w->prefix, opts, [this, weak](std::pair<PrefixView, QString> r) {
        auto w = weak.lock();
        if (!w || w->stopped)
            return;
        w->inflight.reset();
        if (!r.second.isEmpty()) {
            core::Snapshot s;
            s.ref = w->ref;
            s.warnings.append(QStringLiteral("watch failed: %1").arg(r.second));
            s.details.insert(QStringLiteral("error"), r.second);
            w->onChange(s);
            // Back off 1 s, 2 s, 4 s ... 30 s before asking again (the server may be restarting).
            w->index = 0;
            w->retry.start(int(std::min<qint64>(30000, 1000LL << std::min(w->failures++, 5))));
            return;
        }
        w->failures = 0;
        const PrefixView view = r.first;
        // Compare with what was last reported, not with the wait index: after a reset to 0 the
        // same data comes back once more and must not be reported twice.
        const bool changed = w->first || view.index != w->reported;
        w->first = false;
        w->reported = view.index;
        w->index = ConsulClient::nextWaitIndex(w->index, std::max<quint64>(view.index, 1));
        if (!changed) {
            watchRound(w); // the wait ran out with nothing new: ask again, still blocking
            return;
        }
        readSessions([this, weak, view](std::pair<QHash<QString, SessionInfo>, QString> sessions) {
            auto w = weak.lock();
            if (!w || w->stopped)
                return;
            core::Snapshot s = buildSnapshot(w->ref, view, sessions.first);
            if (!sessions.second.isEmpty())
                s.warnings.append(QStringLiteral("session details unavailable: %1").arg(sessions.second));
            w->onChange(s);
            if (!w->stopped)
                watchRound(w);
        });
    });
}

void ConsulSemaphoreStore::readRawKeys(const core::SemaphoreRef &ref,
                                       std::function<void(core::RawKeys)> done) {
    RawKvReader::read(*m_client, ref.name, std::move(done));
}

void ConsulSemaphoreStore::readClientLiveness(
    const QList<core::Holder> &holders, const QSet<QString> &,
    core::Callback<QHash<QString, core::HolderClientLiveness>> done) {
    readHolderLiveness(*m_client, holders, std::move(done));
}

} // namespace semscope::consul
