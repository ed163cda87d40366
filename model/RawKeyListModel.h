#pragma once

#include "core/RawKeys.h"

#include <QAbstractTableModel>

namespace semscope::model {

// The keys of one semaphore in the raw view: name, type, TTL (as read) and size, one row each.
class RawKeyListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { NameColumn, TypeColumn, TtlColumn, SizeColumn, ColumnCount };

    explicit RawKeyListModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Replaces the keys (a refresh may find others); the row of a key still there is unchanged
    // when the list is the same, so the selection can be kept by name.
    void setKeys(const QList<core::RawKey> &keys);
    const core::RawKey *keyAt(int row) const;
    int rowOf(const QString &name) const;
    QString rowText(int row) const;

private:
    QVariant display(const core::RawKey &k, int column) const;
    QList<core::RawKey> m_keys;
};

// The contents of one key: the rows of a collection (member/score, field/value, index/value; a
// ZSET's scores that are times also as local time), or, for a Consul entry, its properties (flags,
// session, indices).
class RawKeyContentModel : public QAbstractTableModel {
    Q_OBJECT
public:
    explicit RawKeyContentModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void setKey(const core::RawKey &key);
    void clear();
    QString rowText(int row) const;

private:
    // A ZSET whose scores are times gets them beside the raw number, in a column of its own.
    void addScoreTimes();

    QStringList m_columns;
    QList<QStringList> m_rows;
};

} // namespace semscope::model
