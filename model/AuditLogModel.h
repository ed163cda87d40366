#pragma once

#include "core/audit/AuditLog.h"

#include <QAbstractTableModel>

namespace semscope::model {

// The audit log, newest entry first; follows core::AuditLog::appended.
class AuditLogModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        TimeColumn,
        UserColumn,
        ConnectionColumn,
        SemaphoreColumn,
        ActionColumn,
        HolderColumn,
        ResultColumn,
        MessageColumn,
        ColumnCount
    };

    explicit AuditLogModel(core::AuditLog *log, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    const core::AuditEntry *entryAt(int row) const;
    void reload();

private:
    void prepend(const core::AuditEntry &entry);
    core::AuditLog *m_log;
    QList<core::AuditEntry> m_entries; // newest first
};

} // namespace semscope::model
