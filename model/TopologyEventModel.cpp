#include "TopologyEventModel.h"

#include "StatusColors.h"

#include <QBrush>
#include <QDateTime>

namespace semscope::model {

using core::TopologyEvent;

TopologyEventModel::TopologyEventModel(QObject *parent)
    : QAbstractTableModel(parent) {}

int TopologyEventModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_events.size());
}

int TopologyEventModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TopologyEventModel::data(const QModelIndex &index, int role) const {
    if (!index.isValid() || index.row() >= m_events.size() || index.column() >= ColumnCount)
        return {};
    const TopologyEvent &e = m_events.at(index.row());
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case TimeColumn:
            return QDateTime::fromMSecsSinceEpoch(e.timeMs).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
        case KindColumn:
            return core::topologyEventKindName(e.kind);
        case TextColumn:
            return e.text;
        }
    }
    if (role == Qt::ToolTipRole && index.column() == TextColumn)
        return e.text;
    if (role == Qt::ForegroundRole && index.column() == KindColumn) {
        switch (e.kind) {
        case TopologyEvent::Kind::FailoverStarted:
        case TopologyEvent::Kind::MasterSwitched:
        case TopologyEvent::Kind::NodeDown:
            return QBrush(toneText(Tone::Bad));
        case TopologyEvent::Kind::MapChanged:
        case TopologyEvent::Kind::FailoverAborted:
            return QBrush(toneText(Tone::Caution));
        case TopologyEvent::Kind::MasterFound:
            return {};
        }
    }
    return {};
}

QVariant TopologyEventModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case KindColumn:
        return tr("Event");
    case TextColumn:
        return tr("What happened");
    }
    return {};
}

void TopologyEventModel::setEvents(const QList<TopologyEvent> &events) {
    beginResetModel();
    m_events.clear();
    for (auto it = events.crbegin(); it != events.crend() && m_events.size() < kMaxEvents; ++it) {
        if (core::isFailoverEvent(*it))
            m_events << *it;
    }
    endResetModel();
}

void TopologyEventModel::add(const TopologyEvent &event) {
    if (!core::isFailoverEvent(event))
        return;
    if (m_events.size() >= kMaxEvents) {
        beginRemoveRows({}, int(m_events.size()) - 1, int(m_events.size()) - 1);
        m_events.removeLast();
        endRemoveRows();
    }
    beginInsertRows({}, 0, 0);
    m_events.prepend(event);
    endInsertRows();
}

} // namespace semscope::model
