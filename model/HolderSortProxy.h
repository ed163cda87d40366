#pragma once

#include <QAbstractProxyModel>
#include <QItemSelection>

namespace semscope::model {

// Sorts the holder table. Not a QSortFilterProxyModel: that one sorts through a virtual lessThan()
// on freshly made QModelIndexes (about 130,000 of them for 10,000 rows, the largest cost of the
// first read of a big semaphore) and offers no cheap way to check its order. This proxy keeps the
// row order as two plain arrays, sorts on keys read once per row (numeric columns through
// HolderTableModel::numericSortKey, text columns through SortRole), and never re-sorts on its own:
// the page calls resortIfNeeded() after each snapshot, which checks the order in one pass and
// sorts only when a holder moved. Newcomers are appended at the end until then.
class HolderSortProxy : public QAbstractProxyModel {
    Q_OBJECT
public:
    explicit HolderSortProxy(QObject *parent = nullptr);

    void setSourceModel(QAbstractItemModel *source) override;
    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    QModelIndex sibling(int row, int column, const QModelIndex &idx) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    bool hasChildren(const QModelIndex &parent = {}) const override;
    QModelIndex mapToSource(const QModelIndex &proxyIndex) const override;
    QModelIndex mapFromSource(const QModelIndex &sourceIndex) const override;
    QItemSelection mapSelectionToSource(const QItemSelection &selection) const override;
    QItemSelection mapSelectionFromSource(const QItemSelection &selection) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

    int sortColumn() const { return m_sortColumn; }
    Qt::SortOrder sortOrder() const { return m_sortOrder; }
    // Sorts again when the rows are out of order (after a snapshot moved or added some); true
    // when it sorted. One pass over the rows when nothing moved.
    bool resortIfNeeded();

private:
    struct Keys;
    // Keys of the source rows first..last (all by default); the others are left empty.
    Keys sortKeys(int first = 0, int last = -1) const;
    QList<int> sortedOrder(const Keys &keys) const;
    void applyOrder(QList<int> order);
    void rebuild();
    void ensureFromSource() const;
    void sourceRowsAboutToBeRemoved(const QModelIndex &parent, int first, int last);
    void sourceRowsRemoved(const QModelIndex &parent, int first, int last);
    void sourceRowsInserted(const QModelIndex &parent, int first, int last);
    void sourceDataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight,
                           const QList<int> &roles);

    QList<int> m_toSource;           // proxy row -> source row
    mutable QList<int> m_fromSource; // source row -> proxy row (rebuilt when needed)
    mutable bool m_fromSourceDirty = true;
    int m_sortColumn = -1;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
    QList<QMetaObject::Connection> m_connections;
};

} // namespace semscope::model
