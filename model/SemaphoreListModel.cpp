#include "SemaphoreListModel.h"

#include "HolderTableModel.h"
#include "StatusColors.h"
#include "core/Duration.h"

#include <QBrush>
#include <QColor>
#include <QDateTime>
#include <QLocale>
#include <algorithm>

namespace semscope::model {

using namespace semscope::core;

qint64 attentionCount(const Snapshot &snapshot) {
    return snapshot.countInState(HolderState::ExpiredPresent) + snapshot.countInState(HolderState::Stale) +
           snapshot.countInState(HolderState::Orphan) + snapshot.countInState(HolderState::OverLimit);
}

SemaphoreListModel::SemaphoreListModel(QObject *parent, ServerClock::LocalClock clock)
    : QAbstractTableModel(parent)
    , m_clock(std::move(clock)) {
    m_ticker.setInterval(1000);
    connect(&m_ticker, &QTimer::timeout, this, &SemaphoreListModel::tick);
}

int SemaphoreListModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int SemaphoreListModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QString SemaphoreListModel::keyOf(const SemaphoreRef &ref) const {
    return kindName(ref.kind) + QLatin1Char('\x1f') + ref.name;
}

int SemaphoreListModel::rowOf(const SemaphoreRef &ref) const {
    return m_index.value(keyOf(ref), -1);
}

SemaphoreRef SemaphoreListModel::refAt(int row) const {
    if (row < 0 || row >= m_rows.size())
        return {};
    return m_rows.at(row).found.ref;
}

DiscoveredSemaphore SemaphoreListModel::discoveredAt(int row) const {
    if (row < 0 || row >= m_rows.size())
        return {};
    return m_rows.at(row).found;
}

QList<int> SemaphoreListModel::listedSlots() const {
    QList<int> hashSlots;
    hashSlots.reserve(m_rows.size());
    for (const Row &row : m_rows)
        hashSlots << row.found.slot;
    return hashSlots;
}

bool SemaphoreListModel::hasClusterNodes() const {
    return std::any_of(m_rows.cbegin(), m_rows.cend(), [](const Row &r) { return r.found.slot >= 0; });
}

QList<SemaphoreRef> SemaphoreListModel::refs() const {
    QList<SemaphoreRef> out;
    out.reserve(m_rows.size());
    for (const auto &r : m_rows)
        out.append(r.found.ref);
    return out;
}

std::optional<qint64> SemaphoreListModel::soonestTtlMs(int row) const {
    if (row < 0 || row >= m_rows.size() || !m_rows.at(row).soonestExpiryMs)
        return std::nullopt;
    return *m_rows.at(row).soonestExpiryMs - m_clock.serverNowMs();
}

QStringList SemaphoreListModel::allWarnings(const Row &row) const {
    QStringList w = row.found.warnings;
    for (const QString &s : row.snapshotWarnings) {
        if (!w.contains(s))
            w.append(s);
    }
    return w;
}

QStringList SemaphoreListModel::warningsOf(const core::SemaphoreRef &ref) const {
    const int row = rowOf(ref);
    return row < 0 ? QStringList() : allWarnings(m_rows.at(row));
}

QVariant SemaphoreListModel::display(const Row &row, int column) const {
    switch (column) {
    case KindColumn:
        return kindName(row.found.ref.kind);
    case NameColumn:
        return row.found.ref.name;
    case UsageColumn:
        // Where the eye is, not in the Holders column further right (off screen at 1280 px).
        if (showsEmpty(row))
            return emptySinceText(*row.emptySinceMs);
        if (!row.summarised)
            return QStringLiteral("…");
        return row.limit ? QStringLiteral("%1 / %2").arg(row.used).arg(*row.limit)
                         : QStringLiteral("%1 / ?").arg(row.used);
    case HoldersColumn:
        if (!row.summarised)
            return QString();
        return row.waiters > 0 ? QStringLiteral("%1 (+%2 waiting)").arg(row.holders).arg(row.waiters)
                               : QString::number(row.holders);
    case ExpiryColumn: {
        // Consul holders have no expiry of their own; their sessions' TTL is the true bound.
        if (!row.soonestExpiryMs && row.sessionTtlMs)
            return QStringLiteral("session %1").arg(formatDurationMs(*row.sessionTtlMs));
        if (!row.soonestExpiryMs && row.summarised && row.holders > 0 &&
            backendOf(row.found.ref.kind) == Backend::Consul)
            return QStringLiteral("session, no TTL");
        if (!row.soonestExpiryMs)
            return row.summarised && row.holders > 0 ? QStringLiteral("no TTL") : QString();
        const qint64 ttl = *row.soonestExpiryMs - m_clock.serverNowMs();
        return ttl <= 0 ? QStringLiteral("expired") : formatDurationMs(ttl);
    }
    case StaleColumn:
        return row.summarised ? QString::number(row.attention) : QString();
    case WarningsColumn: {
        // A sign and how many: the column stays narrow enough to be always in view, and says
        // *that* something is wrong; the tooltip, the name's tooltip and the page say what.
        const qsizetype n = allWarnings(row).size();
        return n == 0 ? QString() : QStringLiteral("⚠ %1").arg(n);
    }
    case NodeColumn:
        return row.found.node;
    }
    return {};
}

QVariant SemaphoreListModel::data(const QModelIndex &index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return display(row, index.column());
    case SortRole:
        switch (index.column()) {
        case UsageColumn:
            return row.limit && *row.limit > 0 ? double(row.used) / double(*row.limit) : double(row.used);
        case HoldersColumn:
            return row.holders;
        case ExpiryColumn: {
            const auto ttl = soonestTtlMs(index.row());
            return ttl ? *ttl : row.sessionTtlMs.value_or(std::numeric_limits<qint64>::max());
        }
        case StaleColumn:
            return row.attention;
        case WarningsColumn:
            return int(allWarnings(row).size());
        case NodeColumn:
            // By master, then by slot within it.
            return QStringLiteral("%1 %2").arg(row.found.node).arg(row.found.slot, 5, 10, QLatin1Char('0'));
        default:
            return display(row, index.column());
        }
    case KindRole:
        return int(row.found.ref.kind);
    case StaleCountRole:
        return row.attention;
    case SoonestTtlMsRole: {
        const auto ttl = soonestTtlMs(index.row());
        return ttl ? QVariant::fromValue(*ttl) : QVariant();
    }
    case UsedRole:
        // No bar under "empty since …": it is text, not a level.
        return row.summarised && !showsEmpty(row) ? QVariant::fromValue(row.used) : QVariant();
    case LimitRole:
        return row.limit ? QVariant::fromValue(*row.limit) : QVariant();
    case SearchTextRole:
        return QString(row.found.ref.name + QLatin1Char(' ') + kindName(row.found.ref.kind) +
                       QLatin1Char(' ') + row.found.keys.join(QLatin1Char(' ')) + QLatin1Char(' ') +
                       row.found.node);
    case Qt::ToolTipRole:
        switch (index.column()) {
        case KindColumn:
            return kindDescription(row.found.ref.kind);
        case ExpiryColumn:
            if (row.soonestExpiryMs)
                return QStringLiteral("The first lease to run out, counting down between reads (server "
                                      "clock).");
            if (row.sessionTtlMs)
                return QStringLiteral(
                           "Consul holders have no expiry of their own: each lasts as long as its session. "
                           "The shortest session TTL here is %1; owners renew it, and a session that is not "
                           "renewed is invalidated within %1–%2.")
                    .arg(formatDurationMs(*row.sessionTtlMs), formatDurationMs(2 * *row.sessionTtlMs));
            if (row.summarised && row.holders > 0 && backendOf(row.found.ref.kind) == Backend::Consul)
                return QStringLiteral("The holders' Consul sessions have no TTL: each lasts until it is "
                                      "released or a health check of its node fails.");
            if (row.summarised && row.holders > 0)
                return QStringLiteral("No holder has a lease: a crashed holder keeps its slot until someone "
                                      "releases it. Watch the holders' age on the semaphore page.");
            return {};
        case StaleColumn:
            return QStringLiteral(
                "Holders that need attention: expired but still recorded, stale (owner gone), "
                "orphaned, or beyond the limit.");
        case WarningsColumn:
            return allWarnings(row).join(QLatin1Char('\n'));
        case NodeColumn:
            if (row.found.node.isEmpty())
                return {};
            return row.found.slot >= 0
                       ? QStringLiteral("Master %1, hash slot %2").arg(row.found.node).arg(row.found.slot)
                       : QStringLiteral("Served by %1").arg(row.found.node);
        case UsageColumn:
            if (showsEmpty(row))
                return QStringLiteral(
                           "None of its keys exist now (Redis deletes a ZSET or a lock key once its last "
                           "holder goes): last seen with keys at %1. Kept listed for the next holder; "
                           "right-click → Forget removes it, and View → Keep empty semaphores listed… "
                           "sets how long it stays.")
                    .arg(QLocale().toString(QDateTime::fromMSecsSinceEpoch(*row.emptySinceMs),
                                            QLocale::ShortFormat));
            return row.limit
                       ? QStringLiteral("Limit %1 (%2)").arg(*row.limit).arg(limitSourceName(row.limitSource))
                       : QStringLiteral("The limit is not stored in this layout; set it in the semaphore's "
                                        "profile.");
        case NameColumn: {
            // Why a row is there although no scan found it comes first.
            QString why;
            if (row.pinned)
                why = QStringLiteral("Opened by name (File → Open key…): listed on every scan. "
                                     "Right-click → Forget to stop.\n\n");
            if (showsEmpty(row))
                why += QStringLiteral("No keys now: %1 (seen before, kept listed; right-click → Forget "
                                      "removes it).\n\n")
                           .arg(emptySinceText(*row.emptySinceMs));
            // The keys, and what is wrong with them: the name stays in view when the list is narrow.
            return QString(why + (allWarnings(row).isEmpty()
                                      ? row.found.keys.join(QLatin1Char('\n'))
                                      : row.found.keys.join(QLatin1Char('\n')) + QStringLiteral("\n\n⚠ ") +
                                            allWarnings(row).join(QStringLiteral("\n⚠ "))));
        }
        default:
            return row.found.keys.join(QLatin1Char('\n'));
        }
    case Qt::ForegroundRole:
        if (showsEmpty(row) && index.column() != WarningsColumn)
            return QBrush(toneText(Tone::Muted));
        if (index.column() == StaleColumn && row.attention > 0)
            return QBrush(toneText(Tone::Bad));
        if (index.column() == WarningsColumn)
            return QBrush(toneText(Tone::Bad));
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == HoldersColumn || index.column() == StaleColumn ||
            index.column() == ExpiryColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    default:
        return {};
    }
}

QVariant SemaphoreListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char *const names[ColumnCount] = {
        "Kind", "Name", "Used / limit", "Holders", "Soonest expiry", "Stale", "⚠", "Node"};
    static const char *const tips[ColumnCount] = {
        "The layout the semaphore is kept in.",
        "Base key name (Redis) or KV prefix (Consul).",
        "Slots in use against the limit; the limit's source is in the tooltip.",
        "Holders recorded, and waiters where the layout has them.",
        "Time until the first lease runs out (counts down between reads); for Consul, the sessions' TTL.",
        "Holders needing attention: expired but present, stale, orphan, over the limit.",
        "Warnings: anything odd about the keys, and how many; the cell's tooltip and the semaphore page "
        "list them all.",
        "Redis Cluster: the master serving the semaphore's keys (host:port); its hash slot is in the "
        "cell's tooltip."};
    if (role == Qt::DisplayRole)
        return QString::fromUtf8(names[section]);
    if (role == Qt::ToolTipRole)
        return QString::fromUtf8(tips[section]);
    return {};
}

void SemaphoreListModel::clear() {
    if (m_rows.isEmpty())
        return;
    beginRemoveRows({}, 0, int(m_rows.size()) - 1);
    m_rows.clear();
    m_index.clear();
    endRemoveRows();
    m_ticker.stop();
}

void SemaphoreListModel::addDiscovered(const QList<DiscoveredSemaphore> &found) {
    QList<DiscoveredSemaphore> fresh;
    for (const auto &d : found) {
        const int row = rowOf(d.ref);
        if (row >= 0) {
            Row &r = m_rows[row];
            r.found.keys = d.keys;
            r.found.warnings = d.warnings;
            r.found.node = d.node; // a failover or a resharding moves it
            r.found.slot = d.slot;
            r.emptySinceMs.reset(); // found again: its keys are back
            Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
        } else if (!m_index.contains(keyOf(d.ref))) {
            bool dup = false;
            for (const auto &f : fresh)
                dup = dup || f.ref == d.ref;
            if (!dup)
                fresh.append(d);
        }
    }
    if (fresh.isEmpty())
        return;
    const int first = int(m_rows.size());
    beginInsertRows({}, first, first + int(fresh.size()) - 1);
    for (const auto &d : fresh) {
        Row r;
        r.found = d;
        m_rows.append(r);
        m_index.insert(keyOf(d.ref), int(m_rows.size()) - 1);
    }
    endInsertRows();
    if (!m_ticker.isActive())
        m_ticker.start();
}

void SemaphoreListModel::updateSnapshot(const Snapshot &snapshot) {
    int row = rowOf(snapshot.ref);
    if (row < 0) {
        DiscoveredSemaphore d;
        d.ref = snapshot.ref;
        d.keys = snapshot.keys;
        addDiscovered({d});
        row = rowOf(snapshot.ref);
    }
    m_clock.sync(snapshot.serverNowMs);
    Row &r = m_rows[row];
    r.summarised = true;
    r.found.ref.profile = snapshot.ref.profile;
    r.used = snapshot.usedCount();
    r.limit = snapshot.limit;
    r.limitSource = snapshot.limitSource;
    r.waiters = snapshot.countInState(HolderState::Waiting);
    r.holders = snapshot.holders.size() - r.waiters;
    r.attention = attentionCount(snapshot);
    r.soonestExpiryMs = snapshot.soonestExpiryMs();
    r.sessionTtlMs.reset();
    for (const Holder &h : snapshot.holders) {
        if (h.state == HolderState::Stale || h.state == HolderState::Orphan)
            continue;
        if (const auto ttl = HolderTableModel::sessionTtlMs(h))
            r.sessionTtlMs = std::min(*ttl, r.sessionTtlMs.value_or(*ttl));
    }
    r.snapshotWarnings = snapshot.warnings;
    // Where it lives, as its latest read found it: after a Cluster failover or a resharding the
    // master discovery named no longer serves it, and the read was redirected to the one that does.
    if (!snapshot.node.isEmpty())
        r.found.node = snapshot.node;
    if (snapshot.slot >= 0)
        r.found.slot = snapshot.slot;
    if (!snapshot.readFrom.isEmpty())
        r.found.readFrom = snapshot.readFrom;
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void SemaphoreListModel::retainOnly(const QList<SemaphoreRef> &present) {
    QSet<QString> keep;
    for (const auto &ref : present)
        keep.insert(keyOf(ref));
    for (int row = int(m_rows.size()) - 1; row >= 0; --row) {
        const Row &r = m_rows.at(row);
        if (keep.contains(keyOf(r.found.ref)) || r.pinned || r.emptySinceMs)
            continue;
        beginRemoveRows({}, row, row);
        m_rows.removeAt(row);
        endRemoveRows();
    }
    reindex();
}

void SemaphoreListModel::reindex() {
    m_index.clear();
    for (int i = 0; i < m_rows.size(); ++i)
        m_index.insert(keyOf(m_rows.at(i).found.ref), i);
}

void SemaphoreListModel::addPinned(const QList<SemaphoreRef> &refs) {
    QList<DiscoveredSemaphore> fresh;
    for (const SemaphoreRef &ref : refs) {
        if (rowOf(ref) >= 0)
            continue;
        DiscoveredSemaphore d;
        d.ref = ref;
        d.keys << ref.name;
        fresh << d;
    }
    addDiscovered(fresh);
    for (const SemaphoreRef &ref : refs) {
        const int row = rowOf(ref);
        if (row < 0 || m_rows.at(row).pinned)
            continue;
        m_rows[row].pinned = true;
        Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
    }
}

bool SemaphoreListModel::isPinned(int row) const {
    return row >= 0 && row < m_rows.size() && m_rows.at(row).pinned;
}

void SemaphoreListModel::markEmpty(const SemaphoreRef &ref, qint64 lastSeenMs) {
    if (rowOf(ref) < 0) {
        DiscoveredSemaphore d;
        d.ref = ref;
        addDiscovered({d});
    }
    const int row = rowOf(ref);
    Row &r = m_rows[row];
    if (r.emptySinceMs == lastSeenMs)
        return;
    // Its last summary is from before its keys went: until the next read, it is what the scan says.
    if (!r.emptySinceMs)
        r.summarised = false;
    r.emptySinceMs = lastSeenMs;
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

std::optional<qint64> SemaphoreListModel::emptySinceMs(int row) const {
    if (row < 0 || row >= m_rows.size())
        return std::nullopt;
    return m_rows.at(row).emptySinceMs;
}

bool SemaphoreListModel::remove(const SemaphoreRef &ref) {
    const int row = rowOf(ref);
    if (row < 0)
        return false;
    beginRemoveRows({}, row, row);
    m_rows.removeAt(row);
    endRemoveRows();
    reindex();
    return true;
}

bool SemaphoreListModel::showsEmpty(const Row &row) {
    // A scan may miss a semaphore that is not empty (a narrower MATCH since it was seen, a layout
    // discovery cannot place): when its read finds holders, it is shown as what it is.
    return row.emptySinceMs && (!row.summarised || (row.holders == 0 && row.waiters == 0));
}

QString SemaphoreListModel::emptySinceText(qint64 ms) {
    const QDateTime at = QDateTime::fromMSecsSinceEpoch(ms);
    const bool today = at.date() == QDate::currentDate();
    return QStringLiteral("empty since %1")
        .arg(at.toString(today ? QStringLiteral("HH:mm") : QStringLiteral("d MMM HH:mm")));
}

void SemaphoreListModel::tick() {
    if (m_rows.isEmpty())
        return;
    Q_EMIT dataChanged(index(0, ExpiryColumn), index(int(m_rows.size()) - 1, ExpiryColumn));
}

} // namespace semscope::model
