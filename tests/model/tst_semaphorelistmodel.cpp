#include "TestMain.h"
#include "core/SnapshotRules.h"
#include "model/SemaphoreListModel.h"

#include <QAbstractItemModelTester>
#include <QDateTime>
#include <QSignalSpy>
#include <QtTest>

using namespace semscope;
using core::Kind;
using model::SemaphoreListModel;

namespace {
core::DiscoveredSemaphore found(Kind kind, const QString &name, QStringList warnings = {}) {
    core::DiscoveredSemaphore d;
    d.ref.kind = kind;
    d.ref.name = name;
    d.keys = {name};
    d.warnings = std::move(warnings);
    return d;
}

core::Holder holder(const QString &id, core::HolderState state, std::optional<qint64> expires) {
    core::Holder h;
    h.id = id;
    h.rawId = id.toUtf8();
    h.state = state;
    h.expiresAtMs = expires;
    return h;
}
} // namespace

class TestSemaphoreListModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void addsAndUpdatesInPlace();
    void summarisesSnapshots();
    void retainsOnlyPresent();
    void keepsEmptyAndPinnedOverARescan();
    void warningsSayThatAndHowManyFirst();
    void savedLimitOfAnEmptySemaphoreIsTheOperators();
    void clusterNodeColumnNamesMasterAndSlot();
};

// Issue 17 item 2: on a Cluster each semaphore names its master (slot in the tooltip), sorts by
// master then slot, is found by the text filter by its master, and follows a move.
void TestSemaphoreListModel::clusterNodeColumnNamesMasterAndSlot() {
    SemaphoreListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.addDiscovered({found(Kind::Leased, "plain")});
    QVERIFY(!model.hasClusterNodes());
    auto onNode = [](const QString &name, const QString &node, int slot) {
        core::DiscoveredSemaphore d = found(Kind::Leased, name);
        d.node = node;
        d.slot = slot;
        return d;
    };
    model.addDiscovered({onNode("a", "127.0.0.1:7001", 15495), onNode("b", "127.0.0.1:7001", 866)});
    QVERIFY(model.hasClusterNodes());
    const int a = model.rowOf({Kind::Leased, "a", {}});
    const int b = model.rowOf({Kind::Leased, "b", {}});
    QCOMPARE(model.index(a, SemaphoreListModel::NodeColumn).data().toString(),
             QStringLiteral("127.0.0.1:7001"));
    QCOMPARE(model.index(a, SemaphoreListModel::NodeColumn).data(Qt::ToolTipRole).toString(),
             QStringLiteral("Master 127.0.0.1:7001, hash slot 15495"));
    QVERIFY(model.index(b, SemaphoreListModel::NodeColumn).data(SemaphoreListModel::SortRole).toString() <
            model.index(a, SemaphoreListModel::NodeColumn).data(SemaphoreListModel::SortRole).toString());
    QVERIFY(model.index(a, 0).data(SemaphoreListModel::SearchTextRole).toString().contains("127.0.0.1:7001"));
    QCOMPARE(model.headerData(SemaphoreListModel::NodeColumn, Qt::Horizontal).toString(),
             QStringLiteral("Node"));
    model.addDiscovered({onNode("a", "127.0.0.1:7004", 15495)});
    QCOMPARE(model.index(a, SemaphoreListModel::NodeColumn).data().toString(),
             QStringLiteral("127.0.0.1:7004"));
    QCOMPARE(model.discoveredAt(a).slot, 15495);
    // A read redirected after a failover names the master serving it now; a snapshot without a
    // node (Consul, a failed read) leaves the last one known.
    core::Snapshot moved;
    moved.ref = {Kind::Leased, "a", {}};
    moved.node = QStringLiteral("127.0.0.1:7005");
    moved.slot = 15495;
    model.updateSnapshot(moved);
    QCOMPARE(model.index(a, SemaphoreListModel::NodeColumn).data().toString(),
             QStringLiteral("127.0.0.1:7005"));
    QCOMPARE(model.discoveredAt(a).node, QStringLiteral("127.0.0.1:7005"));
    moved.node.clear();
    moved.slot = -1;
    model.updateSnapshot(moved);
    QCOMPARE(model.discoveredAt(a).node, QStringLiteral("127.0.0.1:7005"));
    QCOMPARE(model.discoveredAt(a).slot, 15495);
}

// Issue 16 item 5: the warnings column is a narrow sign with the count, so it stays in view and an
// operator sees *that* there is something without scrolling; the tooltips say what.
void TestSemaphoreListModel::warningsSayThatAndHowManyFirst() {
    SemaphoreListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.addDiscovered({found(Kind::Slots, "printers", {"slot 2 is missing", "slot 3 is held twice"}),
                         found(Kind::Leased, "jobs")});
    const int printers = model.rowOf({Kind::Slots, "printers", {}});
    const QModelIndex w = model.index(printers, SemaphoreListModel::WarningsColumn);
    QCOMPARE(w.data().toString(), QStringLiteral("⚠ 2"));
    QCOMPARE(w.data(Qt::ToolTipRole).toString(), QStringLiteral("slot 2 is missing\nslot 3 is held twice"));
    QCOMPARE(w.data(SemaphoreListModel::SortRole).toInt(), 2);
    QVERIFY(model.index(printers, SemaphoreListModel::NameColumn)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("⚠ slot 3 is held twice")));
    const int jobs = model.rowOf({Kind::Leased, "jobs", {}});
    QVERIFY(model.index(jobs, SemaphoreListModel::WarningsColumn).data().toString().isEmpty());
}

// Issue 16 item 8: an empty zset with a saved limit of 4 is "0 / 4", the limit the operator's.
void TestSemaphoreListModel::savedLimitOfAnEmptySemaphoreIsTheOperators() {
    SemaphoreListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    core::Snapshot s;
    s.ref = {Kind::Zset, "demo:rate-limit", {}};
    s.ref.profile.limit = 4;
    core::applyProfileLimit(s, s.ref.profile);
    model.updateSnapshot(s);
    const QModelIndex usage = model.index(0, SemaphoreListModel::UsageColumn);
    QCOMPARE(usage.data().toString(), QStringLiteral("0 / 4"));
    QCOMPARE(usage.data(Qt::ToolTipRole).toString(), QStringLiteral("Limit 4 (profile)"));
}

void TestSemaphoreListModel::addsAndUpdatesInPlace() {
    SemaphoreListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.addDiscovered({found(Kind::Leased, "jobs"), found(Kind::Zset, "rate")});
    QCOMPARE(model.rowCount(), 2);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    // The same semaphore found again (a later SCAN page) updates, never duplicates.
    model.addDiscovered({found(Kind::Leased, "jobs", {"odd key type"}), found(Kind::Slots, "printers")});
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(inserted.count(), 1);
    const int jobs = model.rowOf({Kind::Leased, "jobs", {}});
    QCOMPARE(model.index(jobs, SemaphoreListModel::WarningsColumn).data().toString(), QStringLiteral("⚠ 1"));
    QCOMPARE(model.index(jobs, SemaphoreListModel::WarningsColumn).data(Qt::ToolTipRole).toString(),
             QStringLiteral("odd key type"));
    // Same name, other kind: a different semaphore.
    model.addDiscovered({found(Kind::Zset, "jobs")});
    QCOMPARE(model.rowCount(), 4);
}

void TestSemaphoreListModel::summarisesSnapshots() {
    qint64 local = 0;
    SemaphoreListModel model(nullptr, [&] { return local; });
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.addDiscovered({found(Kind::Leased, "jobs")});
    const QModelIndex usage = model.index(0, SemaphoreListModel::UsageColumn);
    QVERIFY(!usage.data(SemaphoreListModel::UsedRole).isValid());

    core::Snapshot s;
    s.ref = {Kind::Leased, "jobs", {}};
    s.limit = 3;
    s.limitSource = core::LimitSource::Stored;
    s.serverNowMs = 100'000;
    s.holders = {holder("a", core::HolderState::Live, 130'000),
                 holder("b", core::HolderState::ExpiredPresent, 90'000),
                 holder("w", core::HolderState::Waiting, 50'000)}; // its place in line, not a slot
    model.updateSnapshot(s);
    QCOMPARE(usage.data().toString(), QStringLiteral("2 / 3"));
    QCOMPARE(usage.data(SemaphoreListModel::UsedRole).toLongLong(), 2);
    QCOMPARE(model.index(0, SemaphoreListModel::HoldersColumn).data().toString(),
             QStringLiteral("2 (+1 waiting)"));
    QCOMPARE(
        model.index(0, SemaphoreListModel::StaleColumn).data(SemaphoreListModel::StaleCountRole).toLongLong(),
        1);
    // Soonest expiry is the already-expired holder, counted by the server clock; the waiter's
    // earlier expiry is when it would lose its place in line, and does not count.
    QVERIFY(model.soonestTtlMs(0).has_value());
    QCOMPARE(*model.soonestTtlMs(0), -10'000);

    // A snapshot for a semaphore not listed yet adds it.
    core::Snapshot other;
    other.ref = {Kind::Lock, "migrations", {}};
    model.updateSnapshot(other);
    QCOMPARE(model.rowCount(), 2);
}

void TestSemaphoreListModel::retainsOnlyPresent() {
    SemaphoreListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.addDiscovered({found(Kind::Leased, "a"), found(Kind::Leased, "b"), found(Kind::Leased, "c")});
    model.retainOnly({{Kind::Leased, "c", {}}, {Kind::Leased, "a", {}}});
    QCOMPARE(model.rowCount(), 2);
    QVERIFY(model.rowOf({Kind::Leased, "b", {}}) < 0);
    QCOMPARE(model.refAt(model.rowOf({Kind::Leased, "c", {}})).name, QStringLiteral("c"));
    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

// Issue 31 items 2 and 3: a semaphore seen before whose keys are gone stays listed as "empty since
// …", and a key opened by name stays listed, over a scan that misses them; Forget removes them.
void TestSemaphoreListModel::keepsEmptyAndPinnedOverARescan() {
    SemaphoreListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const auto rate = found(Kind::Zset, QStringLiteral("demo:rate-limit"));
    const auto jobs = found(Kind::Leased, QStringLiteral("demo:jobs"));
    const core::SemaphoreRef invoice{Kind::Lock, QStringLiteral("invoice-run"), {}};
    model.addDiscovered({rate, jobs});
    model.addPinned({invoice});
    QCOMPARE(model.rowCount(), 3);
    QVERIFY(model.isPinned(model.rowOf(invoice)));
    QVERIFY(model.index(model.rowOf(invoice), SemaphoreListModel::NameColumn)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QLatin1String("Open key")));
    model.addPinned({invoice}); // once
    QCOMPARE(model.rowCount(), 3);

    // Its last read found a holder; the scan now misses it: empty until a read says otherwise.
    core::Snapshot before;
    before.ref = rate.ref;
    before.holders << holder(QStringLiteral("w0"), core::HolderState::Live, std::nullopt);
    model.updateSnapshot(before);
    const qint64 lastSeen = QDateTime::currentMSecsSinceEpoch() - 60000;
    model.markEmpty(rate.ref, lastSeen);
    model.retainOnly({jobs.ref}); // the scan found only demo:jobs
    QCOMPARE(model.rowCount(), 3);
    const int row = model.rowOf(rate.ref);
    QCOMPARE(model.emptySinceMs(row), lastSeen);
    const QString text = model.index(row, SemaphoreListModel::UsageColumn).data().toString();
    QVERIFY2(text.startsWith(QLatin1String("empty since ")), qPrintable(text));
    QVERIFY(text.contains(QDateTime::fromMSecsSinceEpoch(lastSeen).toString(QStringLiteral("HH:mm"))));
    QVERIFY(!model.index(row, 0).data(SemaphoreListModel::UsedRole).isValid()); // no usage bar
    QVERIFY(model.index(row, SemaphoreListModel::UsageColumn)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QLatin1String("Forget")));
    QVERIFY(model.index(row, SemaphoreListModel::NameColumn)
                .data(Qt::ToolTipRole)
                .toString()
                .startsWith(QLatin1String("No keys now: empty since")));
    // Its summary (0 holders) does not hide that it is empty.
    core::Snapshot empty;
    empty.ref = rate.ref;
    model.updateSnapshot(empty);
    QVERIFY(model.index(row, SemaphoreListModel::UsageColumn).data().toString().startsWith(u"empty since"));

    // A read that finds a holder shows it as what it is, whatever the scan missed.
    core::Snapshot held;
    held.ref = rate.ref;
    held.holders << holder(QStringLiteral("w1"), core::HolderState::Live, std::nullopt);
    model.updateSnapshot(held);
    QCOMPARE(model.index(row, SemaphoreListModel::UsageColumn).data().toString(), QStringLiteral("1 / ?"));
    model.updateSnapshot(empty);

    // Found again: a normal row.
    model.addDiscovered({rate});
    QVERIFY(!model.emptySinceMs(model.rowOf(rate.ref)));
    model.retainOnly({jobs.ref});
    QCOMPARE(model.rowOf(rate.ref), -1); // not marked empty this time: gone
    QVERIFY(model.rowOf(invoice) >= 0);

    QVERIFY(model.remove(invoice)); // Forget
    QVERIFY(!model.remove(invoice));
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.refAt(0), jobs.ref);
    QCOMPARE(model.rowOf(jobs.ref), 0);
}

SEMSCOPE_TEST_MAIN(TestSemaphoreListModel)
#include "tst_semaphorelistmodel.moc"
