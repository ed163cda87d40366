#include "InMemorySemaphoreStore.h"

#include "core/GlobPattern.h"
#include <algorithm>
#include <chrono>

namespace semscope::test {

using namespace semscope::core;

namespace {
constexpr int waitPollMs = 2; // waiting acquires look again this often (and at the earliest expiry)
} // namespace

qint64 InMemorySemaphoreServer::nowMs() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

void InMemorySemaphoreServer::purge(Semaphore &s, qint64 now) {
    for (auto it = s.holders.begin(); it != s.holders.end();) {
        if (it->expiresAtMs <= now)
            it = s.holders.erase(it);
        else
            ++it;
    }
}

InMemorySemaphoreStore::InMemorySemaphoreStore(std::shared_ptr<InMemorySemaphoreServer> server,
                                               QObject *parent)
    : SemaphoreStore(parent)
    , m_server(std::move(server)) {}

void InMemorySemaphoreStore::discover(const DiscoverRequest &request, Cancellation,
                                      Callback<DiscoverProgress>, Callback<DiscoverResult> done) {
    DiscoverResult result;
    result.ok = true;
    const GlobPattern pattern(request.match);
    {
        std::lock_guard lock(m_server->mutex);
        for (auto it = m_server->semaphores.cbegin(); it != m_server->semaphores.cend(); ++it) {
            if (!pattern.matches(it.key()))
                continue;
            DiscoveredSemaphore d;
            d.ref.kind = Kind::Leased;
            d.ref.name = it.key();
            d.keys = {it.key()};
            result.semaphores.append(d);
            ++result.scannedKeys;
        }
    }
    later([done, result] { done(result); });
}

void InMemorySemaphoreStore::snapshot(const SemaphoreRef &ref, Callback<Snapshot> done) {
    Snapshot snap;
    snap.ref = ref;
    {
        std::lock_guard lock(m_server->mutex);
        const qint64 now = m_server->nowMs();
        snap.serverNowMs = now;
        if (auto it = m_server->semaphores.find(ref.name); it != m_server->semaphores.end()) {
            snap.limit = it->limit;
            snap.limitSource = it->limitStored ? LimitSource::Stored : LimitSource::Profile;
            snap.counter = it->fence;
            for (auto h = it->holders.cbegin(); h != it->holders.cend(); ++h) {
                Holder holder;
                holder.id = h.key();
                holder.rawId = h.key().toUtf8();
                holder.token = h->token;
                holder.acquiredAtMs = h->acquiredAtMs;
                holder.expiresAtMs = h->expiresAtMs;
                holder.state = h->expiresAtMs <= now ? HolderState::ExpiredPresent : HolderState::Live;
                snap.holders.append(holder);
            }
        }
    }
    later([done, snap] { done(snap); });
}

void InMemorySemaphoreStore::readRawKeys(const SemaphoreRef &ref, std::function<void(RawKeys)> done) {
    RawKeys out;
    out.ok = true;
    {
        std::lock_guard lock(m_server->mutex);
        if (auto it = m_server->semaphores.find(ref.name); it != m_server->semaphores.end()) {
            RawKey k;
            k.name = ref.name;
            k.type = QStringLiteral("memory");
            k.value = QStringLiteral("limit %1, fence %2").arg(it->limit).arg(it->fence);
            k.columns = {QStringLiteral("holder"), QStringLiteral("expires at (ms)"),
                         QStringLiteral("token")};
            k.length = it->holders.size();
            for (auto h = it->holders.cbegin(); h != it->holders.cend() && k.rows.size() < kRawMaxRows; ++h)
                k.rows.append({h.key(), QString::number(h->expiresAtMs), QString::number(h->token)});
            out.keys.append(k);
        }
    }
    later([done, out] { done(out); });
}

AcquireResult InMemorySemaphoreStore::tryAcquire(const SemaphoreRef &ref, const QString &holder,
                                                 qint64 ttlMs) {
    AcquireResult r;
    r.attempts = 1;
    std::lock_guard lock(m_server->mutex);
    ++m_server->acquireCalls;
    const qint64 now = m_server->nowMs();
    auto &s = m_server->semaphores[ref.name];
    if (!s.limitStored)
        s.limit = ref.profile.limit.value_or(1);
    InMemorySemaphoreServer::purge(s, now);
    if (!s.holders.contains(holder) && s.holders.size() >= s.limit) {
        r.status = AcquireResult::Status::Busy;
        for (auto h = s.holders.cbegin(); h != s.holders.cend(); ++h) {
            Holder busy;
            busy.id = h.key();
            busy.expiresAtMs = h->expiresAtMs;
            r.holders.append(busy);
            r.earliestExpiryMs = std::min(r.earliestExpiryMs.value_or(h->expiresAtMs), h->expiresAtMs);
        }
        return r;
    }
    auto &entry = s.holders[holder];
    entry.acquiredAtMs = now;
    entry.expiresAtMs = now + ttlMs;
    entry.token = ++s.fence;
    r.status = AcquireResult::Status::Granted;
    r.grant.ref = ref;
    r.grant.holder = holder;
    r.grant.rawHolder = holder.toUtf8();
    r.grant.token = entry.token;
    r.grant.expiresAtMs = entry.expiresAtMs;
    return r;
}

void InMemorySemaphoreStore::doAcquire(const SemaphoreRef &ref, const AcquireRequest &request,
                                       Cancellation cancel, Callback<AcquireResult> done) {
    AcquireRequest req = request;
    if (req.holder.isEmpty())
        req.holder = QStringLiteral("mem-%1-%2").arg(reinterpret_cast<quintptr>(this), 0, 16).arg(++m_nextId);
    attempt(ref, req, cancel, m_server->nowMs() + std::max<qint64>(0, req.waitMs), 0, std::move(done));
}

void InMemorySemaphoreStore::attempt(const SemaphoreRef &ref, const AcquireRequest &request,
                                     Cancellation cancel, qint64 deadlineMs, int attempts,
                                     Callback<AcquireResult> done) {
    // The attempt itself happens "on the server" after a hop through the event loop, like a reply.
    later([this, ref, request, cancel, deadlineMs, attempts, done] {
        if (cancel.isCancelled()) {
            AcquireResult r;
            r.error = QStringLiteral("cancelled");
            r.attempts = attempts;
            done(r);
            return;
        }
        AcquireResult r = tryAcquire(ref, request.holder, request.ttlMs);
        r.attempts = attempts + 1;
        const qint64 now = m_server->nowMs();
        if (r.status != AcquireResult::Status::Busy || request.waitMs <= 0 || now >= deadlineMs) {
            done(r);
            return;
        }
        qint64 next = now + waitPollMs;
        if (r.earliestExpiryMs)
            next = std::min(next, *r.earliestExpiryMs);
        next = std::min(next, deadlineMs);
        QTimer::singleShot(static_cast<int>(std::max<qint64>(0, next - now)), this,
                           [this, ref, request, cancel, deadlineMs, attempts = r.attempts, done] {
                               attempt(ref, request, cancel, deadlineMs, attempts, done);
                           });
    });
}

void InMemorySemaphoreStore::doRefresh(const Grant &grant, qint64 ttlMs, Callback<RefreshResult> done) {
    RefreshResult r;
    {
        std::lock_guard lock(m_server->mutex);
        const qint64 now = m_server->nowMs();
        auto &s = m_server->semaphores[grant.ref.name];
        auto it = s.holders.find(grant.holder);
        if (it == s.holders.end() || it->expiresAtMs <= now || (grant.token && *grant.token != it->token)) {
            r.status = RefreshResult::Status::Lost;
        } else {
            it->expiresAtMs = now + ttlMs;
            r.status = RefreshResult::Status::Ok;
            r.expiresAtMs = it->expiresAtMs;
        }
    }
    later([done, r] { done(r); });
}

void InMemorySemaphoreStore::doRelease(const Grant &grant, Callback<ReleaseResult> done) {
    ReleaseResult r;
    {
        std::lock_guard lock(m_server->mutex);
        const qint64 now = m_server->nowMs();
        auto &s = m_server->semaphores[grant.ref.name];
        auto it = s.holders.find(grant.holder);
        if (it == s.holders.end() || it->expiresAtMs <= now || (grant.token && *grant.token != it->token)) {
            r.status = ReleaseResult::Status::NotHeld;
        } else {
            s.holders.erase(it);
            r.status = ReleaseResult::Status::Ok;
        }
    }
    later([done, r] { done(r); });
}

void InMemorySemaphoreStore::doForceRelease(const SemaphoreRef &ref, const Holder &observed,
                                            std::optional<qint64>, Callback<ForceReleaseResult> done) {
    ForceReleaseResult r;
    {
        std::lock_guard lock(m_server->mutex);
        auto &s = m_server->semaphores[ref.name];
        auto it = s.holders.find(observed.id);
        if (it == s.holders.end()) {
            r.status = ForceReleaseResult::Status::Gone;
        } else if (observed.token && *observed.token != it->token) {
            r.status = ForceReleaseResult::Status::Changed;
            r.message = QStringLiteral("token is %1 now").arg(it->token);
        } else {
            s.holders.erase(it);
            r.status = ForceReleaseResult::Status::Released;
            r.message = QStringLiteral("released %1").arg(observed.id); // as the Redis kinds say it
        }
    }
    later([done, r] { done(r); });
}

void InMemorySemaphoreStore::doPurgeExpired(const SemaphoreRef &ref, Callback<MaintenanceResult> done) {
    MaintenanceResult r;
    {
        std::lock_guard lock(m_server->mutex);
        auto &s = m_server->semaphores[ref.name];
        const auto before = s.holders.size();
        InMemorySemaphoreServer::purge(s, m_server->nowMs());
        r.ok = true;
        r.affected = before - s.holders.size();
    }
    later([done, r] { done(r); });
}

void InMemorySemaphoreStore::doRepair(const SemaphoreRef &, Callback<MaintenanceResult> done) {
    MaintenanceResult r;
    r.ok = true;
    r.message = QStringLiteral("nothing to repair");
    later([done, r] { done(r); });
}

void InMemorySemaphoreStore::doSetLimit(const SemaphoreRef &ref, qint64 limit,
                                        Callback<MaintenanceResult> done) {
    MaintenanceResult r;
    if (limit < 1) {
        r.message = QStringLiteral("limit must be at least 1");
    } else {
        std::lock_guard lock(m_server->mutex);
        auto &s = m_server->semaphores[ref.name];
        s.limit = limit;
        s.limitStored = true;
        r.ok = true;
    }
    later([done, r] { done(r); });
}

} // namespace semscope::test
