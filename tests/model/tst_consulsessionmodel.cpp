// The Consul sessions list: merged by session ID across refreshes (rows that stay keep their place),
// sortable by number where the column is a number, filterable on everything an operator would
// type, and server text shown escaped. Checked throughout by QAbstractItemModelTester.

#include "TestMain.h"
#include "model/ConsulSessionModel.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QtTest>

using namespace semscope;
using model::ConsulSessionModel;
using model::SessionEntry;

namespace {
SessionEntry session(const QString &id, const QString &name, const QString &ttl = QStringLiteral("15s"),
                     QList<model::SessionHolding> holdings = {}) {
    SessionEntry e;
    e.info.id = id;
    e.info.name = name;
    e.info.node = QStringLiteral("node-1");
    e.info.ttl = ttl;
    e.info.behavior = QStringLiteral("release");
    e.info.lockDelayNs = 15'000'000'000;
    e.info.nodeChecks = {QStringLiteral("serfHealth")};
    e.holdings = holdings;
    return e;
}

model::SessionHolding holding(const QString &name, core::HolderState state) {
    model::SessionHolding h;
    h.ref.kind = core::Kind::Consul;
    h.ref.name = name;
    h.state = state;
    return h;
}

QStringList column(const QAbstractItemModel &m, int column) {
    QStringList out;
    for (int r = 0; r < m.rowCount(); ++r)
        out << m.index(r, column).data().toString();
    return out;
}
} // namespace

class TestConsulSessionModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void showsWhatASessionIsAndHolds();
    void mergesByIdAcrossRefreshes();
    void sortsNumerically_data();
    void sortsNumerically();
    void filtersOnWhatAnOperatorTypes_data();
    void filtersOnWhatAnOperatorTypes();
    void serverTextIsEscaped();
    void copiesARowAsText();

private:
    std::unique_ptr<ConsulSessionModel> m_model;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
};

void TestConsulSessionModel::init() {
    m_tester.reset();
    m_model = std::make_unique<ConsulSessionModel>();
    m_tester = std::make_unique<QAbstractItemModelTester>(
        m_model.get(), QAbstractItemModelTester::FailureReportingMode::QtTest);
}

void TestConsulSessionModel::showsWhatASessionIsAndHolds() {
    m_model->setSessions({session(QStringLiteral("a1"), QStringLiteral("worker-17"), QStringLiteral("10s"),
                                  {holding(QStringLiteral("jobs"), core::HolderState::Live),
                                   holding(QStringLiteral("batch"), core::HolderState::Waiting)}),
                          session(QStringLiteral("b2"), QString(), QString())});
    QCOMPARE(m_model->rowCount(), 2);
    QCOMPARE(m_model->index(0, ConsulSessionModel::NameColumn).data().toString(),
             QStringLiteral("worker-17"));
    QCOMPARE(m_model->index(0, ConsulSessionModel::HoldsColumn).data().toString(),
             QStringLiteral("consul:jobs (live), consul:batch (waiting)"));
    QCOMPARE(m_model->index(0, ConsulSessionModel::TtlColumn).data().toString(), QStringLiteral("10s"));
    QCOMPARE(m_model->index(0, ConsulSessionModel::LockDelayColumn).data().toString(),
             QStringLiteral("15.0 s"));
    QCOMPARE(m_model->index(0, ConsulSessionModel::ChecksColumn).data().toString(),
             QStringLiteral("serfHealth"));
    QCOMPARE(m_model->index(0, ConsulSessionModel::IdColumn).data().toString(), QStringLiteral("a1"));
    // A nameless session without TTL says so instead of leaving blanks.
    QCOMPARE(m_model->index(1, ConsulSessionModel::NameColumn).data().toString(),
             QStringLiteral("(no name)"));
    QCOMPARE(m_model->index(1, ConsulSessionModel::TtlColumn).data().toString(), QStringLiteral("none"));
    QCOMPARE(m_model->index(1, ConsulSessionModel::HoldsColumn).data().toString(), QStringLiteral("—"));
    QCOMPARE(m_model->entryAt(1)->label(), QStringLiteral("b2"));
    QCOMPARE(m_model->index(1, 0).data(ConsulSessionModel::SessionIdRole).toString(), QStringLiteral("b2"));
}

void TestConsulSessionModel::mergesByIdAcrossRefreshes() {
    m_model->setSessions({session("a", "one"), session("b", "two"), session("c", "three")});
    QSignalSpy removed(m_model.get(), &QAbstractItemModel::rowsRemoved);
    QSignalSpy inserted(m_model.get(), &QAbstractItemModel::rowsInserted);
    QSignalSpy reset(m_model.get(), &QAbstractItemModel::modelReset);
    // b ended, c renamed, d is new: a keeps row 0, c moves up one, d is appended.
    m_model->setSessions({session("c", "three again"), session("d", "four"), session("a", "one")});
    QCOMPARE(column(*m_model, ConsulSessionModel::IdColumn), (QStringList{"a", "c", "d"}));
    QCOMPARE(column(*m_model, ConsulSessionModel::NameColumn), (QStringList{"one", "three again", "four"}));
    QCOMPARE(removed.size(), 1);
    QCOMPARE(inserted.size(), 1);
    QCOMPARE(reset.size(), 0);
    QCOMPARE(m_model->rowOf("c"), 1);
    QCOMPARE(m_model->rowOf("b"), -1);
    // Everything gone, then back.
    m_model->setSessions({});
    QCOMPARE(m_model->rowCount(), 0);
    m_model->setSessions({session("x", "x"), session("x", "duplicate")});
    QCOMPARE(m_model->rowCount(), 1);
    m_model->clear();
    QCOMPARE(m_model->rowCount(), 0);
}

void TestConsulSessionModel::sortsNumerically_data() {
    QTest::addColumn<int>("column");
    QTest::addColumn<QStringList>("expectedIds");
    // TTLs 9s, 1m30s, 10s, none: by number (none last), not by text ("10s" < "1m30s" < "9s").
    QTest::newRow("ttl") << int(ConsulSessionModel::TtlColumn) << QStringList{"a", "c", "b", "d"};
    QTest::newRow("holds") << int(ConsulSessionModel::HoldsColumn) << QStringList{"b", "d", "c", "a"};
    QTest::newRow("name") << int(ConsulSessionModel::NameColumn) << QStringList{"a", "b", "c", "d"};
}

void TestConsulSessionModel::sortsNumerically() {
    QFETCH(int, column);
    QFETCH(QStringList, expectedIds);
    const auto live = holding("s", core::HolderState::Live);
    m_model->setSessions({session("a", "alpha", "9s", {live, live}), session("b", "bravo", "1m30s"),
                          session("c", "charlie", "10s", {live}), session("d", "delta", QString())});
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(m_model.get());
    proxy.setSortRole(ConsulSessionModel::SortRole);
    QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.sort(column, Qt::AscendingOrder);
    QStringList ids = ::column(proxy, ConsulSessionModel::IdColumn);
    if (column == ConsulSessionModel::HoldsColumn) {
        // b and d hold nothing (tie, either order), then c (1), then a (2).
        QCOMPARE(QSet<QString>(ids.begin(), ids.begin() + 2), (QSet<QString>{"b", "d"}));
        QCOMPARE(ids.mid(2), expectedIds.mid(2));
        return;
    }
    QCOMPARE(ids, expectedIds);
}

void TestConsulSessionModel::filtersOnWhatAnOperatorTypes_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("expectedIds");
    QTest::newRow("holder name") << "WORKER-17" << QStringList{"0f3c"};
    QTest::newRow("semaphore held") << "consul:jobs" << QStringList{"0f3c"};
    QTest::newRow("waiting") << "waiting" << QStringList{"7d21"};
    QTest::newRow("session id") << "7d2" << QStringList{"7d21"};
    QTest::newRow("check") << "serfhealth" << QStringList{"0f3c", "7d21"};
    QTest::newRow("nothing") << "no such thing" << QStringList{};
}

void TestConsulSessionModel::filtersOnWhatAnOperatorTypes() {
    QFETCH(QString, text);
    QFETCH(QStringList, expectedIds);
    m_model->setSessions({session("0f3c", "worker-17", "10s", {holding("jobs", core::HolderState::Live)}),
                          session("7d21", "other", "10s", {holding("queue", core::HolderState::Waiting)})});
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(m_model.get());
    proxy.setFilterRole(ConsulSessionModel::SearchTextRole);
    proxy.setFilterCaseSensitivity(Qt::CaseInsensitive);
    QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setFilterFixedString(text);
    QCOMPARE(column(proxy, ConsulSessionModel::IdColumn), expectedIds);
}

void TestConsulSessionModel::serverTextIsEscaped() {
    m_model->setSessions({session("a", QStringLiteral("evil\x1b[2Jname\nsecond line"))});
    const QString shown = m_model->index(0, ConsulSessionModel::NameColumn).data().toString();
    QVERIFY2(!shown.contains(QChar(0x1b)) && !shown.contains(QLatin1Char('\n')), qPrintable(shown));
    QVERIFY(shown.contains(QLatin1String("\\e[2J")));
    const QString huge(5000, QLatin1Char('x'));
    m_model->setSessions({session("a", huge)});
    QVERIFY(m_model->index(0, ConsulSessionModel::NameColumn).data().toString().size() < 400);
}

void TestConsulSessionModel::copiesARowAsText() {
    m_model->setSessions({session("a", "worker-17", "10s", {holding("jobs", core::HolderState::Live)})});
    const QStringList cells = m_model->rowText(0).split(QLatin1Char('\t'));
    QCOMPARE(cells.size(), int(ConsulSessionModel::ColumnCount));
    QCOMPARE(cells.first(), QStringLiteral("worker-17"));
    QCOMPARE(cells.at(ConsulSessionModel::HoldsColumn), QStringLiteral("consul:jobs (live)"));
    QCOMPARE(cells.last(), QStringLiteral("a"));
    QCOMPARE(m_model->rowText(7), QString());
}

SEMSCOPE_TEST_GUILESS_MAIN(TestConsulSessionModel)
#include "tst_consulsessionmodel.moc"
