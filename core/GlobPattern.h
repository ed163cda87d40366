#pragma once

#include <QString>
#include <QStringView>

namespace semscope::core {

// The one glob syntax of semscope, Redis' `SCAN … MATCH` syntax, used wherever an operator types a
// pattern: semaphore names and keys on Redis and Consul (`list --match`, `watch --match`, the
// discovery filter) and holder search.
//   *        any run of characters, '/' included (Consul names are not paths to semscope)
//   ?        one character
//   [abc]    one of a, b, c; [a-z] a range; [^abc] none of them
//   \x       the character x itself (\*, \?, \[, \\)
// A class that is never closed ends with the pattern ("*[ab" is "*[ab]"; "a[" has an empty class and
// matches nothing), as in Redis. On Redis the server applies these rules to the scan, so what semscope
// keeps afterwards agrees with what the server sent (tst_globpattern_redis holds the two together).
class GlobPattern {
public:
    explicit GlobPattern(QString pattern = {}, Qt::CaseSensitivity cs = Qt::CaseSensitive);

    const QString &pattern() const { return m_pattern; }
    bool matches(QStringView text) const;

    // True when the pattern has an unescaped '*', '?' or '['; without one it names a literal.
    static bool hasWildcard(QStringView pattern);
    // The characters before the first wildcard, unescaped: a Consul KV prefix to list under.
    static QString literalPrefix(QStringView pattern);
    // `literal` escaped so that it matches only itself.
    static QString escape(QStringView literal);
    // The scan pattern for "names or keys that contain a match": '*' added at either end unless there.
    static QString containing(const QString &pattern);
    // What in `pattern` cannot mean what the operator typed, and where (positions count from 1),
    // empty when nothing: a '[' never closed ("a[" matches nothing, "*[ab" is "*[ab]"), an empty
    // class "[]" (it matches no character), a '\' with nothing after it. The matching rules above
    // stay Redis' (the server scans by them); this is for refusing such a pattern where it is typed.
    static QString problem(QStringView pattern);

private:
    QString m_pattern;
    Qt::CaseSensitivity m_cs;
};

} // namespace semscope::core
