#pragma once

// The glob syntax's table, written by hand: tst_globpattern checks core::GlobPattern against it and
// tst_globpattern_redis checks a real redis-server's SCAN MATCH against it, so the two agree.

#include <QTest>

namespace semscope::test {

inline void globPatternRows() {
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("match");
    QTest::newRow("literal") << "orders"
                             << "orders" << true;
    QTest::newRow("literal is whole") << "orders"
                                      << "orders-2" << false;
    QTest::newRow("literal is case-sensitive") << "orders"
                                               << "Orders" << false;
    QTest::newRow("star") << "orders*"
                          << "orders-2" << true;
    QTest::newRow("star empty") << "orders*"
                                << "orders" << true;
    QTest::newRow("star crosses slash") << "svc/*"
                                        << "svc/batch/jobs" << true;
    QTest::newRow("star before slash") << "svc*"
                                       << "svc/batch/jobs" << true;
    QTest::newRow("leading star") << "*jobs"
                                  << "svc/batch/jobs" << true;
    QTest::newRow("leading star needs suffix") << "*jobs"
                                               << "svc/jobs/batch" << false;
    QTest::newRow("stars backtrack") << "*a*b*c"
                                     << "xaybzbc" << true;
    QTest::newRow("stars backtrack fail") << "*a*b*c"
                                          << "xaybzb" << false;
    QTest::newRow("only star") << "*"
                               << "anything/at:all" << true;
    QTest::newRow("question") << "worker-?"
                              << "worker-7" << true;
    QTest::newRow("question is one char") << "worker-?"
                                          << "worker-17" << false;
    QTest::newRow("question needs a char") << "worker-?"
                                           << "worker-" << false;
    QTest::newRow("class") << "worker-[12]7"
                           << "worker-27" << true;
    QTest::newRow("class miss") << "worker-[12]7"
                                << "worker-37" << false;
    QTest::newRow("range") << "node-[a-c]"
                           << "node-b" << true;
    QTest::newRow("range miss") << "node-[a-c]"
                                << "node-d" << false;
    QTest::newRow("reversed range") << "node-[c-a]"
                                    << "node-b" << true;
    // A '-' before the ']' that would close the class starts a range to that ']' (Redis' stringmatch):
    // "[a-]" is the range ']'..'a', never closed, and holds no '-'.
    QTest::newRow("dash before bracket is a range to it") << "node-[a-]"
                                                          << "node-]" << true;
    QTest::newRow("dash before bracket: inside the range") << "node-[a-]"
                                                           << "node-_" << true;
    QTest::newRow("dash before bracket: no dash") << "node-[a-]"
                                                  << "node--" << false;
    QTest::newRow("dash before bracket, then closed") << "node-[a-]]"
                                                      << "node-a" << true;
    QTest::newRow("dash first is a dash") << "node-[-a]"
                                          << "node--" << true;
    QTest::newRow("negated class") << "node-[^ab]"
                                   << "node-c" << true;
    QTest::newRow("negated class miss") << "node-[^ab]"
                                        << "node-a" << false;
    QTest::newRow("bang is no negation") << "node-[!a]"
                                         << "node-!" << true;
    QTest::newRow("bang class is literal") << "node-[!a]"
                                           << "node-c" << false;
    QTest::newRow("escaped star") << "a\\*b"
                                  << "a*b" << true;
    QTest::newRow("escaped star is literal") << "a\\*b"
                                             << "axxb" << false;
    QTest::newRow("escaped question") << "a\\?"
                                      << "a?" << true;
    QTest::newRow("escaped bracket") << "\\[x]"
                                     << "[x]" << true;
    QTest::newRow("escaped backslash") << "a\\\\b"
                                       << "a\\b" << true;
    QTest::newRow("escape in class") << "[\\]]"
                                     << "]" << true;
    QTest::newRow("unclosed empty class") << "worker-["
                                          << "worker-[" << false;
    QTest::newRow("unclosed class ends with the pattern") << "*[ab"
                                                          << "xa" << true;
    QTest::newRow("unclosed class miss") << "*[ab"
                                         << "xc" << false;
    QTest::newRow("braces are literal") << "{orders}:*"
                                        << "{orders}:meta" << true;
    QTest::newRow("colon key") << "locks:*"
                               << "locks:nightly" << true;
}

} // namespace semscope::test
