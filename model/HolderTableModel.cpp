#include "HolderTableModel.h"

#include "core/Duration.h"

#include <QBrush>
#include <QColor>
#include <QDateTime>
#include <QRegularExpression>
#include <QSet>

namespace semscope::model {

using core::Holder;
using core::HolderState;

bool sameHolder(const Holder &a, const Holder &b) {
    return a.id == b.id && a.rawId == b.rawId && a.slot == b.slot && a.rank == b.rank && a.token == b.token &&
           a.acquiredAtMs == b.acquiredAtMs && a.expiresAtMs == b.expiresAtMs &&
           a.firstSeenMs == b.firstSeenMs && a.state == b.state && a.details == b.details;
}

HolderTableModel::HolderTableModel(QObject *parent, ServerClock::LocalClock clock)
    : QAbstractTableModel(parent)
    , m_clock(std::move(clock)) {
    m_ticker.setInterval(500);
    connect(&m_ticker, &QTimer::timeout, this, &HolderTableModel::tick);
}

int HolderTableModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int HolderTableModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QByteArray HolderTableModel::keyOf(const Holder &holder) const {
    return holder.rawId.isEmpty() ? holder.id.toUtf8() : holder.rawId;
}

const Holder *HolderTableModel::holderAt(int row) const {
    if (row < 0 || row >= m_rows.size())
        return nullptr;
    return &m_rows.at(row).holder;
}

int HolderTableModel::rowOf(const QByteArray &rawId) const {
    return m_index.value(rawId, -1);
}

std::optional<qint64> HolderTableModel::ttlMs(const Holder &holder) const {
    return holder.ttlMs(m_clock.serverNowMs());
}

qint64 HolderTableModel::ageMs(const Holder &holder) const {
    if (holder.acquiredAtMs)
        return m_clock.serverNowMs() - *holder.acquiredAtMs;
    if (holder.firstSeenMs)
        return m_clock.localNowMs() - *holder.firstSeenMs;
    const int row = rowOf(keyOf(holder));
    return row >= 0 ? m_clock.localNowMs() - m_rows.at(row).firstSeenLocalMs : 0;
}

qint64 HolderTableModel::ageMs(const Row &row) const {
    // The painting path: the row is at hand, no id lookup per cell.
    const Holder &h = row.holder;
    if (h.acquiredAtMs)
        return m_clock.serverNowMs() - *h.acquiredAtMs;
    return m_clock.localNowMs() - (h.firstSeenMs ? *h.firstSeenMs : row.firstSeenLocalMs);
}

HolderState HolderTableModel::effectiveState(const Holder &holder) const {
    // A live lease that ran out since the last read is shown as expired right away; the next read
    // confirms it (or shows it refreshed).
    if (holder.state == HolderState::Live) {
        const auto ttl = ttlMs(holder);
        if (ttl && *ttl <= 0)
            return HolderState::ExpiredPresent;
    }
    return holder.state;
}

QString HolderTableModel::ttlBand(std::optional<qint64> ttl) {
    if (!ttl)
        return QStringLiteral("none");
    if (*ttl <= 0)
        return QStringLiteral("expired");
    if (*ttl < 5000)
        return QStringLiteral("critical");
    if (*ttl < 15000)
        return QStringLiteral("low");
    return QStringLiteral("ok");
}

std::optional<qint64> HolderTableModel::sessionTtlMs(const Holder &holder) {
    const auto it = holder.details.constFind(QStringLiteral("ttl"));
    if (it == holder.details.cend())
        return std::nullopt;
    static const QRegularExpression part(QStringLiteral("(\\d+(?:\\.\\d+)?)(h|ms|m|s|us|µs|ns)"));
    const QString text = it.value().toString().trimmed();
    double ms = 0;
    qsizetype consumed = 0;
    for (auto m = part.globalMatch(text); m.hasNext();) {
        const auto match = m.next();
        if (match.capturedStart() != consumed)
            return std::nullopt;
        consumed = match.capturedEnd();
        const QString unit = match.captured(2);
        const double factor = unit == QLatin1String("h")    ? 3'600'000.0
                              : unit == QLatin1String("m")  ? 60'000.0
                              : unit == QLatin1String("s")  ? 1000.0
                              : unit == QLatin1String("ms") ? 1.0
                              : unit == QLatin1String("ns") ? 1e-6
                                                            : 1e-3;
        ms += match.captured(1).toDouble() * factor;
    }
    if (consumed == 0 || consumed != text.size() || ms <= 0)
        return std::nullopt;
    return qint64(std::llround(ms));
}

QString HolderTableModel::detail(const Holder &holder, const QStringList &names) {
    for (const QString &name : names) {
        for (auto it = holder.details.cbegin(); it != holder.details.cend(); ++it) {
            if (it.key().compare(name, Qt::CaseInsensitive) == 0) {
                const QVariant &v = it.value();
                if (v.typeId() == QMetaType::QStringList || v.typeId() == QMetaType::QVariantList)
                    return v.toStringList().join(QStringLiteral(", "));
                return v.toString();
            }
        }
    }
    return {};
}

namespace {
const QStringList kSessionNames{QStringLiteral("sessionName"), QStringLiteral("session_name"),
                                QStringLiteral("name")};
const QStringList kNodeNames{QStringLiteral("node")};
const QStringList kBehaviorNames{QStringLiteral("behavior"), QStringLiteral("behaviour")};
const QStringList kHealthNames{QStringLiteral("health"), QStringLiteral("checks"),
                               QStringLiteral("nodeChecks")};

QString optionalNumber(const std::optional<qint64> &v) {
    return v ? QString::number(*v) : QString();
}

QString formatTtl(std::optional<qint64> ttl) {
    if (!ttl)
        return QStringLiteral("no TTL");
    if (*ttl <= 0)
        return QStringLiteral("expired %1 ago").arg(core::formatDurationMs(-*ttl));
    return core::formatDurationMs(*ttl);
}
} // namespace

QVariant HolderTableModel::display(const Row &row, int column) const {
    const Holder &h = row.holder;
    switch (column) {
    case RankColumn:
        return optionalNumber(h.rank);
    case HolderColumn: {
        // Consul holders are session ids; the session name is what an operator recognises.
        const QString name = detail(h, kSessionNames);
        if (m_consul && !name.isEmpty() && name != h.id)
            return QStringLiteral("%1  (%2)").arg(name, h.id.left(8));
        return h.id;
    }
    case SlotColumn:
        return optionalNumber(h.slot);
    case TokenColumn:
        return optionalNumber(h.token);
    case AcquiredColumn:
        return h.acquiredAtMs
                   ? QDateTime::fromMSecsSinceEpoch(*h.acquiredAtMs).toString(QStringLiteral("HH:mm:ss"))
                   : QString();
    case AgeColumn:
        return core::formatDurationMs(std::max<qint64>(0, ageMs(row)));
    case TtlColumn:
        return formatTtl(ttlMs(h));
    case StateColumn:
        return core::holderStateName(effectiveState(h));
    case SessionColumn:
        return detail(h, kSessionNames);
    case NodeColumn:
        return detail(h, kNodeNames);
    case BehaviorColumn:
        return detail(h, kBehaviorNames);
    case HealthColumn:
        return detail(h, kHealthNames);
    }
    return {};
}

QVariant HolderTableModel::sortValue(const Row &row, int column) const {
    const Holder &h = row.holder;
    constexpr qint64 kNone = std::numeric_limits<qint64>::max();
    switch (column) {
    case RankColumn:
        return h.rank.value_or(kNone);
    case SlotColumn:
        return h.slot.value_or(kNone);
    case TokenColumn:
        return h.token.value_or(kNone);
    case AcquiredColumn:
        return h.acquiredAtMs.value_or(kNone);
    case AgeColumn:
        return ageMs(row);
    case TtlColumn:
        return h.expiresAtMs.value_or(kNone);
    case StateColumn:
        return int(effectiveState(h));
    default:
        return display(row, column);
    }
}

std::optional<qint64> HolderTableModel::numericSortKey(int row, int column) const {
    if (row < 0 || row >= m_rows.size())
        return std::nullopt;
    const Holder &h = m_rows.at(row).holder;
    constexpr qint64 kNone = std::numeric_limits<qint64>::max();
    switch (column) {
    case RankColumn:
        return h.rank.value_or(kNone);
    case SlotColumn:
        return h.slot.value_or(kNone);
    case TokenColumn:
        return h.token.value_or(kNone);
    case AcquiredColumn:
        return h.acquiredAtMs.value_or(kNone);
    case AgeColumn:
        return ageMs(m_rows.at(row));
    case TtlColumn:
        return h.expiresAtMs.value_or(kNone);
    case StateColumn:
        return qint64(effectiveState(h));
    default:
        return std::nullopt;
    }
}

HolderSortProxy::HolderSortProxy(QObject *parent)
    : QSortFilterProxyModel(parent) {
    setSortRole(HolderTableModel::SortRole);
    // Not dynamic: a refresh of 10,000 holders changes every row, and the dynamic proxy then
    // re-sorted all of them on each read (the largest single cost of a refresh). The page calls
    // resortIfNeeded() after each snapshot instead, which checks the order in one pass.
    setDynamicSortFilter(false);
}

bool HolderSortProxy::resortIfNeeded() {
    const int column = sortColumn();
    if (column < 0 || rowCount() < 2)
        return false;
    const bool ascending = sortOrder() == Qt::AscendingOrder;
    QModelIndex previous = mapToSource(index(0, column));
    for (int r = 1; r < rowCount(); ++r) {
        const QModelIndex current = mapToSource(index(r, column));
        if (ascending ? lessThan(current, previous) : lessThan(previous, current)) {
            QSortFilterProxyModel::sort(column, sortOrder());
            return true;
        }
        previous = current;
    }
    return false;
}

bool HolderSortProxy::lessThan(const QModelIndex &left, const QModelIndex &right) const {
    if (const auto *m = qobject_cast<const HolderTableModel *>(sourceModel())) {
        const auto a = m->numericSortKey(left.row(), left.column());
        const auto b = m->numericSortKey(right.row(), right.column());
        if (a && b)
            return *a < *b;
    }
    return QSortFilterProxyModel::lessThan(left, right);
}

QVariant HolderTableModel::data(const QModelIndex &index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows.at(index.row());
    const Holder &h = row.holder;
    switch (role) {
    case Qt::DisplayRole:
        return display(row, index.column());
    case SortRole:
        return sortValue(row, index.column());
    case StateRole:
        return int(effectiveState(h));
    case TtlMsRole: {
        const auto ttl = ttlMs(h);
        return ttl ? QVariant::fromValue(*ttl) : QVariant();
    }
    case RawIdRole:
        return h.rawId;
    case TtlBandRole:
        return ttlBand(ttlMs(h));
    case Qt::TextAlignmentRole:
        switch (index.column()) {
        case RankColumn:
        case SlotColumn:
        case TokenColumn:
        case AgeColumn:
        case TtlColumn:
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        default:
            return {};
        }
    case Qt::ToolTipRole: {
        const HolderState state = effectiveState(h);
        QString tip = QStringLiteral("<b>%1</b>: %2")
                          .arg(core::holderStateName(state).toHtmlEscaped(),
                               core::holderStateDescription(state).toHtmlEscaped());
        if (index.column() == TtlColumn) {
            if (!h.expiresAtMs)
                tip += QStringLiteral("<br>This layout keeps no lease: a crashed holder keeps its slot until "
                                      "someone releases it. Watch the age.");
            else
                tip += QStringLiteral("<br>Counts down locally between reads, from the expiry stored on the "
                                      "server and the server clock measured at the last read.");
        }
        return tip;
    }
    case Qt::BackgroundRole: {
        const HolderState state = effectiveState(h);
        if (state == HolderState::ExpiredPresent)
            return QBrush(QColor(0xf8, 0xd7, 0xda));
        if (state == HolderState::Stale || state == HolderState::Orphan)
            return QBrush(QColor(0xff, 0xec, 0xb3));
        if (state == HolderState::OverLimit)
            return QBrush(QColor(0xe8, 0xd5, 0xf5));
        if (index.column() == TtlColumn) {
            const QString band = ttlBand(ttlMs(h));
            if (band == QLatin1String("critical"))
                return QBrush(QColor(0xfd, 0xe2, 0xc8));
            if (band == QLatin1String("low"))
                return QBrush(QColor(0xff, 0xf3, 0xcd));
        }
        return {};
    }
    case Qt::ForegroundRole: {
        const HolderState state = effectiveState(h);
        if (state == HolderState::ExpiredPresent)
            return QBrush(QColor(0x9b, 0x1c, 0x1c));
        if (state == HolderState::Waiting)
            return QBrush(QColor(0x6c, 0x75, 0x7d));
        return {};
    }
    default:
        return {};
    }
}

QVariant HolderTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char *const names[ColumnCount] = {"Rank",     "Holder", "Slot",     "Token",
                                                   "Acquired", "Age",    "TTL",      "State",
                                                   "Session",  "Node",   "Behavior", "Health"};
    static const char *const tips[ColumnCount] = {
        "Position in the holder order (ZRANK / contender order). Below the limit means it holds a slot.",
        "The holder id exactly as the layout stores it (binary ids shown as hex).",
        "Slot number (slots layout).",
        "Fencing token / counter / Consul ModifyIndex of this holder's acquisition.",
        "When the holder acquired, by the server clock (where the layout records it).",
        "How long it has held: from its acquire time, or from when semscope first saw it.",
        "Time left on the lease, counting down between reads. Red: expired but still recorded.",
        "live, expired (lease ran out, record still there), stale (owner gone), over-limit, waiting, orphan.",
        "Consul session name.",
        "Consul node the session belongs to.",
        "Consul session behavior when invalidated (release or delete).",
        "Consul health checks the session is tied to.",
    };
    if (role == Qt::DisplayRole)
        return QString::fromLatin1(names[section]);
    if (role == Qt::ToolTipRole)
        return QString::fromLatin1(tips[section]);
    return {};
}

void HolderTableModel::setSnapshot(const core::Snapshot &snapshot) {
    m_clock.sync(snapshot.serverNowMs);
    const bool consul =
        snapshot.ref.kind == core::Kind::Consul || snapshot.ref.kind == core::Kind::ConsulMutex;
    m_consul = consul;
    m_snapshot = snapshot;
    m_snapshot.holders.clear();

    // One pass over the incoming holders, each looked up once in the existing index: the row it
    // updates, or a newcomer. No second hash of 10,000 ids is built per refresh (that, and
    // rebuilding the index, was most of a refresh's cost). A duplicate id (a corrupt layout) gets
    // a suffix so it still shows as its own row.
    const int oldCount = int(m_rows.size());
    QList<int> match(oldCount, -1); // row -> incoming holder that updates it
    QList<QPair<QByteArray, int>> added;
    QSet<QByteArray> addedKeys;
    for (int i = 0; i < snapshot.holders.size(); ++i) {
        const QByteArray base = keyOf(snapshot.holders.at(i));
        QByteArray key = base;
        int row = m_index.value(key, -1);
        for (int n = 2; (row >= 0 ? match.at(row) >= 0 : addedKeys.contains(key)) && n < 1000000; ++n) {
            key = base + '#' + QByteArray::number(n);
            row = m_index.value(key, -1);
        }
        if (row >= 0) {
            match[row] = i;
        } else {
            addedKeys.insert(key);
            added.append({key, i});
        }
    }

    // 1. Remove rows that are gone, in contiguous ranges from the bottom so indexes stay valid.
    int firstMoved = oldCount;
    for (int row = oldCount - 1; row >= 0;) {
        if (match.at(row) >= 0) {
            --row;
            continue;
        }
        const int last = row;
        while (row >= 0 && match.at(row) < 0)
            --row;
        const int first = row + 1;
        beginRemoveRows({}, first, last);
        for (int r = first; r <= last; ++r)
            m_index.remove(m_rows.at(r).key);
        m_rows.remove(first, last - first + 1);
        match.remove(first, last - first + 1);
        endRemoveRows();
        firstMoved = first;
    }
    // Rows below a removed range moved up: correct their positions in place (no re-hash).
    for (int r = firstMoved; r < m_rows.size(); ++r)
        m_index[m_rows.at(r).key] = r;

    // 2. Update the rows that stayed, one dataChanged per contiguous run of changed rows.
    int runStart = -1;
    auto flush = [&](int end) {
        if (runStart >= 0)
            Q_EMIT dataChanged(index(runStart, 0), index(end, ColumnCount - 1));
        runStart = -1;
    };
    for (int i = 0; i < m_rows.size(); ++i) {
        const Holder &fresh = snapshot.holders.at(match.at(i));
        if (!sameHolder(m_rows.at(i).holder, fresh)) {
            m_rows[i].holder = fresh;
            if (runStart < 0)
                runStart = i;
        } else {
            flush(i - 1);
        }
    }
    flush(int(m_rows.size()) - 1);

    // 3. Append the newcomers.
    if (!added.isEmpty()) {
        const int first = int(m_rows.size());
        const qint64 now = m_clock.localNowMs();
        beginInsertRows({}, first, first + int(added.size()) - 1);
        for (const auto &[key, i] : added) {
            m_rows.append(Row{snapshot.holders.at(i), now, key});
            m_index.insert(key, int(m_rows.size()) - 1);
        }
        endInsertRows();
    }

    if (m_autoTick && !m_rows.isEmpty() && !m_ticker.isActive())
        m_ticker.start();
    // Time moved on for the rows that did not change too.
    if (m_autoTick)
        tick();
}

void HolderTableModel::setAutoTick(bool on) {
    m_autoTick = on;
    if (!on)
        m_ticker.stop();
    else if (!m_rows.isEmpty())
        m_ticker.start();
}

void HolderTableModel::clear() {
    if (!m_rows.isEmpty()) {
        beginRemoveRows({}, 0, int(m_rows.size()) - 1);
        m_rows.clear();
        m_index.clear();
        endRemoveRows();
    }
    m_snapshot = {};
    m_ticker.stop();
}

void HolderTableModel::tick() {
    if (m_rows.isEmpty())
        return;
    Q_EMIT dataChanged(index(0, AgeColumn), index(int(m_rows.size()) - 1, StateColumn));
}

void HolderTableModel::setTickInterval(int intervalMs) {
    m_ticker.setInterval(std::max(50, intervalMs));
}

} // namespace semscope::model
