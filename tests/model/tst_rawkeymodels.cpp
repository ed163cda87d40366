// The raw view's two models (keys; one key's contents) checked with QAbstractItemModelTester, and
// the in-memory test store's raw read (what the models are fed from in tests without a server).

#include "InMemorySemaphoreStore.h"
#include "TestMain.h"
#include "model/RawKeyListModel.h"

#include <QAbstractItemModelTester>
#include <QDateTime>
#include <QtTest>

using namespace semscope;
using model::RawKeyContentModel;
using model::RawKeyListModel;

namespace {
core::RawKey zsetKey(const QString &name, int members, qint64 length) {
    core::RawKey k;
    k.name = name;
    k.type = QStringLiteral("zset");
    k.ttlMs = 12'500;
    k.length = length;
    k.columns = {QStringLiteral("member"), QStringLiteral("score")};
    for (int i = 0; i < members; ++i)
        k.rows.append({QStringLiteral("m%1").arg(i), QString::number(i)});
    return k;
}

core::RawKey kvKey() {
    core::RawKey k;
    k.name = QStringLiteral("svc/jobs/.lock");
    k.type = QStringLiteral("kv");
    k.length = 40;
    k.value = QStringLiteral("{\n    \"Limit\": 3\n}");
    k.meta = {{QStringLiteral("Flags"), QStringLiteral("0")},
              {QStringLiteral("ModifyIndex"), QStringLiteral("42")}};
    return k;
}
} // namespace

class TestRawKeyModels : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void listsKeys();
    void refreshKeepsRowsOfTheSameKeys();
    void showsContents_data();
    void showsContents();
    void inMemoryStoreReadsRaw();
    void zsetScoresThatAreTimes_data();
    void zsetScoresThatAreTimes();
};

void TestRawKeyModels::listsKeys() {
    RawKeyListModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    core::RawKey s;
    s.name = QStringLiteral("demo:lock");
    s.type = QStringLiteral("string");
    s.length = 1;
    s.value = QStringLiteral("x");
    core::RawKey broken;
    broken.name = QStringLiteral("demo:broken");
    broken.error = QStringLiteral("WRONGTYPE");
    m.setKeys({zsetKey(QStringLiteral("{demo}:holders"), 200, 5000), s, kvKey(), broken});
    QCOMPARE(m.rowCount(), 4);
    auto cell = [&m](int r, int c) { return m.index(r, c).data().toString(); };
    QCOMPARE(cell(0, RawKeyListModel::NameColumn), QStringLiteral("{demo}:holders"));
    QCOMPARE(cell(0, RawKeyListModel::TypeColumn), QStringLiteral("zset"));
    QCOMPARE(cell(0, RawKeyListModel::TtlColumn), QStringLiteral("12.5 s"));
    QCOMPARE(cell(0, RawKeyListModel::SizeColumn), QStringLiteral("5000 elements"));
    QCOMPARE(cell(1, RawKeyListModel::TtlColumn), QStringLiteral("no expiry"));
    QCOMPARE(cell(1, RawKeyListModel::SizeColumn), QStringLiteral("1 byte"));
    QCOMPARE(cell(2, RawKeyListModel::TtlColumn), QStringLiteral("—"));
    QCOMPARE(cell(3, RawKeyListModel::TypeColumn), QStringLiteral("error"));
    QCOMPARE(m.index(3, 0).data(Qt::ToolTipRole).toString(), QStringLiteral("WRONGTYPE"));
    QCOMPARE(m.rowOf(QStringLiteral("svc/jobs/.lock")), 2);
    QCOMPARE(m.rowText(0), QStringLiteral("{demo}:holders\tzset\t12.5 s\t5000 elements"));
    QCOMPARE(m.keyAt(9), nullptr);
    QCOMPARE(m.keyAt(0)->shownNote(), QStringLiteral("first 200 of 5000 shown"));
}

void TestRawKeyModels::refreshKeepsRowsOfTheSameKeys() {
    RawKeyListModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    m.setKeys({zsetKey("a", 1, 1), zsetKey("b", 1, 1)});
    QSignalSpy reset(&m, &QAbstractItemModel::modelReset);
    QSignalSpy changed(&m, &QAbstractItemModel::dataChanged);
    m.setKeys({zsetKey("a", 2, 2), zsetKey("b", 1, 1)}); // same keys: updated in place
    QCOMPARE(reset.size(), 0);
    QCOMPARE(changed.size(), 1);
    QCOMPARE(m.index(0, RawKeyListModel::SizeColumn).data().toString(), QStringLiteral("2 elements"));
    m.setKeys({zsetKey("c", 1, 1)}); // other keys: the list is replaced
    QCOMPARE(reset.size(), 1);
    m.setKeys({});
    QCOMPARE(m.rowCount(), 0);
}

void TestRawKeyModels::showsContents_data() {
    QTest::addColumn<int>("which");
    QTest::addColumn<QStringList>("headers");
    QTest::addColumn<int>("rows");
    QTest::addColumn<QString>("firstRow");
    QTest::newRow("zset: member/score") << 0 << QStringList{"member", "score"} << 3 << "m0\t0";
    QTest::newRow("consul: properties") << 1 << QStringList{"property", "value"} << 2 << "Flags\t0";
    QTest::newRow("string: no table") << 2 << QStringList{} << 0 << QString();
}

void TestRawKeyModels::showsContents() {
    QFETCH(int, which);
    QFETCH(QStringList, headers);
    QFETCH(int, rows);
    QFETCH(QString, firstRow);
    RawKeyContentModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    core::RawKey plain;
    plain.name = QStringLiteral("s");
    plain.type = QStringLiteral("string");
    plain.value = QStringLiteral("v");
    const QList<core::RawKey> keys{zsetKey("z", 3, 3), kvKey(), plain};
    m.setKey(keys[which]);
    QStringList shown;
    for (int c = 0; c < m.columnCount(); ++c)
        shown << m.headerData(c, Qt::Horizontal).toString();
    QCOMPARE(shown, headers);
    QCOMPARE(m.rowCount(), rows);
    QCOMPARE(m.rowText(0), firstRow);
    m.clear();
    QCOMPARE(m.rowCount(), 0);
    QCOMPARE(m.columnCount(), 0);
}

void TestRawKeyModels::inMemoryStoreReadsRaw() {
    auto server = std::make_shared<test::InMemorySemaphoreServer>();
    test::InMemorySemaphoreStore store(server);
    core::SemaphoreRef ref;
    ref.kind = core::Kind::Leased;
    ref.name = QStringLiteral("jobs");
    ref.profile.limit = 2;
    core::AcquireRequest req;
    req.holder = QStringLiteral("worker-17");
    std::optional<core::AcquireResult> granted;
    store.acquire(ref, req, {}, [&](core::AcquireResult r) { granted = r; });
    QTRY_VERIFY(granted.has_value());
    QCOMPARE(granted->status, core::AcquireResult::Status::Granted);
    std::optional<core::RawKeys> raw;
    core::RawKeySource *source = &store;
    source->readRawKeys(ref, [&](core::RawKeys r) { raw = r; });
    QVERIFY(!raw.has_value()); // later, never inside the call
    QTRY_VERIFY(raw.has_value());
    QVERIFY(raw->ok);
    QCOMPARE(raw->keys.size(), 1);
    RawKeyContentModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    m.setKey(raw->keys.first());
    QCOMPARE(m.rowCount(), 1);
    QCOMPARE(m.index(0, 0).data().toString(), QStringLiteral("worker-17"));
}

// Issue 31 item 11: a ZSET scored by expiry shows when, beside the raw number (kept as stored).
void TestRawKeyModels::zsetScoresThatAreTimes_data() {
    QTest::addColumn<QString>("score");
    QTest::addColumn<QString>("time");   // empty: no time column at all
    const qint64 ms = 1'764'324'000'123; // 2025-11-28, in milliseconds
    QTest::newRow("epoch milliseconds")
        << QString::number(ms)
        << QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
    QTest::newRow("epoch seconds, fractional")
        << QStringLiteral("1764324000.5")
        << QDateTime::fromMSecsSinceEpoch(1'764'324'000'500).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) +
               QStringLiteral(" (s)");
    QTest::newRow("a counter") << QStringLiteral("42") << QString();
    QTest::newRow("a fencing token") << QStringLiteral("1764324") << QString();
    QTest::newRow("not a number") << QStringLiteral("inf") << QString();
}

void TestRawKeyModels::zsetScoresThatAreTimes() {
    QFETCH(QString, score);
    QFETCH(QString, time);
    core::RawKey k = zsetKey(QStringLiteral("z"), 0, 1);
    k.rows.append({QStringLiteral("worker-1"), score});
    RawKeyContentModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    m.setKey(k);
    QCOMPARE(m.index(0, 1).data().toString(), score); // the raw number stays as stored
    if (time.isEmpty()) {
        QCOMPARE(m.columnCount(), 2);
        return;
    }
    QCOMPARE(m.columnCount(), 3);
    QCOMPARE(m.headerData(2, Qt::Horizontal).toString(), QStringLiteral("score as time"));
    QCOMPARE(m.index(0, 2).data().toString(), time);
}

SEMSCOPE_TEST_GUILESS_MAIN(TestRawKeyModels)
#include "tst_rawkeymodels.moc"
