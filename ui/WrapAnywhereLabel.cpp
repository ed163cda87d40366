#include "WrapAnywhereLabel.h"

#include <QClipboard>
#include <QContextMenuEvent>
#include <QGuiApplication>
#include <QMenu>
#include <QPainter>
#include <QTextLayout>

namespace semscope::ui {

namespace {

// Lays `text` out in lines of at most `width` pixels; returns the height it takes.
qreal layOut(QTextLayout &layout, int width) {
    QTextOption option;
    option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    layout.setTextOption(option);
    layout.beginLayout();
    qreal y = 0;
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
        line.setLineWidth(std::max(1, width));
        line.setPosition(QPointF(0, y));
        y += line.height();
    }
    layout.endLayout();
    return y;
}

} // namespace

WrapAnywhereLabel::WrapAnywhereLabel(QWidget *parent)
    : QLabel(parent) {
    setTextFormat(Qt::PlainText);
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

int WrapAnywhereLabel::heightForWidth(int width) const {
    const QMargins m = contentsMargins();
    QTextLayout layout(text(), font());
    return qCeil(layOut(layout, width - m.left() - m.right())) + m.top() + m.bottom();
}

QSize WrapAnywhereLabel::sizeHint() const {
    // As wide as the text on one line; laid out narrower, heightForWidth says how high.
    const QMargins m = contentsMargins();
    const int width = fontMetrics().horizontalAdvance(text()) + m.left() + m.right() + 1;
    return {width, heightForWidth(width)};
}

QSize WrapAnywhereLabel::minimumSizeHint() const {
    // A few characters: the layout may make it as narrow as it needs, the text wraps.
    return {fontMetrics().averageCharWidth() * 4, fontMetrics().height()};
}

void WrapAnywhereLabel::paintEvent(QPaintEvent *) {
    QPainter painter(this);
    painter.setPen(palette().color(foregroundRole()));
    const QRect area = contentsRect();
    QTextLayout layout(text(), font());
    layOut(layout, area.width());
    layout.draw(&painter, area.topLeft());
}

void WrapAnywhereLabel::contextMenuEvent(QContextMenuEvent *event) {
    QMenu menu(this);
    menu.addAction(tr("Copy"), this, [this] { QGuiApplication::clipboard()->setText(text()); });
    menu.exec(event->globalPos());
}

} // namespace semscope::ui
