#include "SpareWidth.h"

#include <QEvent>
#include <QGuiApplication>
#include <QHeaderView>
#include <QResizeEvent>
#include <QTableView>

namespace semscope::ui {

namespace {

// What a column's cells and title need, the rows in view only. QTableView measures the rows in view
// and then goes on above and below them until it has measured the horizontal header's
// resizeContentsPrecision rows (1,000 by default): 40 ms per refresh on a 10,000-holder semaphore.
// So the precision is the number of rows in view while measuring. QTableView hides its override of
// sizeHintForColumn; QAbstractItemView's is public.
int neededWidth(QTableView *view, int column) {
    const QHeaderView *rows = view->verticalHeader();
    const int top = std::max(0, rows->visualIndexAt(0));
    const int bottom = rows->visualIndexAt(view->viewport()->height());
    const int inView = bottom < 0 ? rows->count() - top : bottom - top + 1;
    QHeaderView *columns = view->horizontalHeader();
    const int precision = columns->resizeContentsPrecision();
    columns->setResizeContentsPrecision(std::max(1, inView));
    const QAbstractItemView *asView = view;
    const int cells = asView->sizeHintForColumn(column);
    columns->setResizeContentsPrecision(precision);
    return std::max(cells, columns->sectionSizeHint(column));
}

} // namespace

QMap<int, int> growColumnsIntoSpareWidth(QTableView *view, const QList<int> &columns, int maxWidth) {
    QHeaderView *header = view->horizontalHeader();
    QList<int> visible; // left to right
    for (int visual = 0; visual < header->count(); ++visual) {
        if (!header->isSectionHidden(header->logicalIndex(visual)))
            visible << header->logicalIndex(visual);
    }
    QMap<int, int> grown;
    if (visible.isEmpty())
        return grown;
    const int last = visible.last();
    // The columns wholly in view: growing one of them pushes only columns that are out of view
    // already. The last column counts with what its own cells need (stretched, it holds the
    // spare room, and gives it back as the others grow).
    QList<int> inView;
    int used = 0;
    for (int logical : std::as_const(visible)) {
        const int width = logical == last ? std::min(header->sectionSize(logical), neededWidth(view, logical))
                                          : header->sectionSize(logical);
        if (used + width > view->viewport()->width())
            break;
        inView << logical;
        used += width;
    }
    int spare = view->viewport()->width() - used;
    for (int column : columns) {
        if (spare <= 0)
            break;
        if (column == last || !inView.contains(column))
            continue;
        const int grow =
            std::min(spare, std::min(maxWidth, neededWidth(view, column)) - header->sectionSize(column));
        if (grow <= 0)
            continue;
        header->resizeSection(column, header->sectionSize(column) + grow);
        grown[column] = grow;
        spare -= grow;
    }
    return grown;
}

SpareWidthKeeper::SpareWidthKeeper(QTableView *view, QList<int> columns, int maxChars)
    : QObject(view)
    , m_view(view)
    , m_columns(std::move(columns))
    , m_maxChars(maxChars) {
    m_soon.setSingleShot(true);
    m_soon.setInterval(0);
    connect(&m_soon, &QTimer::timeout, this, &SpareWidthKeeper::apply);
    view->viewport()->installEventFilter(this);
    // A section resized, not by this keeper, while a mouse button is down over the header is the
    // operator dragging its edge. (A splitter dragged beside the table resizes sections too.)
    connect(view->horizontalHeader(), &QHeaderView::sectionResized, this, [this](int logical) {
        if (m_resizing)
            return;
        // Set by someone else (a saved layout restored, the widths fitted to a zoomed font): what
        // this keeper grew is not in it any more, and restart() must not take it off again.
        m_grown.remove(logical);
        if (QGuiApplication::mouseButtons() != Qt::NoButton && m_view->horizontalHeader()->underMouse() &&
            !m_setByOperator.contains(logical))
            m_setByOperator << logical; // the operator's width now
    });
    follow(view->model());
}

void SpareWidthKeeper::follow(QAbstractItemModel *model) {
    if (m_model)
        disconnect(m_model, nullptr, &m_soon, nullptr);
    m_model = model;
    if (!model)
        return;
    auto soon = qOverload<>(&QTimer::start);
    connect(model, &QAbstractItemModel::modelReset, &m_soon, soon);
    connect(model, &QAbstractItemModel::layoutChanged, &m_soon, soon);
    connect(model, &QAbstractItemModel::rowsInserted, &m_soon, soon);
    connect(model, &QAbstractItemModel::dataChanged, &m_soon, soon);
    m_soon.start();
}

bool SpareWidthKeeper::eventFilter(QObject *watched, QEvent *event) {
    // Narrower (the holder card beside it grew, the window shrank): what the columns grew while
    // there was more room would push the last ones out of view. Give it back and grow anew.
    if (event->type() == QEvent::Resize && !m_grown.isEmpty()) {
        const auto *resize = static_cast<QResizeEvent *>(event);
        if (resize->oldSize().width() > 0 && resize->size().width() < resize->oldSize().width()) {
            restart();
            return QObject::eventFilter(watched, event);
        }
    }
    if (event->type() == QEvent::Resize || event->type() == QEvent::Show)
        m_soon.start();
    return QObject::eventFilter(watched, event);
}

void SpareWidthKeeper::apply() {
    // A hidden table would measure every row (Qt has no rows "in view" then): it fits when shown.
    if (!m_view->isVisible())
        return;
    const int ch = std::max(6, m_view->fontMetrics().averageCharWidth());
    QList<int> columns = m_columns;
    columns.removeIf([this](int c) { return m_setByOperator.contains(c); });
    m_resizing = true;
    const QMap<int, int> grown = growColumnsIntoSpareWidth(m_view, columns, m_maxChars * ch);
    m_resizing = false;
    for (auto it = grown.begin(); it != grown.end(); ++it)
        m_grown[it.key()] += it.value();
}

void SpareWidthKeeper::restart() {
    QHeaderView *header = m_view->horizontalHeader();
    m_resizing = true;
    for (auto it = m_grown.begin(); it != m_grown.end(); ++it)
        header->resizeSection(it.key(), std::max(header->sectionSizeHint(it.key()),
                                                 header->sectionSize(it.key()) - it.value()));
    m_resizing = false;
    m_grown.clear();
    m_soon.start();
}

} // namespace semscope::ui
