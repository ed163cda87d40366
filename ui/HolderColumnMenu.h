#pragma once

#include <QList>
#include <functional>

class QMenu;
class QTableView;

namespace semscope::ui {

// The holder table's header menu: one checkable entry per column the operator may show or hide on
// this page (`columns`, from model::holderColumnsToChoose), titled and explained as in the header,
// checked where the column is shown now. `toggled` gets the column and whether it is to be shown.
void addHolderColumnEntries(QMenu *menu, const QTableView *view, const QList<int> &columns,
                            const std::function<void(int column, bool shown)> &toggled);

} // namespace semscope::ui
