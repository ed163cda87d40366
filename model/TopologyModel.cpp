#include "TopologyModel.h"

#include "StatusColors.h"

#include <QBrush>
#include <QHash>
#include <algorithm>

namespace semscope::model {

using redis::topology::NodeReport;
using redis::topology::TopologyReport;

bool isLinkUp(const QString &link) {
    return link == QLatin1String("online") || link == QLatin1String("up") ||
           link == QLatin1String("connected");
}

namespace {

// A replica's lag in tones; masters have none.
std::optional<Tone> lagTone(const NodeReport &n) {
    if (n.role != QLatin1String("replica"))
        return std::nullopt;
    if (!n.lagBytes || !isLinkUp(n.link))
        return Tone::Bad;
    return *n.lagBytes == 0 ? Tone::Good : Tone::Caution;
}

} // namespace

TopologyModel::TopologyModel(QObject *parent)
    : QAbstractTableModel(parent) {}

int TopologyModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_report.nodes.size());
}

int TopologyModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TopologyModel::display(const NodeReport &n, int column) const {
    switch (column) {
    case AddressColumn:
        return n.address;
    case RoleColumn:
        return n.role;
    case MasterColumn:
        return n.master;
    case SlotsColumn:
        return n.slotRanges;
    case SemaphoresColumn:
        if (n.role != QLatin1String("master"))
            return QString();
        return semaphoresServedBy(n);
    case LinkColumn:
        return n.link;
    case OffsetColumn:
        return n.replicationOffset >= 0 ? QVariant(n.replicationOffset) : QVariant(QString());
    case LagBytesColumn:
        if (n.role != QLatin1String("replica"))
            return QString();
        return n.lagBytes ? QVariant(redis::topology::byteSize(*n.lagBytes)) : QVariant(tr("unknown"));
    case LagSecondsColumn:
        if (n.role != QLatin1String("replica"))
            return QString();
        return n.lagSeconds ? QVariant(tr("%1 s").arg(*n.lagSeconds)) : QVariant(tr("unknown"));
    case ErrorColumn:
        return n.error;
    }
    return {};
}

QVariant TopologyModel::data(const QModelIndex &index, int role) const {
    if (!index.isValid() || index.row() >= m_report.nodes.size() || index.column() >= ColumnCount)
        return {};
    const NodeReport &n = m_report.nodes.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return display(n, index.column());
    case Qt::ToolTipRole:
        if (n.role == QLatin1String("replica") &&
            (index.column() == LagBytesColumn || index.column() == LagSecondsColumn ||
             index.column() == AddressColumn))
            return redis::topology::replicaLagSentence(n);
        if (index.column() == ErrorColumn && !n.error.isEmpty())
            return n.error;
        return {};
    case Qt::ForegroundRole: {
        if (index.column() == ErrorColumn && !n.error.isEmpty())
            return QBrush(toneText(Tone::Bad));
        if (index.column() == LinkColumn && !n.link.isEmpty() && !isLinkUp(n.link))
            return QBrush(toneText(Tone::Bad));
        if (index.column() == LagBytesColumn || index.column() == LagSecondsColumn) {
            if (const auto tone = lagTone(n))
                return QBrush(toneText(*tone));
        }
        return {};
    }
    case Qt::TextAlignmentRole:
        if (index.column() == OffsetColumn || index.column() == LagBytesColumn ||
            index.column() == LagSecondsColumn || index.column() == SemaphoresColumn)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case SortRole:
        switch (index.column()) {
        case OffsetColumn:
            return n.replicationOffset;
        case LagBytesColumn:
            return n.lagBytes ? *n.lagBytes : qint64(-1);
        case LagSecondsColumn:
            return n.lagSeconds ? *n.lagSeconds : qint64(-1);
        default:
            return display(n, index.column());
        }
    case AddressRole:
        return n.address;
    }
    return {};
}

QVariant TopologyModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    static const char *const names[ColumnCount] = {"Address", "Role",   "Master", "Slots",    "Semaphores",
                                                   "Link",    "Offset", "Lag",    "Last ack", "Error"};
    static const char *const tips[ColumnCount] = {
        "host:port of the node",
        "master or replica",
        "the master a replica copies",
        "Cluster: the hash slots a master serves",
        "how many of the semaphores listed on this connection a master serves (a failover of this "
        "master touches them)",
        "a master's health in the cluster; a replica's link as its master sees it",
        "replication offset: bytes of the replication stream this node has",
        "bytes the replica lacks: the master's offset minus the replica's. An acquire made in that "
        "window is not on the replica yet; a failover now would lose it",
        "seconds since the replica last acknowledged its offset",
        "why this node could not be asked"};
    if (role == Qt::DisplayRole)
        return tr(names[section]);
    if (role == Qt::ToolTipRole)
        return tr(tips[section]);
    return {};
}

void TopologyModel::setReport(const TopologyReport &report) {
    // Same nodes in the same order: update in place (selection and scroll stay).
    bool sameRows = report.nodes.size() == m_report.nodes.size();
    for (qsizetype i = 0; sameRows && i < report.nodes.size(); ++i)
        sameRows = report.nodes.at(i).address == m_report.nodes.at(i).address;
    if (sameRows) {
        m_report = report;
        if (!m_report.nodes.isEmpty())
            Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
        return;
    }
    beginResetModel();
    m_report = report;
    endResetModel();
}

void TopologyModel::setSemaphoreSlots(const QList<int> &hashSlots) {
    if (hashSlots == m_semaphoreSlots)
        return;
    m_semaphoreSlots = hashSlots;
    if (!m_report.nodes.isEmpty())
        Q_EMIT dataChanged(index(0, SemaphoresColumn), index(rowCount() - 1, SemaphoresColumn));
}

int TopologyModel::semaphoresServedBy(const NodeReport &master) const {
    if (master.ranges.isEmpty())
        return int(m_semaphoreSlots.size()); // one master serves every key
    return int(std::count_if(m_semaphoreSlots.cbegin(), m_semaphoreSlots.cend(), [&master](int slot) {
        return std::any_of(master.ranges.cbegin(), master.ranges.cend(),
                           [slot](const QPair<int, int> &r) { return slot >= r.first && slot <= r.second; });
    }));
}

void TopologyModel::clear() {
    setReport({});
}

int TopologyModel::rowOf(const QString &address) const {
    for (qsizetype i = 0; i < m_report.nodes.size(); ++i) {
        if (m_report.nodes.at(i).address == address)
            return int(i);
    }
    return -1;
}

} // namespace semscope::model
