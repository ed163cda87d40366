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
    // How many figures the table asks room for (0: all of them); the rest scroll.
    void setRowsWanted(int rows);
    QSize sizeHint() const override;
    // Wide enough for the names and every figure whole, whatever the run measured.
    QSize minimumSizeHint() const override;

private:
    model::LoadTestSummaryModel *m_model;
    int m_rowsWanted = 0;
};

} // namespace semscope::ui
