#include "SeenSemaphores.h"

namespace semscope::model {

QString SeenSemaphores::keyOf(const core::SemaphoreRef &ref) {
    return core::kindName(ref.kind) + QLatin1Char('\x1f') + ref.name;
}

void SeenSemaphores::load(const QList<monitor::SeenSemaphore> &seen) {
    for (const monitor::SeenSemaphore &s : seen) {
        if (m_forgotten.contains(keyOf(s.ref)))
            continue;
        monitor::SeenSemaphore &mine = m_seen[keyOf(s.ref)];
        if (mine.lastSeenMs == 0) {
            mine = s;
            continue;
        }
        // A scan of this session came first: keep the earliest first sighting and the latest last.
        mine.firstSeenMs = qMin(mine.firstSeenMs, s.firstSeenMs);
        mine.lastSeenMs = qMax(mine.lastSeenMs, s.lastSeenMs);
    }
}

SeenSemaphores::Outcome SeenSemaphores::afterScan(const QList<core::SemaphoreRef> &present, qint64 nowMs) {
    QSet<QString> found;
    for (const core::SemaphoreRef &ref : present) {
        const QString key = keyOf(ref);
        found.insert(key);
        m_forgotten.remove(key);
        monitor::SeenSemaphore &s = m_seen[key];
        if (s.lastSeenMs == 0) {
            s.ref.kind = ref.kind;
            s.ref.name = ref.name;
            s.firstSeenMs = nowMs;
        }
        s.lastSeenMs = qMax(s.lastSeenMs, nowMs);
    }
    Outcome out;
    for (auto it = m_seen.begin(); it != m_seen.end();) {
        if (found.contains(it.key())) {
            ++it;
            continue;
        }
        if (expired(it->lastSeenMs, nowMs)) {
            out.expired << it->ref;
            it = m_seen.erase(it);
            continue;
        }
        out.empty << *it;
        ++it;
    }
    return out;
}

void SeenSemaphores::forget(const core::SemaphoreRef &ref) {
    m_seen.remove(keyOf(ref));
    m_forgotten.insert(keyOf(ref));
}

bool SeenSemaphores::contains(const core::SemaphoreRef &ref) const {
    return m_seen.contains(keyOf(ref));
}

} // namespace semscope::model
