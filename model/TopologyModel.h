#pragma once

#include "redis/topology/TopologyReport.h"

#include <QAbstractTableModel>

namespace semscope::model {

// The nodes of one connection's deployment (the Topology window's table), one row per node in the
// report's order (Cluster: each master, then its replicas). A new report with the same nodes in the
// same order updates the rows in place (selection and scroll stay); any other resets the table. Lag cells are
// coloured (StatusColors): in step is good, behind is caution, a broken link or an unknown lag is bad.
class TopologyModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        AddressColumn,
        RoleColumn,
        MasterColumn,
        SlotsColumn,
        SemaphoresColumn, // masters: how many of the connection's listed semaphores it serves
        LinkColumn,
        OffsetColumn,
        LagBytesColumn,
        LagSecondsColumn,
        ErrorColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1, // numbers for offset and lags (-1 when unknown), text otherwise
        AddressRole,                 // QString host:port
    };

    explicit TopologyModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void setReport(const redis::topology::TopologyReport &report);
    // The hash slots of the connection's listed semaphores (SemaphoreListModel::listedSlots): a
    // Cluster master counts those in its ranges; the one master of any other deployment all of them.
    void setSemaphoreSlots(const QList<int> &hashSlots);
    void clear();
    const redis::topology::TopologyReport &report() const { return m_report; }
    int rowOf(const QString &address) const;

private:
    QVariant display(const redis::topology::NodeReport &n, int column) const;
    int semaphoresServedBy(const redis::topology::NodeReport &master) const;

    redis::topology::TopologyReport m_report;
    QList<int> m_semaphoreSlots;
};

// Whether a replica's link is up: "online" in INFO replication, "connected" from a replica itself.
bool isLinkUp(const QString &link);

} // namespace semscope::model
