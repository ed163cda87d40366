#pragma once

#include "core/loadtest/LoadTestReport.h"

#include <QAbstractTableModel>
#include <QList>
#include <optional>

namespace semscope::model {

// The figures of one or more load-test runs side by side: one row per figure, one column per run.
// While a run goes on, the figures a live sample has (throughput, latency of the last window,
// over-admissions seen so far, holders, errors) are shown from it; the rest waits for the report.
class LoadTestSummaryModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Row {
        PairsPerSecondRow,
        AcquireP50Row,
        AcquireP90Row,
        AcquireP99Row,
        AcquireMaxRow,
        AttemptsPerGrantRow,
        JainRow,
        LongestWaitRow,
        OverAdmissionsRow,
        MaxHoldersRow,
        TokenViolationsRow,
        CrashesRow,
        RecoveryRow,
        LeakedRow,
        ErrorsRow,
        RefusedGrantsRow,
        GrantsRow,
        RowCount
    };
    // The number behind a cell (double), or no value while it is not known yet.
    static constexpr int ValueRole = Qt::UserRole + 1;

    explicit LoadTestSummaryModel(QObject *parent = nullptr);

    // One column per run, named after it; clears every figure.
    void setRuns(const QStringList &labels);
    int runCount() const { return int(m_runs.size()); }
    void setProgress(int run, const core::LoadTestProgress &progress);
    void setReport(int run, const core::LoadTestReport &report);
    const core::LoadTestReport *report(int run) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Run {
        QString label;
        std::optional<core::LoadTestProgress> progress;
        std::optional<core::LoadTestReport> report;
    };
    std::optional<double> value(const Run &run, int row) const;
    QString text(const Run &run, int row) const;
    QVariant foreground(const Run &run, int row) const;
    void columnChanged(int run);

    QList<Run> m_runs;
};

} // namespace semscope::model
