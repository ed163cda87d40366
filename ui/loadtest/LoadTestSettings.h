#pragma once

#include <QSettings>
#include <memory>

namespace semscope::ui {

// The settings the load-test window remembers its values in: `file` (tests) or the application's.
inline std::unique_ptr<QSettings> openLoadTestSettings(const QString &file) {
    if (file.isEmpty())
        return std::make_unique<QSettings>();
    return std::make_unique<QSettings>(file, QSettings::IniFormat);
}

} // namespace semscope::ui
