#include "SnapshotDiff.h"

#include <QHash>

namespace semscope::monitor {

using core::Holder;
using core::HolderState;
using core::Snapshot;

namespace {

QString limitText(const std::optional<qint64> &limit) {
    return limit ? QString::number(*limit) : QStringLiteral("unknown");
}

class EventBuilder {
public:
    EventBuilder(const Snapshot &current, qint64 nowMs)
        : m_current(current)
        , m_nowMs(nowMs) {}

    void semaphore(const QString &event, const QString &details) {
        HolderEvent e;
        e.atMs = m_nowMs;
        e.event = event;
        e.ref = m_current.ref;
        e.details = details;
        m_events << e;
    }

    void holder(const QString &event, const Holder &h, const QString &details = {}) {
        HolderEvent e;
        e.atMs = m_nowMs;
        e.event = event;
        e.ref = m_current.ref;
        e.holder = h.id;
        e.token = h.token;
        e.slot = h.slot;
        if (m_current.serverNowMs > 0)
            e.ttlMs = h.ttlMs(m_current.serverNowMs);
        e.details = details;
        m_events << e;
    }

    // A holder's state as an event, when the state is worth one.
    void state(const Holder &h) {
        switch (h.state) {
        case HolderState::ExpiredPresent:
            holder(events::Expired, h, QStringLiteral("lease ran out; the record is still there"));
            break;
        case HolderState::Stale:
            holder(events::Stale, h, staleDetails(h));
            break;
        case HolderState::OverLimit:
            holder(events::OverLimit, h, overLimitDetails());
            break;
        default:
            break;
        }
    }

    QList<HolderEvent> take() { return std::move(m_events); }

private:
    static QString staleDetails(const Holder &h) {
        if (h.details.value(QStringLiteral("stuck")).toBool())
            return QStringLiteral("held longer than the stuck threshold; its client may have crashed");
        return QStringLiteral("its owner is gone");
    }
    QString overLimitDetails() const {
        return QStringLiteral("%1 used of limit %2")
            .arg(m_current.usedCount())
            .arg(limitText(m_current.limit));
    }

    const Snapshot &m_current;
    qint64 m_nowMs;
    QList<HolderEvent> m_events;
};

bool ownerWasGone(HolderState s) {
    return s == HolderState::ExpiredPresent || s == HolderState::Stale;
}

} // namespace

QByteArray holderKey(const Holder &holder) {
    return holder.rawId.isEmpty() ? holder.id.toUtf8() : holder.rawId;
}

QList<HolderEvent> diffSnapshots(const Snapshot *previous, const Snapshot &current, qint64 nowMs) {
    return diffSnapshots(previous, current, nowMs, {});
}

QList<HolderEvent> diffSnapshots(const Snapshot *previous, const Snapshot &current, qint64 nowMs,
                                 const QSet<QString> &forceReleased) {
    EventBuilder out(current, nowMs);
    if (!previous) {
        out.semaphore(
            events::Appeared,
            QStringLiteral("limit %1, %2 used").arg(limitText(current.limit)).arg(current.usedCount()));
        for (const Holder &h : current.holders)
            out.state(h);
        return out.take();
    }

    if (previous->limit != current.limit)
        out.semaphore(
            events::LimitChanged,
            QStringLiteral("limit %1 → %2").arg(limitText(previous->limit), limitText(current.limit)));

    // Why a holder no longer holds, from what is known of it.
    const auto departure = [&](const Holder &p) {
        if (forceReleased.contains(p.id)) {
            out.holder(events::ForceReleased, p, QStringLiteral("force-released by a semscope operator"));
        } else if (ownerWasGone(p.state)) {
            const QString state = core::holderStateName(p.state);
            const bool vowel = QStringLiteral("aeiou").contains(state.at(0)); // "an expired", "a stale"
            out.holder(events::Removed, p,
                       QStringLiteral("the record of %1 %2 holder was cleared")
                           .arg(vowel ? QStringLiteral("an") : QStringLiteral("a"), state));
        } else if (p.expiresAtMs && current.serverNowMs > 0 && *p.expiresAtMs <= current.serverNowMs) {
            out.holder(events::Expired, p, QStringLiteral("lease ran out"));
        } else {
            out.holder(events::Released, p);
        }
    };

    QHash<QByteArray, const Holder *> before;
    for (const Holder &h : previous->holders)
        before.insert(holderKey(h), &h); // a duplicated id keeps its last record, as now does below
    QSet<QByteArray> seenNow;
    for (const Holder &h : current.holders) {
        const QByteArray key = holderKey(h);
        seenNow.insert(key);
        const Holder *p = before.value(key);
        if (!p) {
            if (h.state == HolderState::Waiting) {
                out.holder(events::Waiting, h,
                           h.placeInLine() ? QStringLiteral("place %1 in line").arg(*h.placeInLine())
                                           : QString());
            } else if (h.occupiesSlot()) {
                out.holder(events::Acquired, h);
                out.state(h);
            }
            continue;
        }
        if (!h.occupiesSlot()) {
            // Still listed but no longer holding (a Consul holder force-released out of `.lock` keeps
            // its contender key): its slot went like a departure, then it waits.
            if (p->occupiesSlot())
                departure(*p);
            if (h.state == HolderState::Waiting && p->state != HolderState::Waiting)
                out.holder(events::Waiting, h);
            continue;
        }
        if (!p->occupiesSlot()) {
            out.holder(events::Acquired, h,
                       p->state == HolderState::Waiting ? QStringLiteral("after waiting") : QString());
            out.state(h);
            continue;
        }
        const bool tokenChanged = p->token && h.token && *p->token != *h.token;
        const bool slotChanged = p->slot && h.slot && *p->slot != *h.slot;
        if (tokenChanged || slotChanged) {
            out.holder(events::Acquired, h,
                       tokenChanged ? QStringLiteral("again (was token %1)").arg(*p->token)
                                    : QStringLiteral("again (was slot %1)").arg(*p->slot));
            out.state(h);
            continue;
        }
        if (h.state != p->state)
            out.state(h);
    }

    for (const Holder &p : previous->holders) {
        const QByteArray key = holderKey(p);
        if (seenNow.contains(key) || !p.occupiesSlot())
            continue;
        seenNow.insert(key); // a duplicated id is reported once
        departure(p);
    }
    return out.take();
}

HolderEvent disappearedEvent(const core::SemaphoreRef &ref, qint64 nowMs) {
    HolderEvent e;
    e.atMs = nowMs;
    e.event = events::Disappeared;
    e.ref = ref;
    e.details = QStringLiteral("no longer found by discovery");
    return e;
}

} // namespace semscope::monitor
