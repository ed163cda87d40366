#include "HolderSearchModel.h"

#include "core/Duration.h"
#include "core/Kind.h"
#include "core/PrintableText.h"

#include <limits>

namespace semscope::model {

using namespace semscope::core;

HolderSearchModel::HolderSearchModel(QObject *parent)
    : QAbstractTableModel(parent) {}

int HolderSearchModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int HolderSearchModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

const HolderMatch *HolderSearchModel::matchAt(int row) const {
    return row >= 0 && row < m_rows.size() ? &m_rows[row] : nullptr;
}

QString HolderSearchModel::slotText(const Holder &h) {
    QStringList parts;
    if (h.slot)
        parts << tr("slot %1").arg(*h.slot);
    if (h.rank && !h.slot)
        parts << tr("rank %1").arg(*h.rank);
    if (h.token)
        parts << tr("token %1").arg(*h.token);
    if (h.permits > 1)
        parts << tr("%1 permits").arg(h.permits);
    return parts.isEmpty() ? tr("—") : parts.join(QStringLiteral(" · "));
}

QVariant HolderSearchModel::display(const HolderMatch &m, int column) const {
    switch (column) {
    case ConnectionColumn:
        return m.connectionName;
    case EnvironmentColumn:
        return environmentName(m.environment);
    case SemaphoreColumn:
        return printableServerText(m.ref.name, 200);
    case KindColumn:
        return kindName(m.ref.kind);
    case HolderColumn: {
        // A Consul holder is its session: the name people search for first, the ID after it.
        const QString id = printableServerText(m.holder.id, 200);
        const QString session = m.holder.details.value(QStringLiteral("sessionName")).toString();
        if (!session.isEmpty() && session != m.holder.id)
            return tr("%1 · session %2").arg(printableServerText(session, 120), id);
        return id;
    }
    case SlotColumn:
        return slotText(m.holder);
    case TtlColumn: {
        const auto ttl = m.holder.ttlMs(m.serverNowMs);
        if (!ttl)
            return tr("no TTL");
        return *ttl < 0 ? tr("expired %1 ago").arg(formatDurationMs(-*ttl)) : formatDurationMs(*ttl);
    }
    case StateColumn:
        return holderStateName(m.holder.state);
    }
    return {};
}

QVariant HolderSearchModel::data(const QModelIndex &index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const HolderMatch &m = m_rows[index.row()];
    switch (role) {
    case Qt::DisplayRole:
        return display(m, index.column());
    case Qt::ToolTipRole:
        if (index.column() == TtlColumn)
            return tr("As of the search (server clock); the semaphore page counts it down live.");
        if (index.column() == StateColumn)
            return holderStateDescription(m.holder.state);
        return display(m, index.column());
    case SortRole:
        switch (index.column()) {
        case TtlColumn:
            return m.holder.ttlMs(m.serverNowMs).value_or(std::numeric_limits<qint64>::max());
        case SlotColumn:
            return m.holder.slot.value_or(m.holder.rank.value_or(m.holder.token.value_or(-1)));
        case EnvironmentColumn:
            return int(m.environment);
        default:
            return display(m, index.column()).toString().toLower();
        }
    case ConnectionIdRole:
        return m.connectionId;
    default:
        return {};
    }
}

QVariant HolderSearchModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case ConnectionColumn:
        return tr("Connection");
    case EnvironmentColumn:
        return tr("Environment");
    case SemaphoreColumn:
        return tr("Semaphore");
    case KindColumn:
        return tr("Kind");
    case HolderColumn:
        return tr("Holder");
    case SlotColumn:
        return tr("Slot / token");
    case TtlColumn:
        return tr("TTL");
    case StateColumn:
        return tr("State");
    }
    return {};
}

void HolderSearchModel::addMatches(const QList<HolderMatch> &matches) {
    if (matches.isEmpty())
        return;
    beginInsertRows({}, int(m_rows.size()), int(m_rows.size() + matches.size() - 1));
    m_rows += matches;
    endInsertRows();
}

void HolderSearchModel::clear() {
    if (m_rows.isEmpty())
        return;
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

QString HolderSearchModel::rowText(int row) const {
    const HolderMatch *m = matchAt(row);
    if (!m)
        return {};
    QStringList cells;
    for (int c = 0; c < ColumnCount; ++c)
        cells << display(*m, c).toString();
    return cells.join(QLatin1Char('\t'));
}

} // namespace semscope::model
