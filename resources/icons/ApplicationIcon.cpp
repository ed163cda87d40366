#include "resources/icons/ApplicationIcon.h"

#include <QFile>

namespace semscope::resources {

QIcon applicationIcon() {
    // Keep in step with SEMSCOPE_ICON_SIZES in resources/CMakeLists.txt.
    static constexpr int kSizes[] = {16, 22, 24, 32, 48, 64, 128, 256};
    QIcon icon;
    for (const int size : kSizes) {
        const QString path = QStringLiteral(":/icons/hicolor/semscope-%1.png").arg(size);
        if (QFile::exists(path))
            icon.addFile(path, QSize(size, size));
    }
    return icon;
}

} // namespace semscope::resources
