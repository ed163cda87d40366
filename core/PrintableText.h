#pragma once

#include <QByteArray>
#include <QString>

namespace semscope::core {

// Text that came from a server (error replies, values, Consul bodies) made safe to show: control
// characters (ESC, '\r', '\n', DEL, C1 controls) are written as visible escapes ("\e", "\r", "\x07"),
// so a reply can neither move the cursor nor overwrite a line on a terminal, and anything longer
// than `maxChars` is cut with a note of how much was left out.
inline constexpr qsizetype DefaultPrintableChars = 400;
QString printableServerText(const QString &text, qsizetype maxChars = DefaultPrintableChars);
QString printableServerText(const QByteArray &utf8, qsizetype maxChars = DefaultPrintableChars);

} // namespace semscope::core
