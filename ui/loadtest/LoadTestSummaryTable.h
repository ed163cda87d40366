#pragma once

#include <QTableView>

namespace semscope::model {
class LoadTestSummaryModel;
}

namespace semscope::ui {

// The summary figures of a run as a compact two-column table: what was measured, and its value
// (red where safety was broken, green where it provably held). Hover a figure to see what it means.
class LoadTestSummaryTable : public QTableView {
    Q_OBJECT
public:
    explicit LoadTestSummaryTable(model::LoadTestSummaryModel *model, QWidget *parent = nullptr);

    model::LoadTestSummaryModel *summaryModel() const { return m_model; }
    QSize sizeHint() const override;

private:
    model::LoadTestSummaryModel *m_model;
};

} // namespace semscope::ui
