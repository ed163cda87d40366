#include "ConnectionStateIcon.h"

#include "model/StatusColors.h"

#include <QPainter>
#include <QPixmap>
#include <QPolygonF>

namespace semscope::ui {

using State = model::ConnectionController::State;

QColor connectionStateColor(State state) {
    // From the palette in use (StatusColors): the state's text and icon stay legible under a dark
    // theme, where the light theme's dark green would vanish.
    using model::Tone;
    switch (state) {
    case State::Connected:
        return model::toneText(Tone::Good);
    case State::Connecting:
    case State::Reconnecting:
        return model::toneText(Tone::Caution);
    case State::Lost:
    case State::Failed:
        return model::toneText(Tone::Bad);
    case State::Idle:
        break;
    }
    return model::toneText(Tone::Muted);
}

QString connectionStateSymbol(State state) {
    switch (state) {
    case State::Connected:
        return QStringLiteral("●");
    case State::Connecting:
    case State::Reconnecting:
        return QStringLiteral("○");
    case State::Lost:
        return QStringLiteral("▲");
    case State::Failed:
        return QStringLiteral("✖");
    case State::Idle:
        break;
    }
    return QStringLiteral("–");
}

QIcon connectionStateIcon(State state) {
    constexpr int size = 16;
    QPixmap pixmap(size, size);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    p.setRenderHint(QPainter::Antialiasing);
    const QColor color = connectionStateColor(state);
    const QRectF box(2, 2, size - 4, size - 4);
    switch (state) {
    case State::Connected:
        p.setPen(Qt::NoPen);
        p.setBrush(color);
        p.drawEllipse(box);
        break;
    case State::Connecting:
    case State::Reconnecting:
        p.setPen(QPen(color, 2.5));
        p.setBrush(Qt::NoBrush);
        p.drawEllipse(box.adjusted(1, 1, -1, -1));
        break;
    case State::Lost:
        p.setPen(Qt::NoPen);
        p.setBrush(color);
        p.drawPolygon(
            QPolygonF({QPointF(size / 2.0, 1.5), QPointF(size - 1.5, size - 2.0), QPointF(1.5, size - 2.0)}));
        break;
    case State::Failed:
        p.setPen(QPen(color, 3.0, Qt::SolidLine, Qt::RoundCap));
        p.drawLine(box.topLeft(), box.bottomRight());
        p.drawLine(box.topRight(), box.bottomLeft());
        break;
    case State::Idle:
        p.setPen(QPen(color, 2.5, Qt::SolidLine, Qt::RoundCap));
        p.drawLine(QPointF(4, size / 2.0), QPointF(size - 4, size / 2.0));
        break;
    }
    p.end();
    return QIcon(pixmap);
}

} // namespace semscope::ui
