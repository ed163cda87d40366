#include "ElideLeftDelegate.h"

namespace semscope::ui {

void ElideLeftDelegate::initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const {
    QStyledItemDelegate::initStyleOption(option, index);
    option->textElideMode = Qt::ElideLeft;
}

} // namespace semscope::ui
