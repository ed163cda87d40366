#include "ScreenFit.h"

#include <QGuiApplication>
#include <QScreen>
#include <QWidget>

namespace semscope::ui {

void resizeToFitScreen(QWidget *window, QSize preferred) {
    QScreen *screen = window->screen() ? window->screen() : QGuiApplication::primaryScreen();
    if (!screen) {
        window->resize(preferred);
        return;
    }
    // Room for the window frame and title bar, which the available geometry does not include.
    const QSize room = screen->availableGeometry().size() - QSize(16, 48);
    window->resize(preferred.boundedTo(room).expandedTo(window->minimumSizeHint().boundedTo(room)));
}

QRect fitIntoRect(const QRect &frame, const QRect &available) {
    QRect fitted(frame.topLeft(), frame.size().boundedTo(available.size()));
    if (fitted.right() > available.right())
        fitted.moveRight(available.right());
    if (fitted.bottom() > available.bottom())
        fitted.moveBottom(available.bottom());
    if (fitted.left() < available.left())
        fitted.moveLeft(available.left());
    if (fitted.top() < available.top())
        fitted.moveTop(available.top());
    return fitted;
}

void keepOnScreen(QWidget *window) {
    QScreen *screen = window->screen() ? window->screen() : QGuiApplication::primaryScreen();
    if (!screen)
        return;
    // Before the window is shown its frame is not known (it equals the geometry): allow for a frame
    // and title bar what resizeToFitScreen allows.
    const QRect frame = window->frameGeometry();
    const QSize decoration = frame.size() != window->size() ? frame.size() - window->size() : QSize(16, 48);
    const QRect withFrame(frame.topLeft(), window->size() + decoration);
    const QRect fitted = fitIntoRect(withFrame, screen->availableGeometry());
    if (fitted.size() != withFrame.size())
        window->resize(fitted.size() - decoration);
    window->move(fitted.topLeft());
}

} // namespace semscope::ui
