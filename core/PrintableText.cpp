#include "PrintableText.h"

namespace semscope::core {

namespace {

void appendEscaped(QString &out, QChar c) {
    switch (c.unicode()) {
    case '\n':
        out += QLatin1String("\\n");
        return;
    case '\r':
        out += QLatin1String("\\r");
        return;
    case '\t':
        out += QLatin1String("\\t");
        return;
    case 0x1b:
        out += QLatin1String("\\e");
        return;
    default:
        out += QStringLiteral("\\x%1").arg(c.unicode(), 2, 16, QLatin1Char('0'));
    }
}

bool isControl(QChar c) {
    const char16_t u = c.unicode();
    // C0, DEL and C1 controls, plus the bidi overrides that reorder what follows them on screen.
    return u < 0x20 || u == 0x7f || (u >= 0x80 && u < 0xa0) || (u >= 0x202a && u <= 0x202e) ||
           (u >= 0x2066 && u <= 0x2069);
}

// The first `maxChars` characters of `text`, escaped; `cut` says whether any were left out.
QString escapedHead(const QString &text, qsizetype maxChars, bool *cut) {
    const qsizetype kept = std::min(text.size(), std::max<qsizetype>(maxChars, 0));
    QString out;
    out.reserve(kept + 16);
    for (qsizetype i = 0; i < kept; ++i) {
        const QChar c = text.at(i);
        if (isControl(c))
            appendEscaped(out, c);
        else
            out += c;
    }
    *cut = kept < text.size();
    return out;
}

} // namespace

QString printableServerText(const QString &text, qsizetype maxChars) {
    bool cut = false;
    QString out = escapedHead(text, maxChars, &cut);
    if (cut)
        out += QStringLiteral("… (cut; %1 characters in all)").arg(text.size());
    return out;
}

QString printableServerText(const QByteArray &utf8, qsizetype maxChars) {
    // Decode no more than could be shown: an 8 MB error reply is cut before it is copied.
    const qsizetype window = std::max<qsizetype>(maxChars, 0) * 4 + 4;
    bool cut = false;
    QString out = escapedHead(QString::fromUtf8(utf8.left(window)), maxChars, &cut);
    if (cut || utf8.size() > window)
        out += QStringLiteral("… (cut; %1 bytes in all)").arg(utf8.size());
    return out;
}

} // namespace semscope::core
