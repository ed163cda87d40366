#include "HolderPattern.h"

namespace semscope::model {

namespace {
// Glob to regular expression where '*' and '?' also match '/' (holder ids are not paths; Qt 6.4's
// wildcardToRegularExpression treats '/' as a separator). "[abc]", "[!abc]", "[a-z]" are classes;
// an unclosed '[' makes the pattern invalid, so it matches nothing rather than something unmeant.
QString globToRegex(const QString &glob) {
    QString out;
    for (qsizetype i = 0; i < glob.size(); ++i) {
        const QChar c = glob.at(i);
        if (c == QLatin1Char('*')) {
            out += QLatin1String(".*");
        } else if (c == QLatin1Char('?')) {
            out += QLatin1Char('.');
        } else if (c == QLatin1Char('[')) {
            const qsizetype close = glob.indexOf(QLatin1Char(']'), i + 2);
            if (close < 0)
                return QStringLiteral("[");
            QString cls = glob.mid(i + 1, close - i - 1);
            const bool negate = cls.startsWith(QLatin1Char('!'));
            if (negate)
                cls.remove(0, 1);
            cls.replace(QLatin1Char('\\'), QLatin1String("\\\\"));
            out += QLatin1Char('[') + (negate ? QStringLiteral("^") : QString()) + cls + QLatin1Char(']');
            i = close;
        } else {
            out += QRegularExpression::escape(QString(c));
        }
    }
    return QRegularExpression::anchoredPattern(out);
}
} // namespace

HolderPattern::HolderPattern(const QString &text)
    : m_text(text.trimmed()) {
    m_glob = m_text.contains(QLatin1Char('*')) || m_text.contains(QLatin1Char('?')) ||
             m_text.contains(QLatin1Char('['));
    if (m_glob) {
        m_regex = QRegularExpression(globToRegex(m_text), QRegularExpression::CaseInsensitiveOption |
                                                              QRegularExpression::DotMatchesEverythingOption);
    }
}

bool HolderPattern::matchesText(const QString &candidate) const {
    if (m_text.isEmpty() || candidate.isEmpty())
        return false;
    if (m_glob)
        return m_regex.isValid() && m_regex.match(candidate).hasMatch();
    return candidate.contains(m_text, Qt::CaseInsensitive);
}

bool HolderPattern::matches(const core::Holder &holder) const {
    return matchesText(holder.id) ||
           matchesText(holder.details.value(QStringLiteral("sessionName")).toString());
}

} // namespace semscope::model
