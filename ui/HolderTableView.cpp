#include "HolderTableView.h"

#include "PlainTextDelegate.h"
#include "SpareWidth.h"
#include "model/HolderTableModel.h"

#include <QHeaderView>
#include <QKeyEvent>

namespace semscope::ui {

using model::HolderTableModel;

HolderTableView::HolderTableView(QWidget *parent)
    : QTableView(parent)
    // When the lease ends and how the holder is doing first: short texts ("expired 33.4 s ago")
    // that a long holder id (Redisson's 40 hex digits, whole on the card) took all the room from at
    // 1280x720. Then who holds the slot; tokens and times after.
    , m_spareWidth(new SpareWidthKeeper(this,
                                        {HolderTableModel::TtlColumn, HolderTableModel::StateColumn,
                                         HolderTableModel::HolderColumn, HolderTableModel::AgeColumn,
                                         HolderTableModel::SessionColumn, HolderTableModel::NodeColumn,
                                         HolderTableModel::BehaviorColumn, HolderTableModel::HealthColumn,
                                         HolderTableModel::TokenColumn, HolderTableModel::AcquiredColumn},
                                        48)) {
    auto *delegate = new PlainTextDelegate(this);
    // Tokens of one counter share their leading digits ("17959604903…" three times over at
    // 1280x720): the digits that differ are kept. Holder ids keep both ends, worker and host.
    delegate->setElideMode(HolderTableModel::TokenColumn, Qt::ElideLeft);
    delegate->setElideMode(HolderTableModel::HolderColumn, Qt::ElideMiddle);
    setItemDelegate(delegate);
}

void HolderTableView::setModel(QAbstractItemModel *model) {
    QTableView::setModel(model);
    m_spareWidth->follow(model);
}

void HolderTableView::refitColumns() {
    m_spareWidth->refit();
}

void HolderTableView::restartColumnFit() {
    m_spareWidth->restart();
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

void HolderTableView::keyPressEvent(QKeyEvent *event) {
    // An enabled force-release action takes Delete as its shortcut before it gets here.
    if (event->matches(QKeySequence::Delete)) {
        Q_EMIT deleteRefused();
        event->accept();
        return;
    }
    QTableView::keyPressEvent(event);
}

} // namespace semscope::ui
