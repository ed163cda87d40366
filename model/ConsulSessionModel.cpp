#include "ConsulSessionModel.h"

#include "core/Duration.h"
#include "core/PrintableText.h"

#include <QSet>
#include <limits>

namespace semscope::model {

using namespace semscope::core;

namespace {
// Session names, nodes and check names come from the server: escaped and cut like every reply.
constexpr qsizetype kMaxCellChars = 200;

QString serverText(const QString &text) {
    return printableServerText(text, kMaxCellChars);
}

QStringList checksOf(const SessionEntry &e) {
    return e.info.nodeChecks + e.info.serviceChecks;
}
} // namespace

ConsulSessionModel::ConsulSessionModel(QObject *parent)
    : QAbstractTableModel(parent) {}

int ConsulSessionModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ConsulSessionModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

const SessionEntry *ConsulSessionModel::entryAt(int row) const {
    return row >= 0 && row < m_rows.size() ? &m_rows[row] : nullptr;
}

QVariant ConsulSessionModel::display(const SessionEntry &e, int column) const {
    switch (column) {
    case NameColumn:
        return e.info.name.isEmpty() ? tr("(no name)") : serverText(e.info.name);
    case NodeColumn:
        return serverText(e.info.node);
    case HoldsColumn:
        return e.holdings.isEmpty() ? tr("—") : serverText(e.holdingsText());
    case TtlColumn:
        return e.info.ttl.isEmpty() ? tr("none") : serverText(e.info.ttl);
    case BehaviorColumn:
        return serverText(e.info.behavior);
    case LockDelayColumn:
        return formatDurationMs(e.info.lockDelayNs / 1'000'000);
    case ChecksColumn:
        return serverText(checksOf(e).join(QStringLiteral(", ")));
    case IdColumn:
        return serverText(e.info.id);
    }
    return {};
}

QVariant ConsulSessionModel::data(const QModelIndex &index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const SessionEntry &e = m_rows[index.row()];
    switch (role) {
    case Qt::DisplayRole:
        return display(e, index.column());
    case Qt::ToolTipRole:
        if (index.column() == HoldsColumn && !e.holdings.isEmpty())
            return serverText(e.holdingsText()).replace(QStringLiteral(", "), QStringLiteral("\n"));
        if (index.column() == TtlColumn && e.info.ttl.isEmpty())
            return tr("No TTL: the session lives until it is destroyed or its checks fail.");
        if (index.column() == TtlColumn)
            return tr("Consul invalidates a session that is not renewed within 1–2× its TTL.");
        if (index.column() == BehaviorColumn)
            return e.info.behavior == QLatin1String("delete")
                       ? tr("On invalidation Consul deletes the keys this session holds.")
                       : tr("On invalidation Consul releases the keys this session holds.");
        return display(e, index.column());
    case SortRole:
        switch (index.column()) {
        case TtlColumn:
            // No TTL sorts after every TTL: it never runs out.
            return e.info.ttlMs().value_or(std::numeric_limits<qint64>::max());
        case LockDelayColumn:
            return e.info.lockDelayNs;
        case HoldsColumn:
            return qint64(e.holdings.size());
        default:
            return display(e, index.column()).toString().toLower();
        }
    case SessionIdRole:
        return e.info.id;
    case SearchTextRole:
        return QStringList{e.info.name, e.info.node, e.info.id, checksOf(e).join(QLatin1Char(' ')),
                           e.holdingsText()}
            .join(QLatin1Char('\n'));
    default:
        return {};
    }
}

QVariant ConsulSessionModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case NameColumn:
            return tr("Name");
        case NodeColumn:
            return tr("Node");
        case HoldsColumn:
            return tr("Holds");
        case TtlColumn:
            return tr("TTL");
        case BehaviorColumn:
            return tr("Behavior");
        case LockDelayColumn:
            return tr("Lock delay");
        case ChecksColumn:
            return tr("Checks");
        case IdColumn:
            return tr("Session ID");
        }
    }
    if (role == Qt::ToolTipRole && section == HoldsColumn)
        return tr("The semaphores of this connection the session holds a slot in or waits for");
    return {};
}

void ConsulSessionModel::setSessions(const QList<SessionEntry> &sessions) {
    QSet<QString> incoming;
    for (const SessionEntry &e : sessions)
        incoming.insert(e.info.id);
    // Gone first, from the bottom so the rows above keep their numbers.
    for (int row = int(m_rows.size()) - 1; row >= 0; --row) {
        if (incoming.contains(m_rows[row].info.id))
            continue;
        beginRemoveRows({}, row, row);
        m_rows.removeAt(row);
        endRemoveRows();
    }
    reindex();
    QList<SessionEntry> added;
    for (const SessionEntry &e : sessions) {
        const int row = rowOf(e.info.id);
        if (row < 0) {
            if (!m_index.contains(e.info.id))
                added << e;
            continue;
        }
        m_rows[row] = e;
        Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
    }
    // A list with the same ID twice (never from Consul) keeps the first.
    QSet<QString> seen;
    QList<SessionEntry> unique;
    for (const SessionEntry &e : added)
        if (!seen.contains(e.info.id)) {
            seen.insert(e.info.id);
            unique << e;
        }
    if (!unique.isEmpty()) {
        beginInsertRows({}, int(m_rows.size()), int(m_rows.size() + unique.size() - 1));
        m_rows += unique;
        endInsertRows();
        reindex();
    }
}

void ConsulSessionModel::clear() {
    if (m_rows.isEmpty())
        return;
    beginResetModel();
    m_rows.clear();
    m_index.clear();
    endResetModel();
}

QString ConsulSessionModel::rowText(int row) const {
    const SessionEntry *e = entryAt(row);
    if (!e)
        return {};
    QStringList cells;
    for (int c = 0; c < ColumnCount; ++c)
        cells << display(*e, c).toString();
    return cells.join(QLatin1Char('\t'));
}

void ConsulSessionModel::reindex() {
    m_index.clear();
    for (int row = 0; row < m_rows.size(); ++row)
        m_index.insert(m_rows[row].info.id, row);
}

} // namespace semscope::model
