#pragma once

#include <QRect>
#include <QSize>

class QWidget;

namespace semscope::ui {

// Gives a new window its preferred size, but never more than the screen it opens on can show
// (a 1280x720 projector, or 200 % scaling on a laptop): a window larger than its screen hides its
// own buttons.
void resizeToFitScreen(QWidget *window, QSize preferred);

// `frame` (a window's frame, title bar included) made to fit `available`: shrunk to it, then moved
// inside it, so the status bar and the buttons at the bottom stay on screen.
QRect fitIntoRect(const QRect &frame, const QRect &available);
// A window whose geometry was restored from another screen (a 1400x860 window saved on a laptop,
// restored on a 1280x720 projector) made to fit the screen it is on now.
void keepOnScreen(QWidget *window);

} // namespace semscope::ui
