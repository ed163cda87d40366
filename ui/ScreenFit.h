#pragma once

#include <QSize>

class QWidget;

namespace semscope::ui {

// Gives a new window its preferred size, but never more than the screen it opens on can show
// (a 1280x720 projector, or 200 % scaling on a laptop): a window larger than its screen hides its
// own buttons.
void resizeToFitScreen(QWidget *window, QSize preferred);

} // namespace semscope::ui
