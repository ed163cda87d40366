#include "LoadTestSummaryTable.h"

#include "model/LoadTestSummaryModel.h"

#include <QHeaderView>

namespace semscope::ui {

LoadTestSummaryTable::LoadTestSummaryTable(model::LoadTestSummaryModel *model, QWidget *parent)
    : QTableView(parent)
    , m_model(model) {
    setObjectName(QStringLiteral("loadTestSummary"));
    setModel(model);
    setSelectionMode(QAbstractItemView::NoSelection);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setWordWrap(false);
    setAlternatingRowColors(true);
    setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    verticalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
}

QSize LoadTestSummaryTable::sizeHint() const {
    // Every figure visible without scrolling.
    const int rows = m_model->rowCount();
    // The column header may not be laid out yet when this is first asked: count at least a row for it.
    const int row = verticalHeader()->defaultSectionSize();
    const int header = std::max(horizontalHeader()->sizeHint().height(), row + 4);
    const int height = header + rows * row + 2 * frameWidth() + 2;
    return {QTableView::sizeHint().width(), height};
}

} // namespace semscope::ui
