#pragma once

#include "core/TopologyEvent.h"

#include <QAbstractTableModel>

namespace semscope::model {

// Failovers and other topology events of one connection, newest first: the Topology window's and
// the Replication tab's event list. Filled from ConnectionController::topologyEvents() and kept
// up to date by its topologyEvent() signal (follow()).
class TopologyEventModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { TimeColumn, KindColumn, TextColumn, ColumnCount };

    explicit TopologyEventModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Replaces the list (events oldest first, as the controller keeps them).
    void setEvents(const QList<core::TopologyEvent> &events);
    // Adds one at the top (MasterFound is state, not news: ignored).
    void add(const core::TopologyEvent &event);
    const core::TopologyEvent &eventAt(int row) const { return m_events.at(row); }

    static constexpr int kMaxEvents = 200;

private:
    QList<core::TopologyEvent> m_events; // newest first
};

} // namespace semscope::model
