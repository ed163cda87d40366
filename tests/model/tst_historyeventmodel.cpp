#include "TestMain.h"
#include "model/HistoryEventModel.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace semscope;
using model::HistoryEventModel;
using monitor::HolderEvent;

namespace {

HolderEvent ev(qint64 atMs, const char *event, const char *holder, std::optional<qint64> token = {},
               const QString &details = {}) {
    HolderEvent e;
    e.atMs = atMs;
    e.event = QString::fromLatin1(event);
    e.ref.kind = core::Kind::Leased;
    e.ref.name = QStringLiteral("jobs");
    e.holder = QString::fromLatin1(holder);
    e.token = token;
    e.details = details;
    return e;
}

// Newest first, as HistoryStore::events gives them.
QList<HolderEvent> newestFirst(QList<HolderEvent> oldestFirst) {
    std::reverse(oldestFirst.begin(), oldestFirst.end());
    return oldestFirst;
}

} // namespace

class TestHistoryEventModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void heldFor_data();
    void heldFor();
    void showsEveryColumn();
    void csvIsOldestFirstAndQuoted();
    void emptyModel();
};

void TestHistoryEventModel::heldFor_data() {
    QTest::addColumn<QList<HolderEvent>>("oldestFirst");
    QTest::addColumn<QList<qint64>>("expected"); // per row, oldest first; -1: no duration
    QTest::newRow("acquire then release")
        << QList<HolderEvent>{ev(1000, "acquired", "a"), ev(4000, "released", "a")}
        << QList<qint64>{-1, 3000};
    QTest::newRow("every departure closes a hold")
        << QList<HolderEvent>{ev(0, "acquired", "a"),        ev(10, "expired", "a"),  ev(20, "acquired", "b"),
                              ev(50, "force-released", "b"), ev(60, "acquired", "c"), ev(90, "removed", "c")}
        << QList<qint64>{-1, 10, -1, 30, -1, 30};
    QTest::newRow("expired then removed is one hold")
        << QList<HolderEvent>{ev(0, "acquired", "a"), ev(100, "expired", "a"), ev(300, "removed", "a")}
        << QList<qint64>{-1, 100, -1};
    QTest::newRow("departure without its acquisition in the list")
        << QList<HolderEvent>{ev(500, "released", "a")} << QList<qint64>{-1};
    QTest::newRow("holders interleaved")
        << QList<HolderEvent>{ev(0, "acquired", "a"), ev(5, "acquired", "b"), ev(7, "released", "a"),
                              ev(20, "released", "b")}
        << QList<qint64>{-1, -1, 7, 15};
    QTest::newRow("held again") << QList<HolderEvent>{ev(0, "acquired", "a"), ev(10, "released", "a"),
                                                      ev(100, "acquired", "a"), ev(160, "released", "a")}
                                << QList<qint64>{-1, 10, -1, 60};
    QTest::newRow("stale is no departure")
        << QList<HolderEvent>{ev(0, "acquired", "a"), ev(50, "stale", "a"), ev(80, "removed", "a")}
        << QList<qint64>{-1, -1, 80};
}

void TestHistoryEventModel::heldFor() {
    QFETCH(QList<HolderEvent>, oldestFirst);
    QFETCH(QList<qint64>, expected);
    HistoryEventModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    m.setEvents(newestFirst(oldestFirst));
    QCOMPARE(m.rowCount(), oldestFirst.size());
    for (int i = 0; i < expected.size(); ++i) {
        const int row = int(oldestFirst.size()) - 1 - i;
        const auto held = m.heldForMs(row);
        QCOMPARE(held.value_or(-1), expected.at(i));
        const QVariant raw = m.index(row, HistoryEventModel::HeldForColumn).data(HistoryEventModel::RawRole);
        QCOMPARE(raw.isValid(), expected.at(i) >= 0);
    }
}

void TestHistoryEventModel::showsEveryColumn() {
    HistoryEventModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    HolderEvent e = ev(1764150000000, "acquired", "worker-1", 7, "after waiting");
    e.slot = 2;
    m.setEvents({ev(1764150065000, "released", "worker-1", 7), e});
    QCOMPARE(m.columnCount(), int(HistoryEventModel::ColumnCount));
    QCOMPARE(m.index(1, HistoryEventModel::EventColumn).data().toString(), QStringLiteral("acquired"));
    QCOMPARE(m.index(1, HistoryEventModel::HolderColumn).data().toString(), QStringLiteral("worker-1"));
    QCOMPARE(m.index(1, HistoryEventModel::TokenColumn).data().toString(), QStringLiteral("7"));
    QCOMPARE(m.index(1, HistoryEventModel::SlotColumn).data().toString(), QStringLiteral("2"));
    QCOMPARE(m.index(1, HistoryEventModel::DetailsColumn).data().toString(), QStringLiteral("after waiting"));
    QCOMPARE(m.index(0, HistoryEventModel::SlotColumn).data().toString(), QString());
    QCOMPARE(m.index(0, HistoryEventModel::TimeColumn).data(HistoryEventModel::RawRole).toLongLong(),
             1764150065000);
    QVERIFY(!m.index(0, HistoryEventModel::HeldForColumn).data().toString().isEmpty()); // "1 min 5 s" or so
    QCOMPARE(m.headerData(HistoryEventModel::HeldForColumn, Qt::Horizontal, Qt::DisplayRole).toString(),
             QStringLiteral("Held for"));
}

void TestHistoryEventModel::csvIsOldestFirstAndQuoted() {
    HistoryEventModel m;
    m.setEvents(newestFirst(
        {ev(1000, "acquired", "a,b", 1),
         ev(2500, "force-released", "a,b", 1, "force-released by semscope (\"ops\"@desk, pid 4)")}));
    const QStringList lines = m.toCsv().split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);
    QCOMPARE(lines[0],
             QStringLiteral("time,at_ms,event,kind,name,holder,token,slot,ttl_ms,held_for_ms,details"));
    QCOMPARE(lines[1], QStringLiteral("1970-01-01T00:00:01.000Z,1000,acquired,leased,jobs,\"a,b\",1,,,,"));
    QCOMPARE(lines[2],
             QStringLiteral("1970-01-01T00:00:02.500Z,2500,force-released,leased,jobs,\"a,b\",1,,,1500,"
                            "\"force-released by semscope (\"\"ops\"\"@desk, pid 4)\""));
}

void TestHistoryEventModel::emptyModel() {
    HistoryEventModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(m.rowCount(), 0);
    QCOMPARE(m.toCsv().count(QStringLiteral("\r\n")), 1);
    m.setEvents({ev(1, "acquired", "a")});
    m.setEvents({});
    QCOMPARE(m.rowCount(), 0);
}

SEMSCOPE_TEST_GUILESS_MAIN(TestHistoryEventModel)
#include "tst_historyeventmodel.moc"
