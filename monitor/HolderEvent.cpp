#include "HolderEvent.h"

#include "core/Duration.h"

#include <QDateTime>
#include <QJsonValue>

namespace semscope::monitor {

namespace {

QJsonValue optionalJson(const std::optional<qint64> &v) {
    return v ? QJsonValue(double(*v)) : QJsonValue(QJsonValue::Null);
}

} // namespace

QStringList allEventNames() {
    return {events::Acquired, events::Released,    events::Expired,   events::ForceReleased,
            events::Removed,  events::Stale,       events::OverLimit, events::LimitChanged,
            events::Appeared, events::Disappeared, events::Waiting};
}

QJsonObject toJson(const HolderEvent &e) {
    return QJsonObject{
        {QStringLiteral("at_ms"), double(e.atMs)},
        {QStringLiteral("event"), e.event},
        {QStringLiteral("kind"), core::kindName(e.ref.kind)},
        {QStringLiteral("name"), e.ref.name},
        {QStringLiteral("holder"), e.holder.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(e.holder)},
        {QStringLiteral("token"), optionalJson(e.token)},
        {QStringLiteral("slot"), optionalJson(e.slot)},
        {QStringLiteral("ttl_ms"), optionalJson(e.ttlMs)},
        {QStringLiteral("details"), e.details},
    };
}

QString toText(const HolderEvent &e) {
    QString line = QDateTime::fromMSecsSinceEpoch(e.atMs).toString(QStringLiteral("HH:mm:ss.zzz")) +
                   QLatin1Char(' ') + e.event + QLatin1Char(' ') + core::kindName(e.ref.kind) +
                   QLatin1Char(':') + e.ref.name;
    if (!e.holder.isEmpty())
        line += QStringLiteral(" holder=") + e.holder;
    if (e.token)
        line += QStringLiteral(" token=") + QString::number(*e.token);
    if (e.slot)
        line += QStringLiteral(" slot=") + QString::number(*e.slot);
    if (e.ttlMs)
        line += QStringLiteral(" ttl=") + core::formatDurationMs(*e.ttlMs);
    if (!e.details.isEmpty())
        line += QStringLiteral("  ") + e.details;
    return line;
}

} // namespace semscope::monitor
