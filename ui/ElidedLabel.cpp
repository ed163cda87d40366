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
}

QSize ElidedLabel::minimumSizeHint() const {
    // Room for a few characters and the ellipsis; the layout decides the rest.
    return {fontMetrics().horizontalAdvance(QStringLiteral("MMM…")), QLabel::minimumSizeHint().height()};
}

void ElidedLabel::resizeEvent(QResizeEvent *event) {
    QLabel::resizeEvent(event);
    elide();
}

void ElidedLabel::changeEvent(QEvent *event) {
    QLabel::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange)
        elide();
}

void ElidedLabel::elide() {
    const int room = contentsRect().width() - 2 * margin() - (indent() > 0 ? indent() : 0);
    const QString shown = fontMetrics().elidedText(m_full, Qt::ElideMiddle, std::max(0, room));
    if (shown != text())
        setText(shown);
}

} // namespace semscope::ui
