#include "GlobPattern.h"

#include <algorithm>

namespace semscope::core {

namespace {

bool isWildcard(QChar c) {
    return c == QLatin1Char('*') || c == QLatin1Char('?') || c == QLatin1Char('[');
}

QChar folded(QChar c, Qt::CaseSensitivity cs) {
    return cs == Qt::CaseInsensitive ? c.toCaseFolded() : c;
}

// One element of a "[...]" class at `i`: a character, an escaped one, or a range, read as Redis'
// stringmatch reads it. The character after a '-' ends the range even when it is the ']' that would
// have closed the class ("[a-]" is the range ']'..'a', left open). matchClass() and classEnd() both
// step with it, so what a class matches and where it ends cannot disagree.
struct ClassItem {
    QChar lo;
    QChar hi;
    qsizetype next; // the index just past it
};

ClassItem classItem(QStringView p, qsizetype i) {
    if (p.at(i) == QLatin1Char('\\') && i + 1 < p.size())
        return {p.at(i + 1), p.at(i + 1), i + 2};
    if (i + 2 < p.size() && p.at(i + 1) == QLatin1Char('-'))
        return {p.at(i), p.at(i + 2), i + 3};
    return {p.at(i), p.at(i), i + 1};
}

// The first element of the class starting after its '[' at `start` (past a '^').
qsizetype classBody(QStringView p, qsizetype start) {
    return start < p.size() && p.at(start) == QLatin1Char('^') ? start + 1 : start;
}

// One "[...]" class starting after its '['. Returns the index just past its ']' (or the pattern's end:
// Redis closes an unclosed class there) and sets `hit` to whether `c` is in the class.
qsizetype matchClass(QStringView p, qsizetype start, QChar c, Qt::CaseSensitivity cs, bool &hit) {
    qsizetype i = classBody(p, start);
    const bool negate = i != start;
    const QChar fc = folded(c, cs);
    bool in = false;
    while (i < p.size() && p.at(i) != QLatin1Char(']')) {
        const ClassItem item = classItem(p, i);
        QChar lo = folded(item.lo, cs);
        QChar hi = folded(item.hi, cs);
        if (hi < lo) // Redis accepts a reversed range ("[z-a]")
            std::swap(lo, hi);
        in = in || (fc >= lo && fc <= hi);
        i = item.next;
    }
    hit = negate ? !in : in;
    return std::min(i + 1, p.size());
}

// Where the class starting after its '[' at `start` ends: the index of its ']', or -1 when the pattern
// ends first.
qsizetype classEnd(QStringView p, qsizetype start) {
    qsizetype i = classBody(p, start);
    while (i < p.size() && p.at(i) != QLatin1Char(']'))
        i = classItem(p, i).next;
    return i < p.size() ? i : -1;
}

} // namespace

GlobPattern::GlobPattern(QString pattern, Qt::CaseSensitivity cs)
    : m_pattern(std::move(pattern))
    , m_cs(cs) {}

// Iterative matching with one backtrack point, the last '*': linear in practice, and no recursion a
// long pattern of stars could drive deep.
bool GlobPattern::matches(QStringView text) const {
    const QStringView p(m_pattern);
    qsizetype pi = 0;
    qsizetype ti = 0;
    qsizetype starP = -1;
    qsizetype starT = 0;
    while (ti < text.size()) {
        bool advanced = false;
        if (pi < p.size()) {
            const QChar pc = p.at(pi);
            if (pc == QLatin1Char('*')) {
                starP = ++pi;
                starT = ti;
                continue;
            }
            if (pc == QLatin1Char('?')) {
                ++pi;
                ++ti;
                advanced = true;
            } else if (pc == QLatin1Char('[')) {
                bool hit = false;
                const qsizetype end = matchClass(p, pi + 1, text.at(ti), m_cs, hit);
                if (hit) {
                    pi = end;
                    ++ti;
                    advanced = true;
                }
            } else {
                qsizetype lit = pi;
                if (pc == QLatin1Char('\\') && pi + 1 < p.size())
                    lit = pi + 1;
                if (folded(p.at(lit), m_cs) == folded(text.at(ti), m_cs)) {
                    pi = lit + 1;
                    ++ti;
                    advanced = true;
                }
            }
        }
        if (advanced)
            continue;
        if (starP < 0)
            return false;
        pi = starP;
        ti = ++starT;
    }
    while (pi < p.size() && p.at(pi) == QLatin1Char('*'))
        ++pi;
    return pi == p.size();
}

bool GlobPattern::hasWildcard(QStringView pattern) {
    for (qsizetype i = 0; i < pattern.size(); ++i) {
        if (pattern.at(i) == QLatin1Char('\\'))
            ++i;
        else if (isWildcard(pattern.at(i)))
            return true;
    }
    return false;
}

QString GlobPattern::literalPrefix(QStringView pattern) {
    QString prefix;
    for (qsizetype i = 0; i < pattern.size(); ++i) {
        const QChar c = pattern.at(i);
        if (isWildcard(c))
            break;
        if (c == QLatin1Char('\\') && i + 1 < pattern.size())
            prefix += pattern.at(++i);
        else
            prefix += c;
    }
    return prefix;
}

QString GlobPattern::escape(QStringView literal) {
    QString out;
    out.reserve(literal.size());
    for (const QChar c : literal) {
        if (isWildcard(c) || c == QLatin1Char(']') || c == QLatin1Char('\\'))
            out += QLatin1Char('\\');
        out += c;
    }
    return out;
}

QString GlobPattern::containing(const QString &pattern) {
    QString out = pattern;
    if (!out.startsWith(QLatin1Char('*')))
        out.prepend(QLatin1Char('*'));
    // A trailing "\*" is a literal star: it still needs the wildcard after it.
    if (!out.endsWith(QLatin1Char('*')) || out.endsWith(QLatin1String("\\*")))
        out += QLatin1Char('*');
    return out;
}

QString GlobPattern::problem(QStringView pattern) {
    for (qsizetype i = 0; i < pattern.size(); ++i) {
        const QChar c = pattern.at(i);
        if (c == QLatin1Char('\\')) {
            if (i + 1 == pattern.size())
                return QStringLiteral("'\\' at position %1 escapes nothing; write \\\\ for a backslash")
                    .arg(i + 1);
            ++i;
        } else if (c == QLatin1Char('[')) {
            const qsizetype end = classEnd(pattern, i + 1);
            if (end < 0 && pattern.mid(i).contains(QLatin1String("-]")))
                return QStringLiteral("'[' at position %1 is never closed: in '-]' the ']' ends a range "
                                      "(as Redis reads it); put a '-' first, [-a], to mean a dash")
                    .arg(i + 1);
            if (end < 0)
                return QStringLiteral("'[' at position %1 is never closed; write \\[ for a bracket")
                    .arg(i + 1);
            if (end == i + 1)
                return QStringLiteral(
                           "'[]' at position %1 matches no character; write \\[\\] for the brackets")
                    .arg(i + 1);
            i = end;
        }
    }
    return {};
}

} // namespace semscope::core
