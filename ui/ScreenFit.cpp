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

} // namespace semscope::ui
