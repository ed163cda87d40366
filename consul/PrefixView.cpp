#include "PrefixView.h"

#include "core/CountText.h"
#include "core/SnapshotRules.h"

#include <QDateTime>
#include <QRegularExpression>
#include <algorithm>

namespace semscope::consul {

bool isSessionId(const QString &text) {
    static const QRegularExpression uuid(
        QStringLiteral("^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"));
    return uuid.match(text).hasMatch();
}

QString normalizePrefix(const QString &name) {
    QString p = name.trimmed();
    while (p.startsWith(QLatin1Char('/')))
        p.remove(0, 1);
    while (p.endsWith(QLatin1Char('/')))
        p.chop(1);
    return p;
}

PrefixView PrefixView::from(const QString &prefix, const QList<KvEntry> &entries, quint64 index) {
    PrefixView v;
    v.prefix = prefix;
    v.index = index;
    const QString base = prefix + QLatin1Char('/');
    for (const auto &e : entries) {
        if (!e.session.isEmpty())
            v.alive.insert(e.session);
        if (!e.key.startsWith(base))
            continue;
        const QString rest = e.key.mid(base.size());
        if (rest == QLatin1String(".lock"))
            v.lock = e;
        else if (!rest.contains(QLatin1Char('/')) && isSessionId(rest))
            v.contenders.append(e);
    }
    if (v.lock) {
        if (v.lock->flags == kLockFlagValue) {
            v.isMutex = true;
        } else {
            QString error;
            v.doc = LockDocument::parse(v.lock->value, &error);
            if (!v.doc)
                v.lockError = error;
        }
    }
    return v;
}

const KvEntry *PrefixView::contender(const QString &sid) const {
    for (const auto &c : contenders) {
        if (c.key.endsWith(QLatin1Char('/') + sid))
            return &c;
    }
    return nullptr;
}

QStringList PrefixView::liveHolders() const {
    QStringList out;
    if (doc) {
        for (const auto &h : doc->holders()) {
            if (alive.contains(h))
                out.append(h);
        }
    }
    return out;
}

QStringList PrefixView::staleHolders() const {
    QStringList out;
    if (doc) {
        for (const auto &h : doc->holders()) {
            if (!alive.contains(h))
                out.append(h);
        }
    }
    return out;
}

namespace {

void addSessionDetails(core::Holder &h, const QString &sid, const QHash<QString, SessionInfo> &sessions) {
    h.details.insert(QStringLiteral("session"), sid);
    const auto it = sessions.constFind(sid);
    if (it == sessions.cend())
        return;
    const SessionInfo &s = it.value();
    h.details.insert(QStringLiteral("sessionName"), s.name);
    h.details.insert(QStringLiteral("node"), s.node);
    h.details.insert(QStringLiteral("ttl"), s.ttl.isEmpty() ? QStringLiteral("-") : s.ttl);
    h.details.insert(QStringLiteral("behavior"), s.behavior);
    h.details.insert(QStringLiteral("lockDelayMs"), s.lockDelayNs / 1'000'000);
    h.details.insert(QStringLiteral("checks"), s.nodeChecks + s.serviceChecks);
}

} // namespace

core::Snapshot buildSnapshot(const core::SemaphoreRef &ref, const PrefixView &view,
                             const QHash<QString, SessionInfo> &sessions) {
    core::Snapshot snap;
    snap.ref = ref;
    snap.serverNowMs = QDateTime::currentMSecsSinceEpoch(); // Consul reports no clock
    snap.details.insert(QStringLiteral("index"), QString::number(view.index));
    if (view.lock) {
        snap.keys.append(view.lock->key);
        snap.version = qint64(view.lock->modifyIndex);
        snap.details.insert(QStringLiteral("flags"), QString::number(view.lock->flags));
        snap.details.insert(QStringLiteral("modifyIndex"), QString::number(view.lock->modifyIndex));
        snap.details.insert(QStringLiteral("lockIndex"), QString::number(view.lock->lockIndex));
    }
    for (const auto &c : view.contenders)
        snap.keys.append(c.key);

    if (view.isMutex || ref.kind == core::Kind::ConsulMutex) {
        snap.limit = 1;
        snap.limitSource = core::LimitSource::Stored;
        if (!view.lock) {
            snap.warnings.append(QStringLiteral("%1 does not exist").arg(view.lockKey()));
            return snap;
        }
        if (!view.isMutex)
            snap.warnings.append(QStringLiteral("%1 has flags %2, not the consul lock flags %3")
                                     .arg(view.lockKey())
                                     .arg(view.lock->flags)
                                     .arg(kLockFlagValue));
        if (ref.kind == core::Kind::Consul)
            snap.warnings.append(QStringLiteral("this is a `consul lock -n 1` mutex, not a semaphore"));
        snap.details.insert(QStringLiteral("dialect"), QStringLiteral("mutex"));
        snap.counter = qint64(view.lock->lockIndex);
        if (!view.lock->session.isEmpty()) {
            core::Holder h;
            h.id = view.lock->session;
            h.rawId = h.id.toUtf8();
            h.rank = 0;
            h.token = qint64(view.lock->lockIndex);
            h.state = core::HolderState::Live; // Consul clears Session the moment it is invalidated
            addSessionDetails(h, h.id, sessions);
            snap.holders.append(h);
        }
        return snap;
    }

    if (view.lock && !view.doc) {
        snap.warnings.append(QStringLiteral("%1: %2").arg(view.lockKey(), view.lockError));
    }
    if (view.doc) {
        snap.limit = view.doc->limit();
        snap.limitSource = core::LimitSource::Stored;
        snap.details.insert(QStringLiteral("dialect"), view.doc->dialectName());
        if (ref.profile.limit && *ref.profile.limit != view.doc->limit())
            snap.warnings.append(QStringLiteral("semaphore limit conflict (lock: %1, local: %2)")
                                     .arg(view.doc->limit())
                                     .arg(*ref.profile.limit));
        if (view.doc->dialect() == LockDocument::Dialect::GoMap && view.lock->flags != kSemaphoreFlagValue)
            snap.warnings.append(QStringLiteral(".lock flags are %1, not %2: Go API clients will refuse it "
                                                "(\"Existing key does not match semaphore use\")")
                                     .arg(view.lock->flags)
                                     .arg(kSemaphoreFlagValue));
    } else {
        core::applyProfileLimit(snap, ref.profile);
    }
    if (!view.lock && !view.contenders.isEmpty())
        snap.warnings.append(QStringLiteral("contender keys but no .lock: never acquired, or destroyed"));

    // Holders: list order for array dialects; contender CreateIndex for the map (which keeps no order).
    QStringList holders = view.doc ? view.doc->holders() : QStringList();
    if (view.doc && view.doc->container() == LockDocument::Container::Object) {
        std::stable_sort(holders.begin(), holders.end(), [&view](const QString &a, const QString &b) {
            const KvEntry *ca = view.contender(a);
            const KvEntry *cb = view.contender(b);
            const quint64 ia = ca ? ca->createIndex : std::numeric_limits<quint64>::max();
            const quint64 ib = cb ? cb->createIndex : std::numeric_limits<quint64>::max();
            return ia < ib;
        });
    }
    QSet<QString> seen;
    qint64 live = 0;
    const qint64 limit = snap.limit.value_or(std::numeric_limits<qint64>::max());
    for (int i = 0; i < holders.size(); ++i) {
        const QString &sid = holders[i];
        core::Holder h;
        h.id = sid;
        h.rawId = sid.toUtf8();
        h.rank = i;
        if (seen.contains(sid))
            snap.warnings.append(QStringLiteral("holder %1 is listed twice").arg(sid));
        seen.insert(sid);
        if (const KvEntry *c = view.contender(sid)) {
            h.token = qint64(c->createIndex);
            h.details.insert(QStringLiteral("contenderKey"), c->key);
            h.details.insert(QStringLiteral("contenderModifyIndex"), QString::number(c->modifyIndex));
        }
        if (!view.alive.contains(sid)) {
            h.state = core::HolderState::Stale;
            h.details.insert(QStringLiteral("why"),
                             QStringLiteral("session gone (no key under the prefix carries it)"));
        } else if (live++ >= limit) {
            h.state = core::HolderState::OverLimit;
        }
        addSessionDetails(h, sid, sessions);
        snap.holders.append(h);
    }
    if (live > limit)
        snap.warnings.append(QStringLiteral("%1 live holders for a limit of %2").arg(live).arg(limit));
    const qint64 stale = snap.countInState(core::HolderState::Stale);
    if (stale > 0)
        snap.warnings.append(
            QStringLiteral("%1 in .lock: %2 gone; the next acquire or a purge prunes %3")
                .arg(core::countText(stale, QStringLiteral("stale holder"), QStringLiteral("stale holders")),
                     core::forCount(stale, QStringLiteral("its session is"),
                                    QStringLiteral("their sessions are")),
                     core::forCount(stale, QStringLiteral("it"), QStringLiteral("them"))));

    for (const auto &c : view.contenders) {
        const QString sid = c.key.section(QLatin1Char('/'), -1);
        if (seen.contains(sid))
            continue;
        core::Holder h;
        h.id = sid;
        h.rawId = sid.toUtf8();
        h.token = qint64(c.createIndex);
        h.details.insert(QStringLiteral("contenderKey"), c.key);
        h.details.insert(QStringLiteral("contenderModifyIndex"), QString::number(c.modifyIndex));
        if (c.session.isEmpty()) {
            h.state = core::HolderState::Orphan;
            h.details.insert(QStringLiteral("why"), QStringLiteral("contender key without a session"));
        } else {
            h.state = core::HolderState::Waiting;
            addSessionDetails(h, c.session, sessions);
        }
        snap.holders.append(h);
    }
    return snap;
}

} // namespace semscope::consul
