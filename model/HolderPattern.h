#pragma once

#include "core/GlobPattern.h"
#include "core/SemaphoreTypes.h"

#include <QString>

namespace semscope::model {

// What an operator typed to find a holder: a glob when it has a wildcard ("worker-1?", "*@node-4";
// core::GlobPattern's syntax, the one `--match` takes), matched against the whole id, otherwise a
// substring ("worker-17" finds "worker-17@node-4").
// Case-insensitive either way. Matched against the holder's id and, for Consul, its session name.
class HolderPattern {
public:
    explicit HolderPattern(const QString &text = {});

    bool isEmpty() const { return m_text.isEmpty(); }
    bool isGlob() const { return m_glob; }
    const QString &text() const { return m_text; }

    // What keeps a glob from meaning what was typed, and where (core::GlobPattern::problem: a '['
    // never closed matches nothing); empty when there is nothing, and for a substring, whose
    // characters are all literal.
    QString problem() const;

    bool matchesText(const QString &candidate) const;
    bool matches(const core::Holder &holder) const;

private:
    QString m_text;
    bool m_glob = false;
    core::GlobPattern m_pattern;
    QString m_literal; // the text unescaped, when it is no glob
};

} // namespace semscope::model
