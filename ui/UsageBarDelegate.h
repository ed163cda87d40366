#pragma once

#include <QStyledItemDelegate>

namespace semscope::ui {

// Draws "used / limit" over a bar filled to used/limit: green, amber from 80 %, red when full or over.
// Other text (a kept semaphore's "empty since 23:10") is cut in the middle, so the time stays.
class UsageBarDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override;

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override;
};

} // namespace semscope::ui
