#include "LoadTestSummaryTable.h"

#include "model/LoadTestSummaryModel.h"

#include <QHeaderView>
#include <QScrollBar>

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
    // New figures may be wider than the last ones: ask the layout for the room again.
    connect(model, &QAbstractItemModel::modelReset, this, [this] { updateGeometry(); });
    connect(model, &QAbstractItemModel::columnsInserted, this, [this] { updateGeometry(); });
    connect(model, &QAbstractItemModel::dataChanged, this, [this] { updateGeometry(); });
}

void LoadTestSummaryTable::setRowsWanted(int rows) {
    m_rowsWanted = rows;
    updateGeometry();
}

QSize LoadTestSummaryTable::sizeHint() const {
    const int rows = m_rowsWanted > 0 ? std::min(m_rowsWanted, m_model->rowCount()) : m_model->rowCount();
    // The column header may not be laid out yet when this is first asked: count at least a row for it.
    const int row = verticalHeader()->defaultSectionSize();
    const int header = std::max(horizontalHeader()->sizeHint().height(), row + 4);
    const int height = header + rows * row + 2 * frameWidth() + 2;
    return {QTableView::sizeHint().width(), height};
}

QSize LoadTestSummaryTable::minimumSizeHint() const {
    int width = verticalHeader()->sizeHint().width() + 2 * frameWidth();
    for (int column = 0; column < m_model->columnCount(); ++column)
        width += std::max(horizontalHeader()->sectionSizeHint(column), sizeHintForColumn(column));
    // The table scrolls when it is short: keep the figures clear of the scroll bar.
    width += verticalScrollBar()->sizeHint().width();
    // An empty table still shows where the figures will go.
    width = std::max(width, fontMetrics().averageCharWidth() * 34);
    return {width, QTableView::minimumSizeHint().height()};
}

} // namespace semscope::ui
