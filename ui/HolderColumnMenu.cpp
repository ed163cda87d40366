#include "HolderColumnMenu.h"

#include <QAction>
#include <QMenu>
#include <QTableView>

namespace semscope::ui {

void addHolderColumnEntries(QMenu *menu, const QTableView *view, const QList<int> &columns,
                            const std::function<void(int column, bool shown)> &toggled) {
    const QAbstractItemModel *model = view->model();
    menu->setToolTipsVisible(true);
    for (int column : columns) {
        const QString title = model->headerData(column, Qt::Horizontal).toString();
        auto *action = menu->addAction(title);
        action->setObjectName(QStringLiteral("showColumn") + title);
        action->setCheckable(true);
        action->setChecked(!view->isColumnHidden(column));
        action->setToolTip(model->headerData(column, Qt::Horizontal, Qt::ToolTipRole).toString());
        QObject::connect(action, &QAction::toggled, menu,
                         [toggled, column](bool on) { toggled(column, on); });
    }
}

} // namespace semscope::ui
