#include "ConsulAcquire.h"

#include "ConsulSemaphoreStore.h"
#include "core/Duration.h"

#include <QDateTime>
#include <QPointer>
#include <algorithm>
#include <limits>

namespace semscope::consul {

namespace {

constexpr int kMaxRaceRetries = 10000; // lost CAS races; each one means someone else progressed
constexpr int kMaxReadRetries = 3;     // transport errors on a blocking read (api: MonitorRetries)

QString ttlText(qint64 ms) {
    if (ms % 1000 == 0)
        return QStringLiteral("%1s").arg(ms / 1000);
    return QStringLiteral("%1ms").arg(ms);
}

} // namespace

ConsulAcquire::ConsulAcquire(ConsulSemaphoreStore *store, const core::SemaphoreRef &ref,
                             const core::AcquireRequest &request, core::Cancellation cancel,
                             core::Callback<core::AcquireResult> done)
    : QObject(store)
    , m_store(store)
    , m_client(store->client())
    , m_ref(ref)
    , m_prefix(normalizePrefix(ref.name))
    , m_request(request)
    , m_cancel(std::move(cancel))
    , m_done(std::move(done)) {
    m_cancelTimer.setInterval(50);
    connect(&m_cancelTimer, &QTimer::timeout, this, &ConsulAcquire::checkCancelled);
    m_deadline.setSingleShot(true);
    connect(&m_deadline, &QTimer::timeout, this, &ConsulAcquire::onDeadline);
}

void ConsulAcquire::start() {
    m_elapsed.start();
    if (m_ref.kind != core::Kind::Consul)
        return fail(QStringLiteral("semscope acquires only Consul semaphores (kind consul), not %1")
                        .arg(core::kindName(m_ref.kind)));
    if (m_prefix.isEmpty())
        return fail(QStringLiteral("missing prefix"));
    if (m_ref.profile.limit && *m_ref.profile.limit <= 0)
        return fail(QStringLiteral("semaphore limit must be positive"));
    m_cancelTimer.start();
    if (m_request.waitMs > 0)
        m_deadline.start(int(std::min<qint64>(m_request.waitMs, std::numeric_limits<int>::max())));
    createSession();
}

qint64 ConsulAcquire::remainingMs() const {
    return m_request.waitMs - m_elapsed.elapsed();
}

void ConsulAcquire::checkCancelled() {
    if (!m_cancel.isCancelled() || m_finished)
        return;
    const auto inflight = m_inflight;
    fail(QStringLiteral("acquire cancelled"));
    if (inflight)
        m_client.abort(*inflight); // its callback sees m_finished and returns
}

void ConsulAcquire::onDeadline() {
    if (m_finished)
        return;
    const auto inflight = m_inflight;
    if (m_lastSeenFull) {
        finish(busyResult(*m_lastSeenFull));
    } else {
        const QString why = QStringLiteral("no answer from Consul within the %1 wait")
                                .arg(core::formatDurationMs(m_request.waitMs));
        if (inflight) // a timeout: said before the result, so callers know the agent was not heard
            m_client.noteUnanswered(why);
        fail(why);
    }
    if (inflight)
        m_client.abort(*inflight); // its callback sees m_finished and returns
}

core::AcquireResult ConsulAcquire::busyResult(const QStringList &liveHolders) const {
    core::AcquireResult busy;
    busy.status = core::AcquireResult::Status::Busy;
    busy.attempts = m_attempts;
    for (const auto &sid : liveHolders) {
        core::Holder h;
        h.id = sid;
        h.rawId = sid.toUtf8();
        busy.holders.append(h);
    }
    return busy;
}

void ConsulAcquire::createSession() {
    ConsulClient::SessionRequest s;
    s.name = m_request.holder.isEmpty() ? ConsulSemaphoreStore::defaultSessionName() : m_request.holder;
    m_sessionName = s.name;
    s.ttl = ttlText(std::max<qint64>(m_request.ttlMs, 1));
    s.behavior = QStringLiteral("delete");
    m_inflight = m_client.sessionCreate(s, [this](ConsulClient::CreateSessionResult r) {
        m_inflight.reset();
        if (m_finished)
            return;
        if (!r.http.ok()) {
            QString why = QStringLiteral("failed to create session: %1").arg(r.http.error);
            // Consul states the TTL it refused in nanoseconds: say it in the unit it was asked in.
            if (r.http.error.contains(QLatin1String("Invalid Session TTL")))
                why += QStringLiteral("; a lease of %1 is outside the session TTLs this agent accepts (its "
                                      "session_ttl_min, 10 s by default, to 24 h)")
                           .arg(core::formatDurationMs(m_request.ttlMs));
            return fail(why);
        }
        m_sid = r.id;
        read();
    });
}

void ConsulAcquire::read() {
    ConsulClient::ReadOptions opts;
    opts.index = m_waitIndex;
    if (m_waitIndex > 0)
        opts.waitMs = std::max<qint64>(1, std::min(m_store->acquireWaitSliceMs(), remainingMs()));
    const bool blocking = m_waitIndex > 0;
    m_inflight = m_store->readPrefix(m_prefix, opts, [this, blocking](std::pair<PrefixView, QString> r) {
        m_inflight.reset();
        if (m_finished)
            return;
        if (!r.second.isEmpty()) {
            // A blocking read can be cut by a proxy or a restarting agent; re-read a few times.
            if (blocking && ++m_readRetries <= kMaxReadRetries) {
                m_waitIndex = 0;
                return read();
            }
            return fail(QStringLiteral("failed to read prefix %1: %2").arg(m_prefix, r.second));
        }
        onView(r.first);
    });
}

void ConsulAcquire::onView(const PrefixView &view) {
    if (view.isMutex)
        return fail(QStringLiteral("%1 is a `consul lock -n 1` mutex, not a semaphore").arg(view.lockKey()));
    if (view.lock && !view.doc)
        return fail(
            QStringLiteral("cannot acquire %1: %2; nothing was written").arg(m_prefix, view.lockError));
    std::optional<qint64> limit = m_ref.profile.limit;
    if (view.doc) {
        if (limit && *limit != view.doc->limit())
            return fail(QStringLiteral("semaphore limit conflict (lock: %1, local: %2)")
                            .arg(view.doc->limit())
                            .arg(*limit));
        limit = view.doc->limit();
    }
    if (!limit)
        return fail(
            QStringLiteral("%1 has no .lock yet; give a limit to create the semaphore").arg(m_prefix));

    const QStringList live = view.liveHolders();
    if (live.contains(m_sid)) {
        // Our own earlier txn went through although its reply was lost.
        return fail(QStringLiteral("session %1 already holds a slot of %2").arg(m_sid, m_prefix));
    }
    if (live.size() < *limit)
        return take(view, live, *limit);

    m_lastSeenFull = live;
    if (m_request.waitMs <= 0 || remainingMs() <= 0)
        return finish(busyResult(live));
    if (!m_contenderWritten)
        return writeContender(view);
    waitForChange(view);
}

void ConsulAcquire::waitForChange(const PrefixView &view) {
    // Waiters in contender order (CreateIndex). The first watches the whole prefix, so it sees
    // releases and dead holders at once; every later one watches only the waiter ahead of it,
    // which changes when that waiter is granted (its contender value turns to "holding") or
    // leaves. So one release wakes one or two waiters, not all of them, while every waiter still
    // waits on a blocking query. The slice bounds how long a stuck waiter ahead can delay us.
    QList<const KvEntry *> waiters;
    const QStringList live = view.liveHolders();
    for (const auto &c : view.contenders) {
        const QString sid = c.key.section(QLatin1Char('/'), -1);
        if (!c.session.isEmpty() && !live.contains(sid))
            waiters.append(&c);
    }
    std::sort(waiters.begin(), waiters.end(),
              [](const KvEntry *a, const KvEntry *b) { return a->createIndex < b->createIndex; });
    qsizetype position = -1;
    for (qsizetype i = 0; i < waiters.size(); ++i) {
        if (waiters[i]->session == m_sid)
            position = i;
    }
    if (position <= 0) {
        m_waitIndex = ConsulClient::nextWaitIndex(m_waitIndex, view.index);
        return read();
    }
    const KvEntry ahead = *waiters[position - 1];
    ConsulClient::KvGetOptions opts;
    opts.recurse = true; // a one-key "prefix": its index is that key's own, not the whole KV table's
    opts.index = std::max<quint64>(ahead.modifyIndex, 1);
    opts.waitMs = std::max<qint64>(1, std::min(m_store->acquireWaitSliceMs(), remainingMs()));
    m_inflight = m_client.kvGet(ahead.key, opts, [this](ConsulClient::KvResult r) {
        m_inflight.reset();
        if (m_finished)
            return;
        if (!r.http.ok() && ++m_readRetries > kMaxReadRetries)
            return fail(QStringLiteral("failed to read prefix %1: %2").arg(m_prefix, r.http.error));
        m_waitIndex = 0;
        read();
    });
}

QByteArray ConsulAcquire::contenderValue(const char *state) const {
    // Contender values are the client's own data in the Go API (SemaphoreOptions.Value); semscope
    // says who it is and whether it holds, which also wakes the waiter queued behind it.
    RawJson v = RawJson::object({{QStringLiteral("Holder"), RawJson::string(m_sessionName)},
                                 {QStringLiteral("State"), RawJson::string(QString::fromLatin1(state))}});
    return v.toCompact();
}

void ConsulAcquire::writeContender(const PrefixView &view) {
    ConsulClient::KvPutOptions opts;
    opts.acquire = m_sid;
    opts.flags = view.lockFlags();
    const quint64 seenIndex = view.index;
    m_inflight = m_client.kvPut(
        view.contenderKey(m_sid), contenderValue("waiting"), opts,
        [this, seenIndex](ConsulClient::BoolResult r) {
            m_inflight.reset();
            if (m_finished)
                return;
            if (!r.http.ok())
                return fail(QStringLiteral("failed to make contender entry: %1").arg(r.http.error));
            if (!r.value)
                return fail(QStringLiteral("failed to make contender entry: Consul refused "
                                           "the lock on the contender key"));
            m_contenderWritten = true;
            m_waitIndex = seenIndex; // returns at once: our own write moved the index
            read();
        });
}

void ConsulAcquire::take(const PrefixView &view, const QStringList &liveHolders, qint64 limit) {
    LockDocument doc = view.doc ? *view.doc : LockDocument::create(limit, LockDocument::Dialect::GoMap);
    doc.setHolders(liveHolders); // prune dead holders; the pruning is persisted by this write
    doc.addHolder(m_sid);
    const quint64 flags = view.lockFlags();

    ConsulClient::TxnOp contender;
    contender.key = view.contenderKey(m_sid);
    contender.session = m_sid;
    // "lock" by our own session: fails (and rolls back the txn) if the session is gone.
    contender.verb = QStringLiteral("lock");
    contender.flags = flags;
    contender.value = contenderValue("holding");
    ConsulClient::TxnOp cas;
    cas.verb = QStringLiteral("cas");
    cas.key = view.lockKey();
    cas.index = view.lock ? view.lock->modifyIndex : 0;
    cas.flags = flags;
    cas.value = doc.serialize();

    ++m_attempts;
    const QStringList holders = doc.holders();
    m_inflight = m_client.txn({contender, cas}, [this, holders, flags, doc](ConsulClient::TxnResult r) {
        m_inflight.reset();
        if (m_finished)
            return;
        if (!r.http.ok())
            return fail(QStringLiteral("failed to update lock: %1").arg(r.http.error));
        if (r.rolledBack) {
            const int op = r.errors.isEmpty() ? -1 : r.errors.first().first;
            const QString what = r.errors.isEmpty() ? QString() : r.errors.first().second;
            if (op == 0) {
                return fail(
                    m_contenderWritten
                        ? QStringLiteral("session %1 was invalidated while waiting (%2)").arg(m_sid, what)
                        : QStringLiteral("failed to make contender entry: %1").arg(what));
            }
            if (++m_raceRetries > kMaxRaceRetries)
                return fail(QStringLiteral("gave up after %1 lost races on .lock").arg(kMaxRaceRetries));
            m_waitIndex = 0; // lost the CAS race: somebody changed .lock, read it again now
            return read();
        }
        m_contenderWritten = true;
        core::AcquireResult ok;
        ok.status = core::AcquireResult::Status::Granted;
        ok.attempts = m_attempts;
        core::Grant &g = ok.grant;
        g.ref = m_ref;
        g.holder = m_sid;
        g.rawHolder = m_sid.toUtf8();
        g.rank = holders.indexOf(m_sid);
        for (const auto &e : r.results) {
            if (e.key.endsWith(QLatin1String("/.lock")))
                g.token = qint64(e.modifyIndex); // rises with every grant: usable as a fencing token
        }
        g.expiresAtMs = QDateTime::currentMSecsSinceEpoch() + m_request.ttlMs;
        g.details.insert(QStringLiteral("session"), m_sid);
        g.details.insert(QStringLiteral("prefix"), m_prefix);
        g.details.insert(QStringLiteral("contenderKey"), QString(m_prefix + QLatin1Char('/') + m_sid));
        g.details.insert(QStringLiteral("flags"), QString::number(flags));
        g.details.insert(QStringLiteral("dialect"), doc.dialectName());
        g.details.insert(QStringLiteral("ttlMs"), m_request.ttlMs);
        m_store->startRenewing(g, m_request.ttlMs);
        finish(ok);
    });
}

void ConsulAcquire::fail(const QString &message) {
    core::AcquireResult r;
    r.status = core::AcquireResult::Status::Error;
    r.error = message;
    r.attempts = m_attempts;
    finish(r);
}

void ConsulAcquire::finish(core::AcquireResult result) {
    if (m_finished)
        return;
    m_finished = true;
    m_cancelTimer.stop();
    m_deadline.stop();
    if (result.status == core::AcquireResult::Status::Granted || m_sid.isEmpty())
        return answer(std::move(result));
    // Behaviour delete: destroying the session also removes our contender key. Answered after it
    // (see the class comment), whatever the agent says: the session's TTL ends it otherwise.
    m_pending = std::move(result);
    QPointer<ConsulAcquire> self(this);
    m_client.sessionDestroy(m_sid, [self](ConsulClient::BoolResult) {
        if (self)
            self->answerPending();
    });
    QTimer::singleShot(kSessionCleanupMs, this, &ConsulAcquire::answerPending);
}

void ConsulAcquire::answerPending() {
    if (!m_pending)
        return;
    core::AcquireResult result = std::move(*m_pending);
    m_pending.reset();
    answer(std::move(result));
}

void ConsulAcquire::answer(core::AcquireResult result) {
    auto done = std::move(m_done);
    deleteLater();
    done(std::move(result));
}

} // namespace semscope::consul
