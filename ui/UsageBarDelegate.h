#pragma once

#include <QStyledItemDelegate>

namespace semscope::ui {

// Draws "used / limit" over a bar filled to used/limit: green, amber from 80 %, red when full or over.
class UsageBarDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override;
};

} // namespace semscope::ui
