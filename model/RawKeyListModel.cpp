#include "RawKeyListModel.h"

#include <QDateTime>

#include "core/Duration.h"

namespace semscope::model {

using core::RawKey;

RawKeyListModel::RawKeyListModel(QObject *parent)
    : QAbstractTableModel(parent) {}

int RawKeyListModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_keys.size());
}

int RawKeyListModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

const RawKey *RawKeyListModel::keyAt(int row) const {
    return row >= 0 && row < m_keys.size() ? &m_keys[row] : nullptr;
}

int RawKeyListModel::rowOf(const QString &name) const {
    for (int r = 0; r < m_keys.size(); ++r)
        if (m_keys[r].name == name)
            return r;
    return -1;
}

QVariant RawKeyListModel::display(const RawKey &k, int column) const {
    switch (column) {
    case NameColumn:
        return k.name;
    case TypeColumn:
        return k.error.isEmpty() ? k.type : tr("error");
    case TtlColumn:
        if (k.type == QLatin1String("kv") || k.type == QLatin1String("none"))
            return tr("—");
        return k.ttlMs ? core::formatDurationMs(*k.ttlMs) : tr("no expiry");
    case SizeColumn:
        if (k.length < 0)
            return QString();
        if (k.isCollection())
            return tr("%1 %2").arg(QString::number(k.length), k.length == 1 ? tr("element") : tr("elements"));
        return tr("%1 %2").arg(QString::number(k.length), k.length == 1 ? tr("byte") : tr("bytes"));
    }
    return {};
}

QVariant RawKeyListModel::data(const QModelIndex &index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const RawKey &k = m_keys[index.row()];
    if (role == Qt::DisplayRole)
        return display(k, index.column());
    if (role == Qt::ToolTipRole)
        return k.error.isEmpty() ? display(k, index.column()) : QVariant(k.error);
    return {};
}

QVariant RawKeyListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Key");
    case TypeColumn:
        return tr("Type");
    case TtlColumn:
        return tr("TTL (as read)");
    case SizeColumn:
        return tr("Size");
    }
    return {};
}

void RawKeyListModel::setKeys(const QList<RawKey> &keys) {
    bool sameNames = keys.size() == m_keys.size();
    for (int r = 0; sameNames && r < keys.size(); ++r)
        sameNames = keys[r].name == m_keys[r].name;
    if (!sameNames) {
        beginResetModel();
        m_keys = keys;
        endResetModel();
        return;
    }
    m_keys = keys;
    if (!m_keys.isEmpty())
        Q_EMIT dataChanged(index(0, 0), index(int(m_keys.size()) - 1, ColumnCount - 1));
}

QString RawKeyListModel::rowText(int row) const {
    const RawKey *k = keyAt(row);
    if (!k)
        return {};
    QStringList cells;
    for (int c = 0; c < ColumnCount; ++c)
        cells << display(*k, c).toString();
    return cells.join(QLatin1Char('\t'));
}

// -------------------------------------------------------------------------------------------------

namespace {

// A ZSET score that is a point in time (most semaphore layouts score members by expiry or acquire
// time), as local time; empty for any other number. Epoch milliseconds and epoch seconds between
// 2000 and 2100 do not overlap, so the unit is never a guess.
QString scoreAsTime(const QString &score) {
    bool ok = false;
    const double v = score.toDouble(&ok);
    if (!ok)
        return {};
    constexpr double k2000 = 946'684'800;   // 2000-01-01 in seconds
    constexpr double k2100 = 4'102'444'800; // 2100-01-01 in seconds
    if (v >= k2000 * 1000 && v < k2100 * 1000)
        return QDateTime::fromMSecsSinceEpoch(qint64(v)).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
    if (v >= k2000 && v < k2100)
        return QDateTime::fromMSecsSinceEpoch(qint64(v * 1000))
                   .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) +
               QStringLiteral(" (s)");
    return {};
}

} // namespace

RawKeyContentModel::RawKeyContentModel(QObject *parent)
    : QAbstractTableModel(parent) {}

int RawKeyContentModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int RawKeyContentModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_columns.size());
}

QVariant RawKeyContentModel::data(const QModelIndex &index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    const QStringList &row = m_rows[index.row()];
    return index.column() < row.size() ? row[index.column()] : QString();
}

QVariant RawKeyContentModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
        section >= m_columns.size())
        return {};
    return m_columns[section];
}

void RawKeyContentModel::setKey(const RawKey &key) {
    beginResetModel();
    m_rows.clear();
    if (key.isCollection()) {
        m_columns = key.columns;
        m_rows = key.rows;
        if (key.type == QLatin1String("zset"))
            addScoreTimes();
    } else if (!key.meta.isEmpty()) {
        m_columns = {tr("property"), tr("value")};
        for (const auto &[name, value] : key.meta)
            m_rows.append({name, value});
    } else {
        m_columns.clear();
    }
    endResetModel();
}

void RawKeyContentModel::addScoreTimes() {
    const int score = int(m_columns.indexOf(QStringLiteral("score")));
    if (score < 0)
        return;
    QStringList times;
    bool any = false;
    for (const QStringList &row : std::as_const(m_rows)) {
        times << (score < row.size() ? scoreAsTime(row[score]) : QString());
        any = any || !times.constLast().isEmpty();
    }
    if (!any)
        return; // counters, ranks: no column that would stay empty
    m_columns << tr("score as time");
    for (qsizetype i = 0; i < m_rows.size(); ++i)
        m_rows[i] << times[i];
}

void RawKeyContentModel::clear() {
    beginResetModel();
    m_columns.clear();
    m_rows.clear();
    endResetModel();
}

QString RawKeyContentModel::rowText(int row) const {
    return row >= 0 && row < m_rows.size() ? m_rows[row].join(QLatin1Char('\t')) : QString();
}

} // namespace semscope::model
