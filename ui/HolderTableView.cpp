#include "HolderTableView.h"

#include "PlainTextDelegate.h"
#include "model/HolderTableModel.h"

#include <QHeaderView>

namespace semscope::ui {

using model::HolderTableModel;

HolderTableView::HolderTableView(QWidget *parent)
    : QTableView(parent) {
    setItemDelegate(new PlainTextDelegate(this));
}

void HolderTableView::updateTimeColumns() {
    const int height = viewport()->height();
    for (int column :
         {HolderTableModel::AgeColumn, HolderTableModel::TtlColumn, HolderTableModel::StateColumn}) {
        if (isColumnHidden(column))
            continue;
        const int x = columnViewportPosition(column);
        const int width = columnWidth(column);
        if (x + width >= 0 && x < viewport()->width())
            viewport()->update(QRect(x, 0, width, height));
    }
}

} // namespace semscope::ui
