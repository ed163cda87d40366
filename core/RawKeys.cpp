#include "RawKeys.h"

#include "PrintableText.h"

namespace semscope::core {

QString RawKey::shownNote() const {
    if (!isCollection() || length < 0 || rows.size() >= length)
        return {};
    return QStringLiteral("first %1 of %2 shown").arg(rows.size()).arg(QString::number(length));
}

QString printableMultiline(const QByteArray &utf8, qsizetype maxChars) {
    const QString text = QString::fromUtf8(utf8);
    const bool cut = text.size() > maxChars;
    QStringList lines;
    for (const QString &line : text.left(maxChars).split(QLatin1Char('\n')))
        lines << printableServerText(line, maxChars);
    QString out = lines.join(QLatin1Char('\n'));
    if (cut)
        out += QStringLiteral("\n… (cut; %1 characters in all)").arg(text.size());
    return out;
}

} // namespace semscope::core
