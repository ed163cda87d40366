#include "DoubleState.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QRegularExpression>
#include <QUuid>
#include <algorithm>
#include <cmath>

namespace semscope::consul {

namespace {

constexpr qint64 kMaxLockDelayNs = 60'000'000'000; // structs.MaxLockDelay
constexpr qint64 kMaxTtlMs = 24LL * 3600 * 1000;   // structs.SessionTTLMax

} // namespace

DoubleState::DoubleState(QString node)
    : m_node(std::move(node)) {
    auto timer = std::make_shared<QElapsedTimer>();
    timer->start();
    m_clock = [timer] { return timer->elapsed(); };
}

const DoubleState::KvEntry *DoubleState::get(const QString &key) const {
    const auto it = m_kv.constFind(key);
    return it == m_kv.cend() ? nullptr : &it.value();
}

QList<DoubleState::KvEntry> DoubleState::list(const QString &prefix) const {
    QList<KvEntry> out;
    for (auto it = m_kv.lowerBound(prefix); it != m_kv.cend() && it.key().startsWith(prefix); ++it)
        out.append(it.value());
    return out;
}

quint64 DoubleState::keyIndex(const QString &key) const {
    quint64 idx = 0;
    if (const auto *e = get(key))
        idx = e->modifyIndex;
    return std::max(idx, m_tombstones.value(key, 0));
}

quint64 DoubleState::prefixIndex(const QString &prefix) const {
    quint64 idx = 0;
    for (auto it = m_kv.lowerBound(prefix); it != m_kv.cend() && it.key().startsWith(prefix); ++it)
        idx = std::max(idx, it->modifyIndex);
    if (prefix.isEmpty() || prefix.endsWith(QLatin1Char('/'))) {
        // Folder prefixes are kept up to date on every delete: deleted contender keys pile up as
        // tombstones under a busy semaphore, and scanning them on every wake-up would be quadratic.
        return std::max(idx, m_tombstoneMaxByFolder.value(prefix, 0));
    }
    for (auto it = m_tombstones.lowerBound(prefix); it != m_tombstones.cend() && it.key().startsWith(prefix);
         ++it)
        idx = std::max(idx, it.value());
    return idx;
}

bool DoubleState::lockDelayed(const QString &key) const {
    const auto it = m_lockDelayUntil.constFind(key);
    return it != m_lockDelayUntil.cend() && it.value() > now();
}

bool DoubleState::applyPut(const QString &key, const QByteArray &value, bool hasValue, const PutOptions &opts,
                           quint64 index, QString *error, QString *txnWhat) {
    const auto it = m_kv.find(key);
    const bool exists = it != m_kv.end();
    KvEntry next = exists ? it.value() : KvEntry{};
    next.key = key;
    next.value = hasValue ? value : QByteArray();
    next.hasValue = hasValue;
    next.flags = opts.flags.value_or(0);

    if (opts.cas) {
        const bool match = *opts.cas == 0 ? !exists : (exists && it->modifyIndex == *opts.cas);
        if (!match) {
            if (txnWhat)
                *txnWhat = QStringLiteral("failed to set key \"%1\", index is stale").arg(key);
            return false;
        }
    }
    if (opts.acquire) {
        const QString sid = *opts.acquire;
        if (sid.isEmpty()) {
            *error = QStringLiteral("missing session");
            return false;
        }
        if (!m_sessions.contains(sid)) {
            *error = QStringLiteral("invalid session \"%1\"").arg(sid);
            if (txnWhat)
                *txnWhat = QStringLiteral("failed to lock key \"%1\", invalid session \"%2\"").arg(key, sid);
            return false;
        }
        if (exists && !it->session.isEmpty() && it->session != sid) {
            if (txnWhat)
                *txnWhat = QStringLiteral("failed to lock key \"%1\", lock is already held").arg(key);
            return false;
        }
        if (lockDelayed(key)) {
            if (txnWhat)
                *txnWhat = QStringLiteral("failed to lock key \"%1\" due to lock delay").arg(key);
            return false;
        }
        if (!exists || it->session != sid)
            next.lockIndex = (exists ? it->lockIndex : 0) + 1;
        next.session = sid;
    }
    if (opts.release) {
        if (!exists || it->session != *opts.release) {
            if (txnWhat)
                *txnWhat =
                    QStringLiteral("failed to unlock key \"%1\", lock isn't held, or is held by another "
                                   "session")
                        .arg(key);
            return false;
        }
        next.session.clear();
    }

    if (exists) {
        const KvEntry &cur = it.value();
        if (cur.value == next.value && cur.hasValue == next.hasValue && cur.flags == next.flags &&
            cur.session == next.session && cur.lockIndex == next.lockIndex)
            return true; // identical rewrite: no Raft change, no index bump
        next.modifyIndex = index;
        it.value() = next;
    } else {
        next.createIndex = index;
        next.modifyIndex = index;
        m_kv.insert(key, next);
    }
    m_kvIndex = index;
    m_index = std::max(m_index, index);
    return true;
}

bool DoubleState::put(const QString &key, const QByteArray &value, const PutOptions &opts, QString *error) {
    return applyPut(key, value, !value.isEmpty(), opts, m_index + 1, error, nullptr);
}

bool DoubleState::applyDelete(const QString &key, quint64 index) {
    if (!m_kv.remove(key))
        return false;
    m_tombstones.insert(key, index);
    quint64 &root = m_tombstoneMaxByFolder[QString()];
    root = std::max(root, index);
    for (qsizetype i = key.indexOf(QLatin1Char('/')); i >= 0; i = key.indexOf(QLatin1Char('/'), i + 1)) {
        quint64 &folder = m_tombstoneMaxByFolder[key.left(i + 1)];
        folder = std::max(folder, index);
    }
    m_kvIndex = index;
    m_index = std::max(m_index, index);
    return true;
}

bool DoubleState::remove(const QString &key, bool recurse, std::optional<quint64> cas) {
    const quint64 index = m_index + 1;
    if (recurse) {
        QStringList doomed;
        for (auto it = m_kv.lowerBound(key); it != m_kv.cend() && it.key().startsWith(key); ++it)
            doomed.append(it.key());
        for (const auto &k : doomed)
            applyDelete(k, index);
        return true;
    }
    if (cas) {
        const KvEntry *e = get(key);
        if (!e)
            return true; // kvsDeleteCASTxn: an absent key counts as deleted
        if (*cas == 0 || e->modifyIndex != *cas)
            return false;
    }
    applyDelete(key, index);
    return true;
}

QString DoubleState::createSession(const SessionSpec &spec, QString *error) {
    Session s;
    s.name = spec.name;
    s.behavior = spec.behavior.isEmpty() ? QStringLiteral("release") : spec.behavior;
    if (s.behavior != QLatin1String("release") && s.behavior != QLatin1String("delete")) {
        *error = QStringLiteral("Invalid Behavior setting '%1'").arg(spec.behavior);
        return {};
    }
    if (!spec.ttl.isEmpty()) {
        const auto ns = parseGoDurationNs(spec.ttl);
        if (!ns) {
            *error = QStringLiteral("Invalid Session TTL '%1': time: invalid duration \"%1\"").arg(spec.ttl);
            return {};
        }
        if (*ns != 0) {
            const qint64 minNs = m_minTtlMs * 1'000'000;
            const qint64 maxNs = kMaxTtlMs * 1'000'000;
            if (*ns < minNs || *ns > maxNs) {
                *error = QStringLiteral("Invalid Session TTL '%1', must be between [%2=%3]")
                             .arg(*ns)
                             .arg(goDurationString(minNs), goDurationString(maxNs));
                return {};
            }
            s.ttl = spec.ttl;
            s.ttlMs = *ns / 1'000'000;
        }
    }
    s.node = spec.node.value_or(m_node);
    if (s.node != m_node) {
        *error = QStringLiteral("Missing node registration");
        return {};
    }
    s.nodeChecks = spec.nodeChecks.value_or(QStringList{QStringLiteral("serfHealth")});
    s.serviceChecks = spec.serviceChecks;
    for (const auto &c : s.nodeChecks) {
        if (c == QLatin1String("serfHealth")) {
            if (m_serfCritical) {
                *error = QStringLiteral("Check 'serfHealth' is in critical state");
                return {};
            }
        } else {
            *error = QStringLiteral("Missing check '%1' registration").arg(c);
            return {};
        }
    }
    if (!s.serviceChecks.isEmpty()) {
        *error = QStringLiteral("Missing check '%1' registration").arg(s.serviceChecks.first().id);
        return {};
    }
    if (spec.lockDelayNs)
        s.lockDelayNs = *spec.lockDelayNs;
    s.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    const quint64 idx = nextIndex();
    s.createIndex = idx;
    s.modifyIndex = idx;
    if (s.ttlMs > 0)
        s.deadlineMs = now() + s.ttlMs * m_ttlMultiplier;
    m_sessions.insert(s.id, s);
    m_sessionsIndex = idx;
    return s.id;
}

void DoubleState::invalidateSession(const QString &id, quint64 index) {
    const auto sit = m_sessions.constFind(id);
    if (sit == m_sessions.cend())
        return;
    const Session s = sit.value();
    m_sessions.remove(id);
    QStringList held;
    for (auto it = m_kv.cbegin(); it != m_kv.cend(); ++it) {
        if (it->session == id)
            held.append(it.key());
    }
    const qint64 delayMs = std::min(s.lockDelayNs, kMaxLockDelayNs) / 1'000'000;
    for (const auto &key : held) {
        if (s.behavior == QLatin1String("delete")) {
            applyDelete(key, index);
        } else {
            KvEntry &e = m_kv[key];
            e.session.clear();
            e.modifyIndex = index;
            m_kvIndex = index;
        }
        if (delayMs > 0)
            m_lockDelayUntil.insert(key, now() + delayMs);
    }
    m_sessionsIndex = index;
    m_index = std::max(m_index, index);
}

void DoubleState::destroySession(const QString &id) {
    if (m_sessions.contains(id))
        invalidateSession(id, m_index + 1);
}

const DoubleState::Session *DoubleState::renewSession(const QString &id) {
    auto it = m_sessions.find(id);
    if (it == m_sessions.end())
        return nullptr;
    if (it->ttlMs > 0)
        it->deadlineMs = now() + it->ttlMs * m_ttlMultiplier;
    return &it.value();
}

const DoubleState::Session *DoubleState::session(const QString &id) const {
    const auto it = m_sessions.constFind(id);
    return it == m_sessions.cend() ? nullptr : &it.value();
}

QList<DoubleState::Session> DoubleState::sessions() const {
    QList<Session> out = m_sessions.values();
    std::sort(out.begin(), out.end(),
              [](const Session &a, const Session &b) { return a.createIndex < b.createIndex; });
    return out;
}

QList<DoubleState::Session> DoubleState::sessionsOnNode(const QString &node) const {
    QList<Session> out;
    for (const auto &s : sessions()) {
        if (s.node == node)
            out.append(s);
    }
    return out;
}

void DoubleState::setSerfHealthCritical(bool critical) {
    m_serfCritical = critical;
    if (!critical)
        return;
    QStringList doomed;
    for (const auto &s : std::as_const(m_sessions)) {
        if (s.nodeChecks.contains(QStringLiteral("serfHealth")))
            doomed.append(s.id);
    }
    for (const auto &id : doomed)
        invalidateSession(id, nextIndex());
}

int DoubleState::expireDueSessions() {
    const qint64 t = now();
    QStringList doomed;
    for (const auto &s : std::as_const(m_sessions)) {
        if (s.deadlineMs >= 0 && s.deadlineMs <= t)
            doomed.append(s.id);
    }
    for (const auto &id : doomed)
        invalidateSession(id, nextIndex());
    return int(doomed.size());
}

qint64 DoubleState::nextDeadlineMs() const {
    qint64 next = -1;
    for (const auto &s : m_sessions) {
        if (s.deadlineMs >= 0 && (next < 0 || s.deadlineMs < next))
            next = s.deadlineMs;
    }
    return next;
}

DoubleState::TxnResult DoubleState::applyTxn(const QList<TxnOp> &ops) {
    // Work on copies; commit only if every op succeeds. QMap/QHash copies are shared until written.
    const auto kv = m_kv;
    const auto tombs = m_tombstones;
    const auto tombFolders = m_tombstoneMaxByFolder;
    const quint64 kvIndex = m_kvIndex;
    const quint64 globalIndex = m_index;
    const quint64 index = m_index + 1;

    TxnResult r;
    auto rollback = [&](int op, QString what) {
        m_kv = kv;
        m_tombstones = tombs;
        m_tombstoneMaxByFolder = tombFolders;
        m_kvIndex = kvIndex;
        m_index = globalIndex;
        r.ok = false;
        r.results.clear();
        r.errorOp = op;
        r.what = std::move(what);
        return r;
    };
    auto stripped = [](KvEntry e) {
        e.value.clear();
        e.hasValue = false;
        return e;
    };

    for (int i = 0; i < ops.size(); ++i) {
        const TxnOp &op = ops[i];
        const QString &v = op.verb;
        const KvEntry *cur = get(op.key);
        QString error;
        QString what;
        PutOptions po;
        po.flags = op.flags;
        if (v == QLatin1String("set") || v == QLatin1String("cas") || v == QLatin1String("lock") ||
            v == QLatin1String("unlock")) {
            if (v == QLatin1String("cas"))
                po.cas = op.index;
            if (v == QLatin1String("lock"))
                po.acquire = op.session;
            if (v == QLatin1String("unlock"))
                po.release = op.session;
            if (!applyPut(op.key, op.value, op.hasValue, po, index, &error, &what))
                return rollback(i, what.isEmpty() ? error : what);
            r.results.append(stripped(*get(op.key)));
        } else if (v == QLatin1String("get")) {
            if (!cur)
                return rollback(i, QStringLiteral("key \"%1\" doesn't exist").arg(op.key));
            r.results.append(*cur);
        } else if (v == QLatin1String("get-or-empty")) {
            if (cur)
                r.results.append(*cur);
        } else if (v == QLatin1String("get-tree")) {
            r.results.append(list(op.key));
        } else if (v == QLatin1String("check-index")) {
            if (!cur)
                return rollback(i, QStringLiteral("key \"%1\" doesn't exist").arg(op.key));
            if (cur->modifyIndex != op.index)
                return rollback(
                    i, QStringLiteral("failed index check for key \"%1\", current modify index %2 != %3")
                           .arg(op.key)
                           .arg(cur->modifyIndex)
                           .arg(op.index));
            r.results.append(stripped(*cur));
        } else if (v == QLatin1String("check-session")) {
            if (!cur)
                return rollback(i, QStringLiteral("key \"%1\" doesn't exist").arg(op.key));
            if (cur->session != op.session)
                return rollback(
                    i, QStringLiteral("failed session check for key \"%1\", current session %2 != %3")
                           .arg(op.key, cur->session, op.session));
            r.results.append(stripped(*cur));
        } else if (v == QLatin1String("check-not-exists")) {
            if (cur)
                return rollback(i, QStringLiteral("key \"%1\" exists").arg(op.key));
        } else if (v == QLatin1String("delete")) {
            applyDelete(op.key, index);
        } else if (v == QLatin1String("delete-tree")) {
            QStringList doomed;
            for (auto it = m_kv.lowerBound(op.key); it != m_kv.cend() && it.key().startsWith(op.key); ++it)
                doomed.append(it.key());
            for (const auto &k : doomed)
                applyDelete(k, index);
        } else if (v == QLatin1String("delete-cas")) {
            if (cur && cur->modifyIndex != op.index)
                return rollback(i, QStringLiteral("failed to delete key \"%1\", index is stale").arg(op.key));
            if (cur)
                applyDelete(op.key, index);
        } else {
            return rollback(i, QStringLiteral("unknown KV verb \"%1\"").arg(v));
        }
    }
    r.ok = true;
    return r;
}

} // namespace semscope::consul
