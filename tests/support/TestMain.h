#pragma once

// The test classes of one folder are built into one program (tests_core, tests_redis, ...): a
// program per class meant a hundred links of every library. Each test file registers its class
// under its file's base name, and the program runs the class named first on its command line:
//
//   build/tests/core/tests_core tst_duration [QtTest options and test functions]
//   build/tests/core/tests_core --list
//
// ctest still has one entry per class (`ctest -R tst_duration`), with its own labels and timeout.
// The macros below stand for QTEST_MAIN, QTEST_GUILESS_MAIN and QTEST_APPLESS_MAIN one for one:
// the same application object, the same QTest::qExec, in a function of its own instead of main().

#include <QTest>

namespace semscope::test {

using TestEntry = int (*)(int argc, char *argv[]);

// Registers `entry` under the base name of `sourceFile` ("tst_duration" for ".../tst_duration.cpp").
struct TestRegistration {
    TestRegistration(const char *sourceFile, TestEntry entry);
};

// The name of the class this process runs, to start the program again on the same class.
const char *currentTestName();

} // namespace semscope::test

#define SEMSCOPE_TEST_REGISTER_(entry)                                                                       \
    static const ::semscope::test::TestRegistration semscopeTestRegistration(__FILE__, &entry);

#define SEMSCOPE_TEST_ENTRY_(TestObject, ...)                                                                \
    static int semscopeTestEntry(int argc, char *argv[]) {                                                   \
        QT_PREPEND_NAMESPACE(QTest::Internal::callInitMain)<TestObject>();                                   \
        __VA_ARGS__                                                                                          \
        TestObject tc;                                                                                       \
        QTEST_SET_MAIN_SOURCE_PATH                                                                           \
        return QTest::qExec(&tc, argc, argv);                                                                \
    }                                                                                                        \
    SEMSCOPE_TEST_REGISTER_(semscopeTestEntry)

#define SEMSCOPE_TEST_MAIN(TestObject) SEMSCOPE_TEST_ENTRY_(TestObject, QTEST_MAIN_SETUP())
#define SEMSCOPE_TEST_GUILESS_MAIN(TestObject)                                                               \
    SEMSCOPE_TEST_ENTRY_(TestObject, QTEST_QAPP_SETUP(QCoreApplication))
#define SEMSCOPE_TEST_APPLESS_MAIN(TestObject) SEMSCOPE_TEST_ENTRY_(TestObject)
// For a test that sets up more than its application object: `entry` is its own main.
#define SEMSCOPE_TEST_CUSTOM_MAIN(entry) SEMSCOPE_TEST_REGISTER_(entry)
