#pragma once

#include <QString>

namespace semscope::core {

// The form a count takes: `one` for exactly 1, `many` otherwise (0 too: "0 holders"). For the words
// that agree with a count said before them: "it"/"them", "has"/"have", "its"/"their".
inline QString forCount(qsizetype n, const QString &one, const QString &many) {
    return n == 1 ? one : many;
}

// "1 holder", "2 holders": said properly, not "holder(s)". semscope ships no translations, so
// QObject::tr's %n plural forms would print the "(s)" literally.
inline QString countText(qsizetype n, const QString &one, const QString &many) {
    return QStringLiteral("%1 %2").arg(n).arg(forCount(n, one, many));
}

} // namespace semscope::core
