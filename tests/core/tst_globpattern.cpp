#include "GlobPatternTable.h"
#include "TestMain.h"
#include "core/GlobPattern.h"

#include <QTest>

using namespace semscope::core;

class TestGlobPattern : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void matches_data() { semscope::test::globPatternRows(); }
    void matches() {
        QFETCH(QString, pattern);
        QFETCH(QString, text);
        QFETCH(bool, match);
        QCOMPARE(GlobPattern(pattern).matches(text), match);
    }

    void caseInsensitive() {
        QVERIFY(GlobPattern(QStringLiteral("WORKER-[a-c]*"), Qt::CaseInsensitive).matches(u"worker-B7"));
        QVERIFY(!GlobPattern(QStringLiteral("WORKER-[a-c]*")).matches(u"worker-B7"));
    }

    void longPatternsStayLinear() {
        // A pattern of many stars against a long text that never matches: the matcher must give up
        // without exponential backtracking (this row would not finish otherwise).
        const QString pattern = QStringLiteral("*a").repeated(30) + QStringLiteral("b");
        QVERIFY(!GlobPattern(pattern).matches(QString(5000, QLatin1Char('a'))));
    }

    void hasWildcard_data() {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<bool>("wildcard");
        QTest::newRow("plain") << "semaphore/" << false;
        QTest::newRow("star") << "sem*" << true;
        QTest::newRow("question") << "sem?" << true;
        QTest::newRow("class") << "sem[12]" << true;
        QTest::newRow("escaped star") << "sem\\*" << false;
        QTest::newRow("escaped then star") << "sem\\\\*" << true;
    }
    void hasWildcard() {
        QFETCH(QString, pattern);
        QFETCH(bool, wildcard);
        QCOMPARE(GlobPattern::hasWildcard(pattern), wildcard);
    }

    void literalPrefix_data() {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<QString>("prefix");
        QTest::newRow("none") << "*jobs"
                              << "";
        QTest::newRow("to star") << "svc/batch*"
                                 << "svc/batch";
        QTest::newRow("to class") << "svc/[ab]"
                                  << "svc/";
        QTest::newRow("escape unescaped") << "a\\*b*"
                                          << "a*b";
        QTest::newRow("no wildcard") << "semaphore/"
                                     << "semaphore/";
    }
    void literalPrefix() {
        QFETCH(QString, pattern);
        QFETCH(QString, prefix);
        QCOMPARE(GlobPattern::literalPrefix(pattern), prefix);
    }

    void escapeMatchesOnlyItself_data() {
        QTest::addColumn<QString>("literal");
        QTest::newRow("plain") << "orders";
        QTest::newRow("wildcards") << "a*b?c[d]e";
        QTest::newRow("backslash") << "a\\b";
        QTest::newRow("braces") << "{orders}:meta";
    }
    void escapeMatchesOnlyItself() {
        QFETCH(QString, literal);
        const GlobPattern escaped(GlobPattern::escape(literal));
        QVERIFY(escaped.matches(literal));
        QVERIFY(!escaped.matches(QString(literal + QLatin1Char('x'))));
        QVERIFY(!GlobPattern::hasWildcard(escaped.pattern()));
    }

    void containing_data() {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<QString>("scan");
        QTest::newRow("bare") << "orders"
                              << "*orders*";
        QTest::newRow("leading") << "*orders"
                                 << "*orders*";
        QTest::newRow("trailing") << "orders*"
                                  << "*orders*";
        QTest::newRow("both") << "*orders*"
                              << "*orders*";
        QTest::newRow("escaped trailing star") << "a\\*"
                                               << "*a\\**";
    }
    void containing() {
        QFETCH(QString, pattern);
        QFETCH(QString, scan);
        QCOMPARE(GlobPattern::containing(pattern), scan);
    }

    // What an operator typed that cannot mean what they meant is said, with where; a pattern that
    // means what it says has no problem. (Matching still follows Redis: see matches().)
    void problem_data() {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<QString>("problem");
        QTest::newRow("literal") << "orders"
                                 << "";
        QTest::newRow("star and question") << "worker-?*"
                                           << "";
        QTest::newRow("class") << "worker-[12]"
                               << "";
        QTest::newRow("negated class") << "node-[^a-c]"
                                       << "";
        QTest::newRow("negated empty class is any character") << "a[^]"
                                                              << "";
        QTest::newRow("escaped bracket") << "a\\["
                                         << "";
        QTest::newRow("escaped backslash at the end") << "a\\\\"
                                                      << "";
        QTest::newRow("escaped closer inside a class") << "[a\\]]"
                                                       << "";
        QTest::newRow("lone bracket") << "["
                                      << "'[' at position 1 is never closed; write \\[ for a bracket";
        QTest::newRow("unclosed class") << "*[ab"
                                        << "'[' at position 2 is never closed; write \\[ for a bracket";
        QTest::newRow("unclosed negated class")
            << "x[^"
            << "'[' at position 2 is never closed; write \\[ for a bracket";
        QTest::newRow("only an escaped closer")
            << "[a\\]"
            << "'[' at position 1 is never closed; write \\[ for a bracket";
        QTest::newRow("second class unclosed")
            << "[ab]x["
            << "'[' at position 6 is never closed; write \\[ for a bracket";
        QTest::newRow("dash before the closer makes a range of it")
            << "node-[a-]"
            << "'[' at position 6 is never closed: in '-]' the ']' ends a range (as Redis reads it); put a "
               "'-' first, [-a], to mean a dash";
        QTest::newRow("dash first is a dash") << "node-[-a]"
                                              << "";
        QTest::newRow("trailing backslash")
            << "jobs\\"
            << "'\\' at position 5 escapes nothing; write \\\\ for a backslash";
        QTest::newRow("empty class")
            << "a[]"
            << "'[]' at position 2 matches no character; write \\[\\] for the brackets";
    }
    void problem() {
        QFETCH(QString, pattern);
        QFETCH(QString, problem);
        QCOMPARE(GlobPattern::problem(pattern), problem);
    }
};

SEMSCOPE_TEST_APPLESS_MAIN(TestGlobPattern)
#include "tst_globpattern.moc"
