#include "AuditLogModel.h"

#include "StatusColors.h"

#include <QBrush>
#include <QColor>
#include <QJsonDocument>

namespace semscope::model {

namespace {
constexpr int kMaxEntries = 5000;
}

AuditLogModel::AuditLogModel(core::AuditLog *log, QObject *parent)
    : QAbstractTableModel(parent)
    , m_log(log) {
    reload();
    connect(m_log, &core::AuditLog::appended, this, &AuditLogModel::prepend);
}

void AuditLogModel::reload() {
    beginResetModel();
    m_entries.clear();
    const auto recent = m_log->readRecent(kMaxEntries);
    for (auto it = recent.crbegin(); it != recent.crend(); ++it)
        m_entries.append(*it);
    endResetModel();
}

void AuditLogModel::prepend(const core::AuditEntry &entry) {
    beginInsertRows({}, 0, 0);
    m_entries.prepend(entry);
    endInsertRows();
    if (m_entries.size() > kMaxEntries) {
        const int last = int(m_entries.size()) - 1;
        beginRemoveRows({}, last, last);
        m_entries.removeLast();
        endRemoveRows();
    }
}

int AuditLogModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_entries.size());
}

int AuditLogModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

const core::AuditEntry *AuditLogModel::entryAt(int row) const {
    return row >= 0 && row < m_entries.size() ? &m_entries.at(row) : nullptr;
}

QVariant AuditLogModel::data(const QModelIndex &index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const core::AuditEntry &e = m_entries.at(index.row());
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case TimeColumn:
            return e.time.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
        case UserColumn:
            return QStringLiteral("%1@%2").arg(e.user, e.host);
        case ConnectionColumn:
            return e.environment.isEmpty() ? e.connection
                                           : QStringLiteral("%1 [%2]").arg(e.connection, e.environment);
        case SemaphoreColumn:
            return e.semaphore;
        case ActionColumn:
            return e.action;
        case HolderColumn:
            return e.holder;
        case ResultColumn:
            return e.result;
        case MessageColumn:
            return e.message;
        }
    }
    if (role == Qt::ToolTipRole)
        return QString::fromUtf8(QJsonDocument(e.toJson()).toJson(QJsonDocument::Indented));
    if (role == Qt::ForegroundRole && index.column() == ResultColumn) {
        if (e.result == QLatin1String("error") || e.result == QLatin1String("refused"))
            return QBrush(toneText(Tone::Bad));
        if (e.result == QLatin1String("changed") || e.result == QLatin1String("gone"))
            return QBrush(toneText(Tone::Caution));
    }
    return {};
}

QVariant AuditLogModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char *const names[ColumnCount] = {"Time",   "Who",    "Connection", "Semaphore",
                                                   "Action", "Holder", "Result",     "Message"};
    return QString::fromLatin1(names[section]);
}

} // namespace semscope::model
