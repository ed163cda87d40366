#pragma once

#include <QSettings>
#include <QString>
#include <memory>

namespace semscope::ui {

// The settings a window keeps its state in (the main window and its panes, the zoom, the load-test
// window's values): `file` (tests pass a temporary one) or the application's.
inline std::unique_ptr<QSettings> openWindowSettings(const QString &file) {
    if (file.isEmpty())
        return std::make_unique<QSettings>();
    return std::make_unique<QSettings>(file, QSettings::IniFormat);
}

} // namespace semscope::ui
