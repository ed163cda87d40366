// main() of every grouped test program: runs the one registered class named on the command line.
#include "TestMain.h"

#include <QCoreApplication>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace semscope::test {
namespace {

std::map<std::string, TestEntry> &registry() {
    static std::map<std::string, TestEntry> tests;
    return tests;
}

std::string baseName(const char *path) {
    std::string name(path);
    if (const auto slash = name.find_last_of('/'); slash != std::string::npos)
        name.erase(0, slash + 1);
    if (const auto dot = name.find('.'); dot != std::string::npos)
        name.erase(dot);
    return name;
}

std::string g_current;

} // namespace

TestRegistration::TestRegistration(const char *sourceFile, TestEntry entry) {
    const std::string name = baseName(sourceFile);
    if (!registry().emplace(name, entry).second) {
        std::fprintf(stderr, "two test classes registered as %s\n", name.c_str());
        std::abort();
    }
}

const char *currentTestName() {
    return g_current.c_str();
}

} // namespace semscope::test

int main(int argc, char *argv[]) {
    using namespace semscope::test;
    const auto &tests = registry();
    const auto found = argc > 1 ? tests.find(argv[1]) : tests.end();
    if (found == tests.end()) {
        const bool listing = argc > 1 && std::strcmp(argv[1], "--list") == 0;
        if (!listing)
            std::fprintf(stderr, "usage: %s <test> [QtTest options and test functions]\ntests here:\n",
                         argv[0]);
        for (const auto &[name, entry] : tests)
            std::fprintf(listing ? stdout : stderr, "%s%s\n", listing ? "" : "  ", name.c_str());
        return listing ? 0 : 2;
    }
    g_current = found->first;
    // The class runs as it did as a program of its own: its name is the application's, so QSettings,
    // QStandardPaths and the temporary files of two classes running at once never meet.
    QCoreApplication::setApplicationName(QString::fromStdString(g_current));
    std::vector<char *> args{argv[0]};
    args.insert(args.end(), argv + 2, argv + argc);
    args.push_back(nullptr);
    return found->second(int(args.size() - 1), args.data());
}
