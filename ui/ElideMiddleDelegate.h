#pragma once

#include <QStyledItemDelegate>

namespace semscope::ui {

// Cuts a cell's text in the middle ("redis-ma…internal:7002"): for node addresses, whose start names
// the host and whose end the port; a Cluster's masters differ in one or the other.
class ElideMiddleDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override;
};

} // namespace semscope::ui
