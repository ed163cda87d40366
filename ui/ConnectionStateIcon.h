#pragma once

#include "model/ConnectionController.h"

#include <QColor>
#include <QIcon>

namespace semscope::ui {

// How a connection's state is drawn next to its name. Each state has its own shape as well as its
// own colour, so an operator who cannot tell red from green still reads it; the environment is
// shown separately, as text.
//   connected: filled circle · connecting/reconnecting: ring · lost: triangle · failed: cross ·
//   not connected: small grey dash
QIcon connectionStateIcon(model::ConnectionController::State state);
QColor connectionStateColor(model::ConnectionController::State state);
// The same shapes as text, for rich-text labels (the status bar): ● ○ ▲ ✖ –
QString connectionStateSymbol(model::ConnectionController::State state);

} // namespace semscope::ui
