#include "HistoryEventModel.h"

#include "core/Duration.h"

#include <QColor>
#include <QDateTime>
#include <QHash>

namespace semscope::model {

using monitor::HolderEvent;
namespace events = monitor::events;

namespace {

bool isDeparture(const QString &event) {
    return event == events::Released || event == events::Expired || event == events::ForceReleased ||
           event == events::Removed;
}

QString csvField(const QString &text) {
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) &&
        !text.contains(QLatin1Char('\n')) && !text.contains(QLatin1Char('\r')))
        return text;
    QString quoted = text;
    quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QString optionalText(const std::optional<qint64> &v) {
    return v ? QString::number(*v) : QString();
}

} // namespace

HistoryEventModel::HistoryEventModel(QObject *parent)
    : QAbstractTableModel(parent) {}

void HistoryEventModel::setEvents(QList<HolderEvent> list) {
    beginResetModel();
    m_events = std::move(list);
    m_heldFor = QList<std::optional<qint64>>(m_events.size());
    // Walk oldest to newest: an `acquired` opens a hold, the holder's next departure closes it. An
    // expiry seen while the record stays and its later removal are one hold: the first departure
    // counts.
    QHash<QString, qint64> openSince;
    for (qsizetype i = m_events.size() - 1; i >= 0; --i) {
        const HolderEvent &e = m_events.at(i);
        if (e.holder.isEmpty())
            continue;
        if (e.event == events::Acquired) {
            openSince.insert(e.holder, e.atMs);
        } else if (isDeparture(e.event)) {
            const auto it = openSince.constFind(e.holder);
            if (it != openSince.constEnd()) {
                m_heldFor[i] = e.atMs - *it;
                openSince.remove(e.holder);
            }
        }
    }
    endResetModel();
}

int HistoryEventModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_events.size());
}

int HistoryEventModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant HistoryEventModel::data(const QModelIndex &index, int role) const {
    if (!index.isValid() || index.row() >= m_events.size())
        return {};
    const HolderEvent &e = m_events.at(index.row());
    const std::optional<qint64> held = m_heldFor.value(index.row());
    if (role == RawRole) {
        switch (index.column()) {
        case TimeColumn:
            return e.atMs;
        case TokenColumn:
            return e.token ? QVariant(*e.token) : QVariant();
        case SlotColumn:
            return e.slot ? QVariant(*e.slot) : QVariant();
        case HeldForColumn:
            return held ? QVariant(*held) : QVariant();
        default:
            return data(index, Qt::DisplayRole);
        }
    }
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case TimeColumn:
            return QDateTime::fromMSecsSinceEpoch(e.atMs).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
        case EventColumn:
            return e.event;
        case HolderColumn:
            return e.holder;
        case TokenColumn:
            return optionalText(e.token);
        case SlotColumn:
            return optionalText(e.slot);
        case HeldForColumn:
            return held ? core::formatDurationMs(*held) : QString();
        case DetailsColumn:
            return e.details;
        }
    }
    if (role == Qt::ToolTipRole && index.column() == DetailsColumn && !e.details.isEmpty())
        return e.details;
    if (role == Qt::ForegroundRole && index.column() == EventColumn) {
        if (e.event == events::Stale || e.event == events::OverLimit || e.event == events::ForceReleased)
            return QColor(0x9b, 0x1c, 0x1c);
        if (e.event == events::Expired || e.event == events::Removed)
            return QColor(0x8a, 0x5a, 0x00);
    }
    if (role == Qt::TextAlignmentRole &&
        (index.column() == TokenColumn || index.column() == SlotColumn || index.column() == HeldForColumn))
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant HistoryEventModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case EventColumn:
        return tr("Event");
    case HolderColumn:
        return tr("Holder");
    case TokenColumn:
        return tr("Token");
    case SlotColumn:
        return tr("Slot");
    case HeldForColumn:
        return tr("Held for");
    case DetailsColumn:
        return tr("Details");
    }
    return {};
}

QString HistoryEventModel::toCsv() const {
    QString out =
        QStringLiteral("time,at_ms,event,kind,name,holder,token,slot,ttl_ms,held_for_ms,details\r\n");
    for (qsizetype i = m_events.size() - 1; i >= 0; --i) {
        const HolderEvent &e = m_events.at(i);
        const QStringList fields{
            QDateTime::fromMSecsSinceEpoch(e.atMs, Qt::UTC).toString(Qt::ISODateWithMs),
            QString::number(e.atMs),
            e.event,
            core::kindName(e.ref.kind),
            e.ref.name,
            e.holder,
            optionalText(e.token),
            optionalText(e.slot),
            optionalText(e.ttlMs),
            optionalText(m_heldFor.value(i)),
            e.details,
        };
        QStringList quoted;
        for (const QString &f : fields)
            quoted << csvField(f);
        out += quoted.join(QLatin1Char(',')) + QStringLiteral("\r\n");
    }
    return out;
}

} // namespace semscope::model
