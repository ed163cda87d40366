#pragma once

#include <QString>

namespace semscope::core {

// "1 holder", "2 holders": said properly, not "holder(s)". semscope ships no translations, so
// QObject::tr's %n plural forms would print the "(s)" literally.
inline QString countText(qsizetype n, const QString &one, const QString &many) {
    return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? one : many);
}

} // namespace semscope::core
