#include "HolderPattern.h"

namespace semscope::model {

HolderPattern::HolderPattern(const QString &text)
    : m_text(text.trimmed())
    , m_glob(core::GlobPattern::hasWildcard(m_text))
    , m_pattern(m_text, Qt::CaseInsensitive)
    // Without a wildcard the text is a literal, escapes and all: "job\*" looks for "job*".
    , m_literal(m_glob ? QString() : core::GlobPattern::literalPrefix(m_text)) {}

QString HolderPattern::problem() const {
    return m_glob ? core::GlobPattern::problem(m_text) : QString();
}

bool HolderPattern::matchesText(const QString &candidate) const {
    if (m_text.isEmpty() || candidate.isEmpty())
        return false;
    if (m_glob)
        return m_pattern.matches(candidate);
    return candidate.contains(m_literal, Qt::CaseInsensitive);
}

bool HolderPattern::matches(const core::Holder &holder) const {
    return matchesText(holder.id) ||
           matchesText(holder.details.value(QStringLiteral("sessionName")).toString());
}

} // namespace semscope::model
