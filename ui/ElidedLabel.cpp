#include "ElidedLabel.h"

#include <QEvent>

namespace semscope::ui {

ElidedLabel::ElidedLabel(QWidget *parent)
    : QLabel(parent) {
    setTextFormat(Qt::PlainText);
}

void ElidedLabel::setFullText(const QString &text) {
    m_full = text;
    setToolTip(text);
    elide();
    updateGeometry(); // the width it asks for is the whole text's
}

int ElidedLabel::chromeWidth() const {
    const QMargins m = contentsMargins();
    return 2 * frameWidth() + m.left() + m.right() + 2 * margin() + std::max(0, indent());
}

QSize ElidedLabel::sizeHint() const {
    // QLabel's own hint follows the text shown, which is the elided one once cut: the label would
    // never ask for the room to show the whole name again. +1: the advance is rounded down.
    return {fontMetrics().horizontalAdvance(m_full) + 1 + chromeWidth(), QLabel::sizeHint().height()};
}

QSize ElidedLabel::minimumSizeHint() const {
    // Room for a few characters and the ellipsis; the layout decides the rest.
    return {fontMetrics().horizontalAdvance(QStringLiteral("MMM…")) + chromeWidth(),
            QLabel::minimumSizeHint().height()};
}

void ElidedLabel::resizeEvent(QResizeEvent *event) {
    QLabel::resizeEvent(event);
    elide();
}

void ElidedLabel::changeEvent(QEvent *event) {
    QLabel::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange) {
        elide();
        updateGeometry();
    }
}

void ElidedLabel::elide() {
    const int room = width() - chromeWidth();
    const QString shown = fontMetrics().elidedText(m_full, Qt::ElideMiddle, std::max(0, room));
    if (shown != text())
        setText(shown);
}

} // namespace semscope::ui
