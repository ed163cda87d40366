#include "UsageBarDelegate.h"

#include "model/SemaphoreListModel.h"

#include <QPainter>

namespace semscope::ui {

void UsageBarDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option,
                             const QModelIndex &index) const {
    const QVariant used = index.data(model::SemaphoreListModel::UsedRole);
    const QVariant limit = index.data(model::SemaphoreListModel::LimitRole);
    if (used.isValid() && limit.isValid() && limit.toLongLong() > 0) {
        const double ratio = double(used.toLongLong()) / double(limit.toLongLong());
        QColor color = ratio > 1.0    ? QColor(0xe5, 0x73, 0x73)
                       : ratio >= 1.0 ? QColor(0xff, 0xb7, 0x4d)
                       : ratio >= 0.8 ? QColor(0xff, 0xe0, 0x82)
                                      : QColor(0xa5, 0xd6, 0xa7);
        QRect bar = option.rect.adjusted(2, 3, -2, -3);
        painter->save();
        if (option.state & QStyle::State_Selected)
            painter->fillRect(option.rect, option.palette.highlight());
        painter->fillRect(bar, QColor(0xee, 0xee, 0xee));
        bar.setWidth(int(bar.width() * std::min(1.0, ratio)));
        painter->fillRect(bar, color);
        painter->restore();
        QStyleOptionViewItem opt = option;
        opt.state &= ~QStyle::State_Selected;
        opt.backgroundBrush = Qt::NoBrush;
        opt.displayAlignment = Qt::AlignCenter;
        opt.palette.setColor(QPalette::Text, Qt::black);
        QStyledItemDelegate::paint(painter, opt, index);
        return;
    }
    QStyledItemDelegate::paint(painter, option, index);
}

} // namespace semscope::ui
