#pragma once

#include "monitor/HolderEvent.h"

#include <QAbstractTableModel>
#include <QList>

namespace semscope::model {

// The events of one semaphore from the history store, newest first, for the History tab: when,
// what, which holder with its token and slot, and — for a departure (released, expired,
// force-released, removed) — how long that holder held, from its `acquired` event in the list.
class HistoryEventModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        TimeColumn,
        EventColumn,
        HolderColumn,
        TokenColumn,
        SlotColumn,
        HeldForColumn,
        DetailsColumn,
        ColumnCount
    };
    // Sort/raw value of a cell (ms since the epoch, ms held), for tests and the CSV.
    static constexpr int RawRole = Qt::UserRole + 1;

    explicit HistoryEventModel(QObject *parent = nullptr);

    // Replaces the rows (newest first, as HistoryStore::events gives them).
    void setEvents(QList<monitor::HolderEvent> events);
    const QList<monitor::HolderEvent> &events() const { return m_events; }
    // How long the holder of row `row` held, for departures whose acquisition is in the list.
    std::optional<qint64> heldForMs(int row) const { return m_heldFor.value(row); }

    // RFC 4180 CSV of every row, oldest first, with a header line: time (ISO 8601, UTC), at_ms,
    // event, kind, name, holder, token, slot, ttl_ms, held_for_ms, details.
    QString toCsv() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QList<monitor::HolderEvent> m_events;
    QList<std::optional<qint64>> m_heldFor;
};

} // namespace semscope::model
