#pragma once

#include <QList>
#include <QMap>
#include <QObject>
#include <QPointer>
#include <QTimer>

class QAbstractItemModel;
class QTableView;

namespace semscope::ui {

// Widens `columns`, in that order, towards the width their cells need (the rows in view, at most
// `maxWidth` each), out of the room left in the viewport: a holder's name or a session's node is
// read whole instead of the last column stretching over empty space. Only columns wholly in view
// grow, and never past the viewport's edge, so nothing in view is pushed out of it. Never narrows a
// column, so the widths an operator set stay. Returns how much each column grew.
QMap<int, int> growColumnsIntoSpareWidth(QTableView *view, const QList<int> &columns, int maxWidth);

// Applies growColumnsIntoSpareWidth to a table whenever the table is resized or its rows change
// (coalesced: once per turn of the event loop). `maxChars` is in the view's average character
// width, so a zoomed view grows as far. A column the operator drags to a width is left at it. When
// the table narrows, the columns give back what they grew and grow anew for the room left.
class SpareWidthKeeper : public QObject {
    Q_OBJECT
public:
    SpareWidthKeeper(QTableView *view, QList<int> columns, int maxChars);
    // The view's model to follow; call again after the view is given another one.
    void follow(QAbstractItemModel *model);
    // After columns were shown or hidden: grows into what room there is now.
    void refit() { m_soon.start(); }
    // Other rows altogether (another semaphore on the same table): the columns go back to the
    // widths they had before growing, then grow for these rows.
    void restart();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void apply();

    QTableView *m_view;
    QList<int> m_columns;
    QList<int> m_setByOperator;
    QMap<int, int> m_grown; // column -> pixels this keeper added
    int m_maxChars;
    bool m_resizing = false; // the sections resized now are this keeper's doing
    QPointer<QAbstractItemModel> m_model;
    QTimer m_soon;
};

} // namespace semscope::ui
