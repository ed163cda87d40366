#include "HolderSortProxy.h"

#include "HolderTableModel.h"

#include <algorithm>

namespace semscope::model {

// The sort key of every source row for the sort column, read once: numbers for the numeric
// columns of a HolderTableModel, SortRole values for the others.
struct HolderSortProxy::Keys {
    bool numeric = false;
    QList<qint64> numbers;
    QList<QVariant> values;

    bool less(int a, int b) const {
        if (numeric)
            return numbers.at(a) < numbers.at(b);
        return QVariant::compare(values.at(a), values.at(b)) == QPartialOrdering::Less;
    }
};

HolderSortProxy::HolderSortProxy(QObject *parent)
    : QAbstractProxyModel(parent) {}

void HolderSortProxy::setSourceModel(QAbstractItemModel *source) {
    beginResetModel();
    for (const auto &c : std::as_const(m_connections))
        disconnect(c);
    m_connections.clear();
    QAbstractProxyModel::setSourceModel(source);
    if (source) {
        m_connections = {
            connect(source, &QAbstractItemModel::rowsAboutToBeRemoved, this,
                    &HolderSortProxy::sourceRowsAboutToBeRemoved),
            connect(source, &QAbstractItemModel::rowsRemoved, this, &HolderSortProxy::sourceRowsRemoved),
            connect(source, &QAbstractItemModel::rowsInserted, this, &HolderSortProxy::sourceRowsInserted),
            connect(source, &QAbstractItemModel::dataChanged, this, &HolderSortProxy::sourceDataChanged),
            connect(source, &QAbstractItemModel::headerDataChanged, this,
                    &QAbstractItemModel::headerDataChanged),
            connect(source, &QAbstractItemModel::modelAboutToBeReset, this, [this] { beginResetModel(); }),
            connect(source, &QAbstractItemModel::modelReset, this,
                    [this] {
                        rebuild();
                        endResetModel();
                    }),
            // The holder model never moves rows or columns; any other source that does is
            // followed by starting over.
            connect(source, &QAbstractItemModel::layoutAboutToBeChanged, this, [this] { beginResetModel(); }),
            connect(source, &QAbstractItemModel::layoutChanged, this,
                    [this] {
                        rebuild();
                        endResetModel();
                    }),
            connect(source, &QAbstractItemModel::rowsAboutToBeMoved, this, [this] { beginResetModel(); }),
            connect(source, &QAbstractItemModel::rowsMoved, this,
                    [this] {
                        rebuild();
                        endResetModel();
                    }),
            connect(source, &QAbstractItemModel::columnsAboutToBeInserted, this,
                    [this] { beginResetModel(); }),
            connect(source, &QAbstractItemModel::columnsInserted, this, [this] { endResetModel(); }),
            connect(source, &QAbstractItemModel::columnsAboutToBeRemoved, this,
                    [this] { beginResetModel(); }),
            connect(source, &QAbstractItemModel::columnsRemoved, this, [this] { endResetModel(); }),
            // QAbstractProxyModel swaps a destroyed source for an empty model: no rows to map.
            connect(source, &QObject::destroyed, this,
                    [this] {
                        beginResetModel();
                        m_toSource.clear();
                        m_fromSource.clear();
                        m_fromSourceDirty = false;
                        endResetModel();
                    }),
        };
    }
    rebuild();
    endResetModel();
}

void HolderSortProxy::rebuild() {
    const int n = sourceModel() ? sourceModel()->rowCount() : 0;
    m_toSource.resize(n);
    for (int r = 0; r < n; ++r)
        m_toSource[r] = r;
    if (m_sortColumn >= 0 && n > 1)
        m_toSource = sortedOrder(sortKeys());
    m_fromSourceDirty = true;
}

void HolderSortProxy::ensureFromSource() const {
    if (!m_fromSourceDirty)
        return;
    m_fromSource.fill(-1, sourceModel() ? sourceModel()->rowCount() : 0);
    for (int r = 0; r < m_toSource.size(); ++r) {
        const int source = m_toSource.at(r);
        if (source >= 0 && source < m_fromSource.size())
            m_fromSource[source] = r;
    }
    m_fromSourceDirty = false;
}

QModelIndex HolderSortProxy::index(int row, int column, const QModelIndex &parent) const {
    if (parent.isValid() || row < 0 || row >= m_toSource.size() || column < 0 || column >= columnCount())
        return {};
    return createIndex(row, column);
}

QModelIndex HolderSortProxy::parent(const QModelIndex &) const {
    return {};
}

QModelIndex HolderSortProxy::sibling(int row, int column, const QModelIndex &idx) const {
    return idx.isValid() ? index(row, column) : QModelIndex();
}

int HolderSortProxy::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_toSource.size());
}

int HolderSortProxy::columnCount(const QModelIndex &parent) const {
    return parent.isValid() || !sourceModel() ? 0 : sourceModel()->columnCount();
}

bool HolderSortProxy::hasChildren(const QModelIndex &parent) const {
    return !parent.isValid() && !m_toSource.isEmpty() && columnCount() > 0;
}

QModelIndex HolderSortProxy::mapToSource(const QModelIndex &proxyIndex) const {
    if (!proxyIndex.isValid() || !sourceModel() || proxyIndex.row() >= m_toSource.size())
        return {};
    return sourceModel()->index(m_toSource.at(proxyIndex.row()), proxyIndex.column());
}

QModelIndex HolderSortProxy::mapFromSource(const QModelIndex &sourceIndex) const {
    if (!sourceIndex.isValid() || sourceIndex.model() != sourceModel())
        return {};
    ensureFromSource();
    const int row = sourceIndex.row() < m_fromSource.size() ? m_fromSource.at(sourceIndex.row()) : -1;
    return row >= 0 ? index(row, sourceIndex.column()) : QModelIndex();
}

QItemSelection HolderSortProxy::mapSelectionToSource(const QItemSelection &selection) const {
    // Row by row: a proxy range is not a source range once sorted.
    QItemSelection out;
    for (const QItemSelectionRange &range : selection) {
        for (int r = range.top(); r <= range.bottom(); ++r) {
            const QModelIndex left = mapToSource(index(r, range.left()));
            const QModelIndex right = mapToSource(index(r, range.right()));
            if (left.isValid() && right.isValid())
                out.append(QItemSelectionRange(left, right));
        }
    }
    return out;
}

QItemSelection HolderSortProxy::mapSelectionFromSource(const QItemSelection &selection) const {
    QItemSelection out;
    for (const QItemSelectionRange &range : selection) {
        for (int r = range.top(); r <= range.bottom(); ++r) {
            const QModelIndex left = mapFromSource(sourceModel()->index(r, range.left()));
            const QModelIndex right = mapFromSource(sourceModel()->index(r, range.right()));
            if (left.isValid() && right.isValid())
                out.append(QItemSelectionRange(left, right));
        }
    }
    return out;
}

HolderSortProxy::Keys HolderSortProxy::sortKeys(int first, int last) const {
    Keys keys;
    QAbstractItemModel *source = sourceModel();
    const int n = source ? source->rowCount() : 0;
    if (last < 0 || last >= n)
        last = n - 1;
    const auto *holders = qobject_cast<const HolderTableModel *>(source);
    keys.numeric = holders && HolderTableModel::hasNumericSortKey(m_sortColumn);
    if (keys.numeric) {
        keys.numbers.resize(n);
        for (int r = first; r <= last; ++r)
            keys.numbers[r] = holders->numericSortKey(r, m_sortColumn).value_or(0);
    } else {
        keys.values.resize(n);
        for (int r = first; r <= last; ++r)
            keys.values[r] = source->index(r, m_sortColumn).data(HolderTableModel::SortRole);
    }
    return keys;
}

QList<int> HolderSortProxy::sortedOrder(const Keys &keys) const {
    // Stable, from the current order: rows with equal keys keep their places.
    QList<int> order = m_toSource;
    if (m_sortOrder == Qt::AscendingOrder)
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return keys.less(a, b); });
    else
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return keys.less(b, a); });
    return order;
}

void HolderSortProxy::applyOrder(QList<int> order) {
    Q_EMIT layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    QList<QPair<int, int>> sourceCells; // source row, column of each persistent index
    sourceCells.reserve(before.size());
    for (const QModelIndex &i : before)
        sourceCells.append({m_toSource.at(i.row()), i.column()});
    m_toSource = std::move(order);
    m_fromSourceDirty = true;
    ensureFromSource();
    QModelIndexList after;
    after.reserve(before.size());
    for (const auto &[row, column] : std::as_const(sourceCells))
        after.append(index(m_fromSource.at(row), column));
    changePersistentIndexList(before, after);
    Q_EMIT layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

void HolderSortProxy::sort(int column, Qt::SortOrder order) {
    m_sortColumn = column;
    m_sortOrder = order;
    if (m_toSource.size() < 2 && column >= 0)
        return;
    if (column < 0) {
        // Unsorted: back to the source order.
        QList<int> identity(m_toSource.size());
        for (int r = 0; r < identity.size(); ++r)
            identity[r] = r;
        applyOrder(std::move(identity));
        return;
    }
    applyOrder(sortedOrder(sortKeys()));
}

bool HolderSortProxy::resortIfNeeded() {
    if (m_sortColumn < 0 || m_toSource.size() < 2)
        return false;
    const Keys keys = sortKeys();
    const bool ascending = m_sortOrder == Qt::AscendingOrder;
    for (int r = 1; r < m_toSource.size(); ++r) {
        const int previous = m_toSource.at(r - 1);
        const int current = m_toSource.at(r);
        if (ascending ? keys.less(current, previous) : keys.less(previous, current)) {
            applyOrder(sortedOrder(keys));
            return true;
        }
    }
    return false;
}

void HolderSortProxy::sourceRowsAboutToBeRemoved(const QModelIndex &parent, int first, int last) {
    if (parent.isValid())
        return;
    // The proxy rows of the leaving source rows, removed in contiguous runs from the bottom. The
    // source still has them until sourceRowsRemoved(), so the rows left map as before meanwhile.
    ensureFromSource();
    QList<int> rows;
    rows.reserve(last - first + 1);
    for (int s = first; s <= last && s < m_fromSource.size(); ++s) {
        if (m_fromSource.at(s) >= 0)
            rows.append(m_fromSource.at(s));
    }
    std::sort(rows.begin(), rows.end());
    for (qsizetype i = rows.size() - 1; i >= 0;) {
        const int end = rows.at(i);
        int begin = end;
        while (i > 0 && rows.at(i - 1) == begin - 1)
            begin = rows.at(--i);
        --i;
        beginRemoveRows({}, begin, end);
        m_toSource.remove(begin, end - begin + 1);
        m_fromSourceDirty = true;
        endRemoveRows();
    }
}

void HolderSortProxy::sourceRowsRemoved(const QModelIndex &parent, int first, int last) {
    if (parent.isValid())
        return;
    const int count = last - first + 1;
    for (int &s : m_toSource) {
        if (s > last)
            s -= count;
    }
    m_fromSourceDirty = true;
}

void HolderSortProxy::sourceRowsInserted(const QModelIndex &parent, int first, int last) {
    if (parent.isValid())
        return;
    const int count = last - first + 1;
    for (int &s : m_toSource) {
        if (s >= first)
            s += count;
    }
    // Newcomers go to the end, in order among themselves; resortIfNeeded() places them. A first
    // fill is thereby already sorted.
    QList<int> added(count);
    for (int i = 0; i < count; ++i)
        added[i] = first + i;
    if (m_sortColumn >= 0 && count > 1) {
        const Keys keys = sortKeys(first, last);
        const bool ascending = m_sortOrder == Qt::AscendingOrder;
        const auto less = [&](int a, int b) { return ascending ? keys.less(a, b) : keys.less(b, a); };
        // A first read usually comes in rank order already: one pass instead of a sort.
        if (!std::is_sorted(added.begin(), added.end(), less))
            std::stable_sort(added.begin(), added.end(), less);
    }
    const int at = int(m_toSource.size());
    beginInsertRows({}, at, at + count - 1);
    m_toSource.append(added);
    m_fromSourceDirty = true;
    endInsertRows();
}

void HolderSortProxy::sourceDataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight,
                                        const QList<int> &roles) {
    if (!topLeft.isValid() || !bottomRight.isValid() || topLeft.parent().isValid() || m_toSource.isEmpty())
        return;
    int top = 0;
    int bottom = int(m_toSource.size()) - 1;
    if (topLeft.row() > 0 || bottomRight.row() < bottom) {
        // Part of the rows: the proxy rows they span now.
        ensureFromSource();
        top = bottom;
        bottom = 0;
        for (int s = topLeft.row(); s <= bottomRight.row() && s < m_fromSource.size(); ++s) {
            const int r = m_fromSource.at(s);
            if (r < 0)
                continue;
            top = std::min(top, r);
            bottom = std::max(bottom, r);
        }
        if (top > bottom)
            return;
    }
    Q_EMIT dataChanged(index(top, topLeft.column()), index(bottom, bottomRight.column()), roles);
}

} // namespace semscope::model
