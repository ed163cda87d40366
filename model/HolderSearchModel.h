#pragma once

#include "HolderSearch.h"

#include <QAbstractTableModel>

namespace semscope::model {

// The holders a search found, one row each, in the order they came in (the view sorts).
class HolderSearchModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        ConnectionColumn,
        EnvironmentColumn,
        SemaphoreColumn,
        KindColumn,
        HolderColumn,
        SlotColumn,
        TtlColumn,
        StateColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1,
        ConnectionIdRole,
    };

    explicit HolderSearchModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void addMatches(const QList<HolderMatch> &matches);
    void clear();
    const HolderMatch *matchAt(int row) const;
    // Tab-separated like the columns, for the clipboard.
    QString rowText(int row) const;

    // "slot 3 · token 42", "rank 0", "—": where the holder sits and its counter.
    static QString slotText(const core::Holder &holder);

private:
    QVariant display(const HolderMatch &m, int column) const;

    QList<HolderMatch> m_rows;
};

} // namespace semscope::model
