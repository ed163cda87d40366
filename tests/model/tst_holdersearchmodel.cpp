// Holder search pieces that need no server: what a typed pattern matches (substring or glob, id or
// Consul session name) and the results table (QAbstractItemModelTester, TTL and slot texts, sort).

#include "TestMain.h"
#include "model/HolderPattern.h"
#include "model/HolderSearchModel.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QtTest>

using namespace semscope;
using model::HolderSearchModel;

namespace {
model::HolderMatch match(const QString &connection, const QString &semaphore, const QString &holder,
                         std::optional<qint64> expiresAtMs, std::optional<qint64> slot = std::nullopt) {
    model::HolderMatch m;
    m.connectionId = connection + QStringLiteral("-id");
    m.connectionName = connection;
    m.environment = model::Environment::Production;
    m.ref.kind = core::Kind::Leased;
    m.ref.name = semaphore;
    m.holder.id = holder;
    m.holder.rawId = holder.toUtf8();
    m.holder.expiresAtMs = expiresAtMs;
    m.holder.slot = slot;
    m.serverNowMs = 100'000;
    return m;
}
} // namespace

class TestHolderSearchModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void patternMatches_data();
    void patternMatches();
    void patternProblem_data();
    void patternProblem();
    void matchesConsulSessionName();
    void showsEachMatch();
    void sortsTtlByNumber();
    void clears();
};

void TestHolderSearchModel::patternMatches_data() {
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<QString>("holder");
    QTest::addColumn<bool>("expected");
    QTest::newRow("substring") << "worker-17"
                               << "worker-17@node-4" << true;
    QTest::newRow("substring, other case") << "WORKER-17"
                                           << "worker-17@node-4" << true;
    QTest::newRow("substring, no") << "worker-18"
                                   << "worker-17@node-4" << false;
    QTest::newRow("glob whole id") << "worker-1?@*"
                                   << "worker-17@node-4" << true;
    QTest::newRow("glob is anchored") << "worker-1?"
                                      << "worker-17@node-4" << false;
    QTest::newRow("glob suffix") << "*@node-4"
                                 << "worker-17@node-4" << true;
    QTest::newRow("glob over slashes") << "svc/*"
                                       << "svc/a/b" << true;
    QTest::newRow("glob class") << "worker-[12]7*"
                                << "worker-27@x" << true;
    QTest::newRow("empty matches nothing") << "   "
                                           << "worker-17" << false;
    QTest::newRow("bad glob matches nothing") << "worker-["
                                              << "worker-[" << false;
    // An escaped wildcard is the character itself, also in a substring: "job\*" finds "nightly-job*2".
    QTest::newRow("escaped star, substring") << "job\\*"
                                             << "nightly-job*2" << true;
    QTest::newRow("escaped star is no wildcard") << "job\\*"
                                                 << "nightly-job-2" << false;
}

void TestHolderSearchModel::patternMatches() {
    QFETCH(QString, pattern);
    QFETCH(QString, holder);
    QFETCH(bool, expected);
    core::Holder h;
    h.id = holder;
    QCOMPARE(model::HolderPattern(pattern).matches(h), expected);
}

void TestHolderSearchModel::patternProblem_data() {
    // A glob that matches nothing whatever is held is said (the search window shows it); a
    // substring's characters are all literal, so it has no problem.
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<QString>("problem");
    QTest::newRow("substring") << "worker-17"
                               << "";
    QTest::newRow("glob") << "worker-1?@*"
                          << "";
    QTest::newRow("unclosed class") << "worker-["
                                    << "'[' at position 8 is never closed; write \\[ for a bracket";
    QTest::newRow("glob ending in a lone backslash")
        << "*@node-\\"
        << "'\\' at position 8 escapes nothing; write \\\\ for a backslash";
    QTest::newRow("substring ending in a backslash is literal") << "node-\\"
                                                                << "";
}

void TestHolderSearchModel::patternProblem() {
    QFETCH(QString, pattern);
    QFETCH(QString, problem);
    QCOMPARE(model::HolderPattern(pattern).problem(), problem);
}

void TestHolderSearchModel::matchesConsulSessionName() {
    core::Holder h;
    h.id = QStringLiteral("3f1c2a9e-0000-4000-8000-000000000001"); // a Consul holder is its session
    h.details.insert(QStringLiteral("sessionName"), QStringLiteral("worker-17@node-4"));
    QVERIFY(model::HolderPattern(QStringLiteral("worker-17")).matches(h));
    QVERIFY(model::HolderPattern(QStringLiteral("3f1c2a9e")).matches(h));
    QVERIFY(!model::HolderPattern(QStringLiteral("worker-18")).matches(h));
}

void TestHolderSearchModel::showsEachMatch() {
    HolderSearchModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    auto consul = match("consul (prod)", "svc/jobs", "3f1c", std::nullopt);
    consul.ref.kind = core::Kind::Consul;
    consul.holder.details.insert(QStringLiteral("sessionName"), QStringLiteral("worker-17@node-4"));
    consul.holder.state = core::HolderState::Stale;
    auto redis = match("redis (prod)", "jobs", "worker-17@node-4", 112'500, 3);
    redis.holder.token = 42;
    m.addMatches({redis});
    m.addMatches({consul, match("redis (prod)", "old", "worker-17@x", 95'000)});
    QCOMPARE(m.rowCount(), 3);
    auto cell = [&m](int row, int column) { return m.index(row, column).data().toString(); };
    QCOMPARE(cell(0, HolderSearchModel::ConnectionColumn), QStringLiteral("redis (prod)"));
    QCOMPARE(cell(0, HolderSearchModel::EnvironmentColumn), QStringLiteral("production"));
    QCOMPARE(cell(0, HolderSearchModel::SemaphoreColumn), QStringLiteral("jobs"));
    QCOMPARE(cell(0, HolderSearchModel::KindColumn), QStringLiteral("leased"));
    QCOMPARE(cell(0, HolderSearchModel::SlotColumn), QStringLiteral("slot 3 · token 42"));
    QCOMPARE(cell(0, HolderSearchModel::TtlColumn), QStringLiteral("12.5 s"));
    QCOMPARE(cell(0, HolderSearchModel::StateColumn), QStringLiteral("live"));
    QCOMPARE(cell(1, HolderSearchModel::HolderColumn), QStringLiteral("worker-17@node-4 · session 3f1c"));
    QCOMPARE(cell(1, HolderSearchModel::TtlColumn), QStringLiteral("no TTL"));
    QCOMPARE(cell(1, HolderSearchModel::StateColumn), QStringLiteral("stale"));
    QCOMPARE(cell(1, HolderSearchModel::SlotColumn), QStringLiteral("—"));
    QCOMPARE(cell(2, HolderSearchModel::TtlColumn), QStringLiteral("expired 5.0 s ago"));
    QCOMPARE(m.index(1, 0).data(HolderSearchModel::ConnectionIdRole).toString(),
             QStringLiteral("consul (prod)-id"));
    QCOMPARE(m.rowText(0).split(QLatin1Char('\t')).size(), int(HolderSearchModel::ColumnCount));
    QVERIFY(m.rowText(0).contains(QLatin1String("worker-17@node-4")));
    QCOMPARE(m.rowText(5), QString());
}

void TestHolderSearchModel::sortsTtlByNumber() {
    HolderSearchModel m;
    m.addMatches({match("c", "a", "h1", 109'000), match("c", "b", "h2", std::nullopt),
                  match("c", "c", "h3", 190'000), match("c", "d", "h4", 99'000)});
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&m);
    proxy.setSortRole(HolderSearchModel::SortRole);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.sort(HolderSearchModel::TtlColumn);
    QStringList order;
    for (int r = 0; r < proxy.rowCount(); ++r)
        order << proxy.index(r, HolderSearchModel::SemaphoreColumn).data().toString();
    // expired first, then 9 s before 90 s (not "1m" before "9 s" as text), no TTL last.
    QCOMPARE(order, (QStringList{"d", "a", "c", "b"}));
}

void TestHolderSearchModel::clears() {
    HolderSearchModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    m.addMatches({match("c", "a", "h1", 1)});
    m.addMatches({});
    QCOMPARE(m.rowCount(), 1);
    m.clear();
    QCOMPARE(m.rowCount(), 0);
    QCOMPARE(m.matchAt(0), nullptr);
}

SEMSCOPE_TEST_GUILESS_MAIN(TestHolderSearchModel)
#include "tst_holdersearchmodel.moc"
