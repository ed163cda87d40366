#include "ClientLiveness.h"

#include "Duration.h"

#include <QDateTime>
#include <QObject>

namespace semscope::core {

QString livenessSummary(const ClientLiveness &l, qint64 nowMs) {
    const bool consul = l.source == ClientLiveness::Source::ConsulNodeChecks;
    switch (l.state) {
    case ClientLiveness::State::Connected:
        return consul ? QObject::tr("node's checks passing") : QObject::tr("client connected");
    case ClientLiveness::State::Gone: {
        const QString what = consul ? QObject::tr("checks failing") : QObject::tr("client gone");
        if (!l.goneSinceMs)
            return what;
        // The local time of day is what an operator compares with their own logs; the age says
        // at a glance whether it is news.
        const QString at =
            QDateTime::fromMSecsSinceEpoch(*l.goneSinceMs).toString(QStringLiteral("HH:mm:ss"));
        const QString age = formatDurationMs(std::max<qint64>(0, nowMs - *l.goneSinceMs));
        if (l.sinceFirstLook)
            return QObject::tr("%1 (already when semscope first looked, at %2, %3 ago)").arg(what, at, age);
        return QObject::tr("%1 since %2 (%3)").arg(what, at, age);
    }
    case ClientLiveness::State::Unknown:
        break;
    }
    return l.evidence.isEmpty() ? QObject::tr("cannot tell") : QObject::tr("cannot tell: %1").arg(l.evidence);
}

} // namespace semscope::core
