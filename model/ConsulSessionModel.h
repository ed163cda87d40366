#pragma once

#include "ConsulSessionEntry.h"

#include <QAbstractTableModel>
#include <QHash>

namespace semscope::model {

// Every Consul session of one connection, one row each, fed whole lists of value snapshots
// (SessionEntry) by the sessions window's periodic read. A new list is merged by session ID, so
// rows that stay keep their place and the selection an operator made survives a refresh.
class ConsulSessionModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        NodeColumn,
        HoldsColumn,
        TtlColumn,
        BehaviorColumn,
        LockDelayColumn,
        ChecksColumn,
        IdColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1, // numbers for TTL, lock delay and holdings; text otherwise
        SessionIdRole,               // QString
        SearchTextRole,              // name, node, ID, checks and held semaphores, for the filter
    };

    explicit ConsulSessionModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Replaces the list: sessions no longer there are removed, the others updated in place, new
    // ones appended.
    void setSessions(const QList<SessionEntry> &sessions);
    void clear();

    int rowOf(const QString &sessionId) const { return m_index.value(sessionId, -1); }
    const SessionEntry *entryAt(int row) const;

    // One line per session, tab-separated like the columns, for the clipboard.
    QString rowText(int row) const;

private:
    QVariant display(const SessionEntry &e, int column) const;
    void reindex();

    QList<SessionEntry> m_rows;
    QHash<QString, int> m_index; // session ID -> row
};

} // namespace semscope::model
