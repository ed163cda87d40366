#include "HolderTableModel.h"

#include "StatusColors.h"

#include "core/Duration.h"
#include "core/Kind.h"
#include "core/HolderStateText.h"

#include <QBrush>
#include <QColor>
#include <QDateTime>
#include <QRegularExpression>
#include <QSet>
#include <algorithm>

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
    return rowOfKey(rawId);
}

int HolderTableModel::rowOfKey(const QByteArray &key) const {
    const int slot = m_index.value(key, -1);
    return slot >= 0 ? m_slotRow.at(slot) : -1;
}

std::optional<qint64> HolderTableModel::ttlMs(const Holder &holder) const {
    return holder.ttlMs(m_clock.serverNowMs());
}

qint64 HolderTableModel::ageMs(const Holder &holder) const {
    if (holder.acquiredAtMs)
        return m_clock.serverNowMs() - *holder.acquiredAtMs;
    if (holder.firstSeenMs)
        return m_clock.localNowMs() - *holder.firstSeenMs;
    // A holder of this model (holderAt()): its row without a lookup by id.
    const Row *rows = m_rows.constData();
    const auto at = reinterpret_cast<quintptr>(&holder);
    const auto begin = reinterpret_cast<quintptr>(rows);
    if (at >= begin && at < begin + quintptr(m_rows.size()) * sizeof(Row)) {
        const auto r = qsizetype((at - begin) / sizeof(Row));
        if (&rows[r].holder == &holder)
            return m_clock.localNowMs() - rows[r].firstSeenLocalMs;
    }
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

// A waiter's rank is its place in the queue, not a rank among holders: sorted after every holder.
// A `slots` holder has no rank, only a slot number: the page's default order (by rank) is then by
// slot.
qint64 rankSortKey(const Holder &h) {
    constexpr qint64 kInLine = qint64(1) << 40;
    if (!h.rank)
        return h.slot ? *h.slot : std::numeric_limits<qint64>::max();
    return h.placeInLine() ? kInLine + *h.rank : *h.rank;
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
        if (const auto place = h.placeInLine())
            return QStringLiteral("line %1").arg(*place);
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
    case AgeColumn: {
        // An age only where the layout records the acquire time; otherwise it is how long semscope
        // has watched the holder, and says so (a lock seen a minute ago may be held for a week).
        const QString age = core::formatDurationMs(std::max<qint64>(0, ageMs(row)));
        return h.acquiredAtMs ? age : QStringLiteral("watched for %1").arg(age);
    }
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
        return rankSortKey(h);
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
        return rankSortKey(h);
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

bool HolderTableModel::hasNumericSortKey(int column) {
    switch (column) {
    case RankColumn:
    case SlotColumn:
    case TokenColumn:
    case AcquiredColumn:
    case AgeColumn:
    case TtlColumn:
    case StateColumn:
        return true;
    default:
        return false;
    }
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
                               core::holderStateDescription(state, m_snapshot.ref.kind).toHtmlEscaped());
        if (index.column() == TtlColumn) {
            if (!h.expiresAtMs)
                tip += QStringLiteral("<br>This layout keeps no lease: a crashed holder keeps its slot until "
                                      "someone releases it. Watch the age.");
            else if (state == HolderState::Waiting)
                tip += QStringLiteral("<br>How long it keeps its place in line: a waiting client renews it "
                                      "while it waits, and one that stops drops out of the queue.");
            else
                tip += QStringLiteral("<br>Counts down locally between reads, from the expiry stored on the "
                                      "server and the server clock measured at the last read.");
        }
        return tip;
    }
    case Qt::BackgroundRole: {
        const HolderState state = effectiveState(h);
        // Tints of the palette's base (StatusColors): legible under a dark theme too.
        if (state == HolderState::ExpiredPresent)
            return QBrush(toneBackground(Tone::Bad));
        if (state == HolderState::Stale || state == HolderState::Orphan)
            return QBrush(toneBackground(Tone::Caution));
        if (state == HolderState::OverLimit)
            return QBrush(toneBackground(Tone::OverLimit));
        // A waiter's countdown is its place in line, renewed every few seconds: nothing to warn about.
        if (index.column() == TtlColumn && state != HolderState::Waiting) {
            const QString band = ttlBand(ttlMs(h));
            if (band == QLatin1String("critical"))
                return QBrush(toneBackground(Tone::Caution, currentPalette(), 0.8));
            if (band == QLatin1String("low"))
                return QBrush(toneBackground(Tone::Caution, currentPalette(), 0.4));
        }
        return {};
    }
    case Qt::ForegroundRole: {
        const HolderState state = effectiveState(h);
        if (state == HolderState::ExpiredPresent)
            return QBrush(toneText(Tone::Bad));
        if (state == HolderState::Waiting)
            return QBrush(toneText(Tone::Muted));
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
        "How long it has held, where the layout records its acquire time; otherwise \"watched for\": how "
        "long semscope has seen it on this connection.",
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
    const bool consul = core::backendOf(snapshot.ref.kind) == core::Backend::Consul;
    m_consul = consul;
    m_snapshot = snapshot;
    m_snapshot.holders.clear();

    // One pass over the incoming holders: the row each updates, or a newcomer. Holders that come
    // in the order of the rows are matched by position, the others looked up once in the index.
    // No second hash of 10,000 ids is built per refresh (that, and rebuilding the index, was most
    // of a refresh's cost). A duplicate id (a corrupt layout) gets a suffix so it still shows as
    // its own row.
    const int oldCount = int(m_rows.size());
    QList<int> match(oldCount, -1); // row -> incoming holder that updates it
    struct Added {
        QByteArray key;
        int holder;
        int slot;
    };
    QList<Added> added;
    if (oldCount == 0)
        m_index.reserve(snapshot.holders.size());
    int next = 0; // the row after the last one matched: where the next holder usually is
    for (int i = 0; i < snapshot.holders.size(); ++i) {
        const Holder &incoming = snapshot.holders.at(i);
        // Holders mostly come in the order of the rows (newcomers at the end, leavers anywhere):
        // look a little ahead of the last match before asking the index.
        const QByteArray base = keyOf(incoming);
        int row = -1;
        for (int r = next; r < oldCount && r < next + 8; ++r) {
            if (match.at(r) < 0 && m_rows.at(r).key == base) {
                row = r;
                break;
            }
        }
        if (row >= 0) {
            match[row] = i;
            next = row + 1;
            continue;
        }
        // A newcomer gets its slot (no row yet: -1) and its key in the index right away, so a
        // duplicate id later in this read finds it taken without a second set of keys.
        QByteArray key = base;
        int slot = m_index.value(key, -1);
        row = slot >= 0 ? m_slotRow.at(slot) : -1;
        for (int n = 2; slot >= 0 && (row < 0 || match.at(row) >= 0) && n < 1000000; ++n) {
            key = base + '#' + QByteArray::number(n);
            slot = m_index.value(key, -1);
            row = slot >= 0 ? m_slotRow.at(slot) : -1;
        }
        if (row >= 0) {
            match[row] = i;
            next = row + 1;
        } else {
            if (m_freeSlots.isEmpty()) {
                slot = int(m_slotRow.size());
                m_slotRow.append(-1);
            } else {
                slot = m_freeSlots.takeLast();
            }
            m_index.insert(key, slot);
            added.append({key, i, slot});
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
        for (int r = first; r <= last; ++r) {
            m_index.remove(m_rows.at(r).key);
            m_slotRow[m_rows.at(r).slot] = -1;
            m_freeSlots.append(m_rows.at(r).slot);
        }
        m_rows.remove(first, last - first + 1);
        match.remove(first, last - first + 1);
        endRemoveRows();
        firstMoved = first;
    }
    // Rows below a removed range moved up: their positions change, their keys' slots do not, so
    // no key is hashed again.
    for (int r = firstMoved; r < m_rows.size(); ++r)
        m_slotRow[m_rows.at(r).slot] = r;

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
        if (m_rows.isEmpty())
            m_rows.reserve(added.size());
        for (const Added &a : std::as_const(added)) {
            m_slotRow[a.slot] = int(m_rows.size());
            m_rows.append(Row{snapshot.holders.at(a.holder), now, a.key, a.slot});
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
        m_slotRow.clear();
        m_freeSlots.clear();
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
