#include "HolderSnapshots.h"
#include "TestMain.h"
#include "model/HolderTableModel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QtTest>

using namespace semscope;
using core::Holder;
using core::HolderState;
using model::HolderTableModel;
using test::holder;
using test::snapshot;

class TestHolderTableModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void updatesRowsInPlace_data();
    void updatesRowsInPlace();
    void neverResets();
    void ttlCountsDownFromServerClock();
    void duplicateIdsStayVisible();
    void consulHolderShowsSessionName();
    void largeRefreshKeepsRowCount();
    void ageSaysWhenItIsOnlyWatched();
    void slotsHolderSortsBySlotWithoutRank();
};

// Issue 16 item 9: "Age" is an age only where the layout records the acquire time; otherwise it
// is how long semscope watched the holder, and the cell says "watched for".
void TestHolderTableModel::ageSaysWhenItIsOnlyWatched() {
    qint64 local = 100000;
    HolderTableModel model(nullptr, [&] { return local; });
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    Holder recorded = holder(QStringLiteral("recorded"), 0, std::nullopt);
    recorded.acquiredAtMs = 100000 - 90000; // acquired 90 s ago, by the server clock
    Holder seen = holder(QStringLiteral("seen"), 1, std::nullopt);
    seen.firstSeenMs = 100000 - 5000; // semscope first saw it 5 s ago
    model.setSnapshot(snapshot({recorded, seen}, 100000));
    const auto ageOf = [&](const QString &id) {
        return model.index(model.rowOf(id.toUtf8()), HolderTableModel::AgeColumn).data().toString();
    };
    QCOMPARE(ageOf(QStringLiteral("recorded")), QStringLiteral("1 m 30 s"));
    QCOMPARE(ageOf(QStringLiteral("seen")), QStringLiteral("watched for 5.0 s"));
}

// One rank convention (from 0): a `slots` holder has a slot number and no rank, and the page's
// default order by rank puts slots in slot order.
void TestHolderTableModel::slotsHolderSortsBySlotWithoutRank() {
    HolderTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QList<Holder> hs;
    for (const auto &[id, slot] : {std::pair{"c", 3}, std::pair{"a", 1}, std::pair{"b", 2}}) {
        Holder h = holder(QString::fromLatin1(id), 0, std::nullopt);
        h.rank.reset();
        h.slot = slot;
        hs << h;
    }
    core::Snapshot s = snapshot(hs, 1000);
    s.ref.kind = core::Kind::Slots;
    model.setSnapshot(s);
    QVERIFY(model.index(0, HolderTableModel::RankColumn).data().toString().isEmpty());
    QCOMPARE(model.numericSortKey(model.rowOf("a"), HolderTableModel::RankColumn), std::optional<qint64>(1));
    QCOMPARE(model.numericSortKey(model.rowOf("c"), HolderTableModel::RankColumn), std::optional<qint64>(3));
}

void TestHolderTableModel::updatesRowsInPlace_data() {
    QTest::addColumn<QStringList>("before");
    QTest::addColumn<QStringList>("after");
    QTest::addColumn<int>("removed");
    QTest::addColumn<int>("inserted");
    QTest::newRow("same") << QStringList{"a", "b", "c"} << QStringList{"a", "b", "c"} << 0 << 0;
    QTest::newRow("one left") << QStringList{"a", "b", "c"} << QStringList{"a", "c"} << 1 << 0;
    QTest::newRow("one came") << QStringList{"a", "b"} << QStringList{"a", "b", "d"} << 0 << 1;
    QTest::newRow("churn") << QStringList{"a", "b", "c", "d"} << QStringList{"b", "e", "d", "f"} << 2 << 2;
    QTest::newRow("all new") << QStringList{"a"} << QStringList{"x", "y"} << 1 << 2;
    QTest::newRow("empty") << QStringList{"a", "b"} << QStringList{} << 2 << 0;
}

void TestHolderTableModel::updatesRowsInPlace() {
    QFETCH(QStringList, before);
    QFETCH(QStringList, after);
    QFETCH(int, removed);
    QFETCH(int, inserted);
    qint64 local = 1000;
    HolderTableModel model(nullptr, [&] { return local; });
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QList<Holder> hs;
    for (int i = 0; i < before.size(); ++i)
        hs << holder(before.at(i), i, 60000);
    model.setSnapshot(snapshot(hs, 1000));
    QCOMPARE(model.rowCount(), before.size());

    QSignalSpy removedSpy(&model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy insertedSpy(&model, &QAbstractItemModel::rowsInserted);
    hs.clear();
    for (int i = 0; i < after.size(); ++i)
        hs << holder(after.at(i), i, 60000);
    model.setSnapshot(snapshot(hs, 2000));
    int removedRows = 0;
    for (const auto &args : removedSpy)
        removedRows += args.at(2).toInt() - args.at(1).toInt() + 1;
    int insertedRows = 0;
    for (const auto &args : insertedSpy)
        insertedRows += args.at(2).toInt() - args.at(1).toInt() + 1;
    QCOMPARE(removedRows, removed);
    QCOMPARE(insertedRows, inserted);
    QCOMPARE(model.rowCount(), after.size());
    QStringList shown;
    for (int r = 0; r < model.rowCount(); ++r)
        shown << model.index(r, HolderTableModel::HolderColumn).data().toString();
    QStringList sortedShown = shown;
    QStringList sortedAfter = after;
    sortedShown.sort();
    sortedAfter.sort();
    QCOMPARE(sortedShown, sortedAfter);
}

void TestHolderTableModel::neverResets() {
    HolderTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.setSnapshot(snapshot({holder("a", 0, 5000), holder("b", 1, 9000)}, 1000));
    changed.clear();
    // Only b changed (a new token after a re-acquire): a's row is not reported as changed by the
    // update itself (only the time columns tick).
    model.setSnapshot(snapshot({holder("a", 0, 5000), holder("b", 1, 9000, 7)}, 1100));
    QCOMPARE(reset.count(), 0);
    bool sawB = false;
    for (const auto &args : changed) {
        const auto tl = args.at(0).value<QModelIndex>();
        const auto br = args.at(1).value<QModelIndex>();
        if (tl.column() == 0 && br.column() == HolderTableModel::ColumnCount - 1) {
            QCOMPARE(tl.row(), model.rowOf("b"));
            QCOMPARE(br.row(), model.rowOf("b"));
            sawB = true;
        }
    }
    QVERIFY(sawB);
    QCOMPARE(model.index(model.rowOf("b"), HolderTableModel::TokenColumn).data().toString(),
             QStringLiteral("7"));
}

void TestHolderTableModel::ttlCountsDownFromServerClock() {
    // The local clock is far behind the server: only the offset measured at the read matters.
    qint64 local = 5000;
    HolderTableModel model(nullptr, [&] { return local; });
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const qint64 serverNow = 1'000'000;
    model.setSnapshot(
        snapshot({holder("a", 0, serverNow + 60'000), holder("slotted", 1, std::nullopt)}, serverNow));
    const QModelIndex ttl = model.index(model.rowOf("a"), HolderTableModel::TtlColumn);
    QCOMPARE(ttl.data(HolderTableModel::TtlMsRole).toLongLong(), 60'000);
    QCOMPARE(ttl.data(HolderTableModel::TtlBandRole).toString(), QStringLiteral("ok"));

    QSignalSpy ticked(&model, &QAbstractItemModel::dataChanged);
    local += 50'000;
    model.tick();
    QCOMPARE(ttl.data(HolderTableModel::TtlBandRole).toString(), QStringLiteral("low"));
    local += 7'000;
    QCOMPARE(ticked.count(), 1);
    QCOMPARE(ttl.data(HolderTableModel::TtlMsRole).toLongLong(), 3'000);
    QCOMPARE(ttl.data(HolderTableModel::TtlBandRole).toString(), QStringLiteral("critical"));

    local += 4'000;
    QVERIFY(ttl.data(HolderTableModel::TtlMsRole).toLongLong() < 0);
    QCOMPARE(ttl.data(HolderTableModel::TtlBandRole).toString(), QStringLiteral("expired"));
    QCOMPARE(model.index(model.rowOf("a"), 0).data(HolderTableModel::StateRole).toInt(),
             int(HolderState::ExpiredPresent));
    QVERIFY(ttl.data(Qt::BackgroundRole).isValid());
    QVERIFY(ttl.data().toString().startsWith(QLatin1String("expired")));

    // A holder without lease: no TTL, its age comes from when it was first seen.
    const QModelIndex noTtl = model.index(model.rowOf("slotted"), HolderTableModel::TtlColumn);
    QVERIFY(!noTtl.data(HolderTableModel::TtlMsRole).isValid());
    QCOMPARE(noTtl.data(HolderTableModel::TtlBandRole).toString(), QStringLiteral("none"));
    QCOMPARE(model.ageMs(*model.holderAt(model.rowOf("slotted"))), 61'000);
}

void TestHolderTableModel::duplicateIdsStayVisible() {
    HolderTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSnapshot(snapshot({holder("dup", 0, 5000), holder("dup", 1, 6000)}, 1000));
    QCOMPARE(model.rowCount(), 2);
    model.setSnapshot(snapshot({holder("dup", 0, 5000)}, 1000));
    QCOMPARE(model.rowCount(), 1);
}

void TestHolderTableModel::consulHolderShowsSessionName() {
    HolderTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    auto s = snapshot({holder("3912f152-ae24-4097-b6e8-415579a25013", 0, std::nullopt)}, 1000);
    s.ref.kind = core::Kind::Consul;
    s.holders[0].details.insert(QStringLiteral("sessionName"), QStringLiteral("batch-runner@node-2"));
    s.holders[0].details.insert(QStringLiteral("node"), QStringLiteral("node-2"));
    s.holders[0].details.insert(QStringLiteral("checks"), QStringList{QStringLiteral("serfHealth")});
    model.setSnapshot(s);
    QVERIFY(model.hasConsulColumns());
    QCOMPARE(model.index(0, HolderTableModel::HolderColumn).data().toString(),
             QStringLiteral("batch-runner@node-2  (3912f152)"));
    QCOMPARE(model.index(0, HolderTableModel::NodeColumn).data().toString(), QStringLiteral("node-2"));
    QCOMPARE(model.index(0, HolderTableModel::HealthColumn).data().toString(), QStringLiteral("serfHealth"));
}

void TestHolderTableModel::largeRefreshKeepsRowCount() {
    HolderTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Warning);
    QList<Holder> hs;
    for (int i = 0; i < 2000; ++i)
        hs << holder(QStringLiteral("h%1").arg(i), i, 100000 + i);
    model.setSnapshot(snapshot(hs, 1000));
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    for (int i = 0; i < 2000; i += 7)
        hs[i].expiresAtMs = 200000 + i;
    model.setSnapshot(snapshot(hs, 2000));
    QCOMPARE(model.rowCount(), 2000);
    QCOMPARE(reset.count(), 0);
}

SEMSCOPE_TEST_MAIN(TestHolderTableModel)
#include "tst_holdertablemodel.moc"
