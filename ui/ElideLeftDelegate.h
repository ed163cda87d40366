#pragma once

#include <QStyledItemDelegate>

namespace semscope::ui {

// Cuts a cell's text on the left ("…:7002"): for addresses whose end tells them apart (every
// Cluster master on one host differs only in its port).
class ElideLeftDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override;
};

} // namespace semscope::ui
