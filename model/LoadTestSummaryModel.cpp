#include "LoadTestSummaryModel.h"

#include "StatusColors.h"

#include <QBrush>
#include <QColor>

namespace semscope::model {

namespace {

double ms(qint64 ns) {
    return static_cast<double>(ns) / 1e6;
}

struct RowInfo {
    const char *name;
    const char *help;
};

// Names and tooltips, in Row order.
constexpr RowInfo kRows[] = {
    {QT_TRANSLATE_NOOP("LoadTestSummaryModel", "Pairs/s"),
     QT_TRANSLATE_NOOP("LoadTestSummaryModel",
                       "Acquire+release pairs per second (live: the last quarter second)")},
    {QT_TRANSLATE_NOOP("LoadTestSummaryModel", "Acquire wait p50"),
     QT_TRANSLATE_NOOP("LoadTestSummaryModel", "Half of the clients got their slot at least this fast "
                                               "(from wanting it to holding it, retries included)")},
    {QT_TRANSLATE_NOOP("LoadTestSummaryModel", "Acquire wait p90"),
     QT_TRANSLATE_NOOP("LoadTestSummaryModel", "9 in 10 acquires waited at most this long")},
    {QT_TRANSLATE_NOOP("LoadTestSummaryModel", "Acquire wait p99"),
     QT_TRANSLATE_NOOP("LoadTestSummaryModel", "99 in 100 acquires waited at most this long")},
    {QT_TRANSLATE_NOOP("LoadTestSummaryModel", "Acquire wait max"),
     QT_TRANSLATE_NOOP("LoadTestSummaryModel", "The longest single acquire")},
    {QT_TRANSLATE_NOOP("LoadTestSummaryModel", "Attempts per grant"),
     QT_TRANSLATE_NOOP("LoadTestSummaryModel", "Acquire calls per slot granted; 1 means nobody was turned "
                                               "away busy")},
    {QT_TRANSLATE_NOOP("LoadTestSummaryModel", "Fairness (Jain)"),
     QT_TRANSLATE_NOOP("LoadTestSummaryModel", "1.0: every client got the same number of slots; 1/clients: "
                                               "one client got them all")},
    {QT_TRANSLATE_NOOP("LoadTestSummaryModel", "Longest wait"),
     QT_TRANSLATE_NOOP("LoadTestSummaryModel", "The longest any client waited for a slot")},
    {QT_TRANSLATE_NOOP("LoadTestSummaryModel", "Over-admissions"),
     QT_TRANSLATE_NOOP("LoadTestSummaryModel", "Moments when more clients held a slot than the limit "
                                               "allows. Anything above 0 is a safety bug.")},
    {QT_TRANSLATE_NOOP("LoadTestSummaryModel", "Max holders at once"),
     QT_TRANSLATE_NOOP("LoadTestSummaryModel", "Most clients holding a slot at the same time")},
    {QT_TRANSLATE_NOOP("LoadTestSummaryModel", "Token violations"),
     QT_TRANSLATE_NOOP("LoadTestSummaryModel", "Fencing tokens that did not rise in grant order")},
    {QT_TRANSLATE_NOOP("LoadTestSummaryModel", "Crashed holders"),
     QT_TRANSLATE_NOOP("LoadTestSummaryModel", "Clients that vanished while holding, without releasing")},
    {QT_TRANSLATE_NOOP("LoadTestSummaryModel", "Slowest recovery"),
     QT_TRANSLATE_NOOP("LoadTestSummaryModel",
                       "Longest time from a crash until its slot was provably granted to someone else")},
    {QT_TRANSLATE_NOOP("LoadTestSummaryModel", "Slots not back"),
     QT_TRANSLATE_NOOP("LoadTestSummaryModel", "Crashed holders whose slot never provably came back before "
                                               "the end: leaked, or the run ended too soon")},
    {QT_TRANSLATE_NOOP("LoadTestSummaryModel", "Errors"),
     QT_TRANSLATE_NOOP("LoadTestSummaryModel", "Store calls that failed (not busy replies)")},
    {QT_TRANSLATE_NOOP("LoadTestSummaryModel", "Refused (not replicated)"),
     QT_TRANSLATE_NOOP(
         "LoadTestSummaryModel",
         "With \"Replicas must ack\": grants fewer replicas acknowledged in time, released again. "
         "The price of the option, with the WAIT in every acquire (in the acquire wait above); "
         "\"off\" when the run did not wait for replicas")},
    {QT_TRANSLATE_NOOP("LoadTestSummaryModel", "Grants"),
     QT_TRANSLATE_NOOP("LoadTestSummaryModel", "Slots granted during the run")},
};
static_assert(std::size(kRows) == LoadTestSummaryModel::RowCount);
} // namespace

LoadTestSummaryModel::LoadTestSummaryModel(QObject *parent)
    : QAbstractTableModel(parent) {}

void LoadTestSummaryModel::setRuns(const QStringList &labels) {
    beginResetModel();
    m_runs.clear();
    for (const QString &label : labels)
        m_runs.append(Run{label, std::nullopt, std::nullopt});
    endResetModel();
}

void LoadTestSummaryModel::setProgress(int run, const core::LoadTestProgress &progress) {
    if (run < 0 || run >= m_runs.size())
        return;
    m_runs[run].progress = progress;
    columnChanged(run);
}

void LoadTestSummaryModel::setReport(int run, const core::LoadTestReport &report) {
    if (run < 0 || run >= m_runs.size())
        return;
    m_runs[run].report = report;
    columnChanged(run);
    Q_EMIT headerDataChanged(Qt::Horizontal, run, run);
}

const core::LoadTestReport *LoadTestSummaryModel::report(int run) const {
    if (run < 0 || run >= m_runs.size() || !m_runs[run].report)
        return nullptr;
    return &*m_runs[run].report;
}

void LoadTestSummaryModel::columnChanged(int run) {
    Q_EMIT dataChanged(index(0, run), index(RowCount - 1, run));
}

int LoadTestSummaryModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : RowCount;
}

int LoadTestSummaryModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_runs.size());
}

std::optional<double> LoadTestSummaryModel::value(const Run &run, int row) const {
    if (const auto &r = run.report) {
        switch (Row(row)) {
        case PairsPerSecondRow:
            return r->pairsPerSecond;
        case AcquireP50Row:
            return r->acquireWait.percentileMs(50);
        case AcquireP90Row:
            return r->acquireWait.percentileMs(90);
        case AcquireP99Row:
            return r->acquireWait.percentileMs(99);
        case AcquireMaxRow:
            return r->acquireWait.maxMs();
        case AttemptsPerGrantRow:
            return r->attemptsPerGrant;
        case JainRow:
            return r->fairness.jainIndex;
        case LongestWaitRow:
            return ms(r->longestWaitNs);
        case OverAdmissionsRow:
            return double(r->safety.overAdmissions);
        case MaxHoldersRow:
            return double(r->safety.maxConcurrentHolders);
        case TokenViolationsRow:
            return double(r->safety.tokenViolations);
        case CrashesRow:
            return double(r->recovery.crashes);
        case RecoveryRow:
            return r->recovery.recovered > 0 ? std::optional<double>(ms(r->recovery.maxRecoveryNs))
                                             : std::nullopt;
        case LeakedRow:
            return double(r->recovery.leakedHolders.size());
        case ErrorsRow:
            return double(r->errors);
        case RefusedGrantsRow:
            return r->config.replicas > 0 ? std::optional<double>(double(r->refusedGrants)) : std::nullopt;
        case GrantsRow:
            return double(r->grants);
        case RowCount:
            break;
        }
        return std::nullopt;
    }
    if (const auto &p = run.progress) {
        switch (Row(row)) {
        case PairsPerSecondRow:
            return p->pairsPerSecond;
        case AcquireP50Row:
            return p->acquireP50Ms;
        case AcquireP90Row:
            return p->acquireP90Ms;
        case AcquireP99Row:
            return p->acquireP99Ms;
        case AcquireMaxRow:
            return p->acquireMaxMs;
        case AttemptsPerGrantRow:
            return p->grants > 0 ? std::optional<double>(double(p->attempts) / double(p->grants))
                                 : std::nullopt;
        case OverAdmissionsRow:
            return double(p->overAdmissions);
        case MaxHoldersRow:
            return double(p->maxHolders);
        case CrashesRow:
            return double(p->crashes);
        case ErrorsRow:
            return double(p->errors);
        case RefusedGrantsRow:
            return p->refusedGrants > 0 ? std::optional<double>(double(p->refusedGrants)) : std::nullopt;
        case GrantsRow:
            return double(p->grants);
        default:
            break;
        }
    }
    return std::nullopt;
}

QString LoadTestSummaryModel::text(const Run &run, int row) const {
    const std::optional<double> v = value(run, row);
    if (!v) {
        if (row == RecoveryRow && run.report)
            return run.report->recovery.crashes > 0 ? tr("none came back") : tr("no crashes");
        if (row == RefusedGrantsRow && run.report)
            return tr("off");
        return run.report || run.progress ? tr("—") : QString();
    }
    switch (Row(row)) {
    case PairsPerSecondRow:
        return QString::number(*v, 'f', 0);
    case AcquireP50Row:
    case AcquireP90Row:
    case AcquireP99Row:
    case AcquireMaxRow:
    case LongestWaitRow:
    case RecoveryRow:
        return tr("%1 ms").arg(*v, 0, 'f', 2);
    case AttemptsPerGrantRow:
        return QString::number(*v, 'f', 2);
    case JainRow:
        return QString::number(*v, 'f', 3);
    case MaxHoldersRow: {
        const int limit = run.report ? run.report->config.limit : run.progress->limit;
        return tr("%1 (limit %2)").arg(qint64(*v)).arg(limit);
    }
    case OverAdmissionsRow:
        if (!run.report)
            return tr("%1 so far").arg(qint64(*v));
        return QString::number(qint64(*v));
    case RefusedGrantsRow:
        if (!run.report)
            return tr("%1 so far").arg(qint64(*v));
        return tr("%1 (WAIT %2, %3 ms)")
            .arg(qint64(*v))
            .arg(run.report->config.replicas)
            .arg(run.report->config.replicaTimeoutMs);
    default:
        return QString::number(qint64(*v));
    }
}

QVariant LoadTestSummaryModel::foreground(const Run &run, int row) const {
    const std::optional<double> v = value(run, row);
    if (!v)
        return {};
    switch (Row(row)) {
    case OverAdmissionsRow:
    case TokenViolationsRow:
        // Zero is only proven once the final sweep has run; a live count above zero is proof enough.
        if (*v > 0)
            return QBrush(toneText(Tone::Bad));
        return run.report ? QVariant(QBrush(toneText(Tone::Good))) : QVariant();
    case MaxHoldersRow: {
        const int limit = run.report ? run.report->config.limit : run.progress->limit;
        return *v > limit ? QVariant(QBrush(toneText(Tone::Bad))) : QVariant();
    }
    case LeakedRow:
        return *v > 0 ? QVariant(QBrush(toneText(Tone::Bad))) : QVariant();
    case ErrorsRow:
        return *v > 0 ? QVariant(QBrush(toneText(Tone::Bad))) : QVariant();
    default:
        return {};
    }
}

QVariant LoadTestSummaryModel::data(const QModelIndex &index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Run &run = m_runs[index.column()];
    switch (role) {
    case Qt::DisplayRole:
        return text(run, index.row());
    case ValueRole: {
        const auto v = value(run, index.row());
        return v ? QVariant(*v) : QVariant();
    }
    case Qt::ForegroundRole:
        return foreground(run, index.row());
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        return tr(kRows[index.row()].help);
    default:
        return {};
    }
}

QVariant LoadTestSummaryModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Vertical) {
        if (section < 0 || section >= RowCount)
            return {};
        if (role == Qt::DisplayRole)
            return tr(kRows[section].name);
        if (role == Qt::ToolTipRole)
            return tr(kRows[section].help);
        return {};
    }
    if (section < 0 || section >= m_runs.size())
        return {};
    const Run &run = m_runs[section];
    if (role == Qt::DisplayRole) {
        if (run.report)
            return run.report->cancelled ? tr("%1 (stopped)").arg(run.label) : run.label;
        return run.progress ? tr("%1 (running)").arg(run.label) : run.label;
    }
    return {};
}

} // namespace semscope::model
