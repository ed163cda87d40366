#include "HolderSnapshots.h"
#include "TestMain.h"
#include "model/HolderSortProxy.h"
#include "model/HolderTableModel.h"

#include <QAbstractItemModelTester>
#include <QtTest>

using namespace semscope;
using core::Holder;
using test::holder;
using test::snapshot;

namespace {

constexpr qint64 kNow = 1'700'000'000'000;

// A holder table behind its sort proxy, which QAbstractItemModelTester checks throughout.
struct SortedTable {
    model::HolderTableModel model;
    model::HolderSortProxy proxy;
    std::unique_ptr<QAbstractItemModelTester> tester;

    SortedTable(int column, Qt::SortOrder order) {
        proxy.setSourceModel(&model);
        tester = std::make_unique<QAbstractItemModelTester>(
            &proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.sort(column, order);
    }
    // One column's text, in the proxy's order.
    QStringList column(int c) const {
        QStringList out;
        for (int r = 0; r < proxy.rowCount(); ++r)
            out << proxy.index(r, c).data().toString();
        return out;
    }
    QStringList ids() const { return column(model::HolderTableModel::HolderColumn); }
};

} // namespace

class TestHolderSortProxy : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void resortsOnlyWhenOrderChanged();
    void waitersFollowHoldersInQueueOrder();
    void followsScatteredChanges();
    void outlivesItsModel();
};

void TestHolderSortProxy::resortsOnlyWhenOrderChanged() {
    SortedTable t(model::HolderTableModel::RankColumn, Qt::AscendingOrder);
    model::HolderTableModel &model = t.model;
    model::HolderSortProxy &proxy = t.proxy;
    const qint64 now = kNow;
    model.setSnapshot(
        snapshot({holder(QStringLiteral("a"), 0, now + 5000), holder(QStringLiteral("b"), 1, now + 5000),
                  holder(QStringLiteral("c"), 2, now + 5000)},
                 now));
    proxy.resortIfNeeded();
    QCOMPARE(t.ids(), (QStringList{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")}));
    // Ranks shift together: still in order, nothing to do.
    model.setSnapshot(snapshot(
        {holder(QStringLiteral("b"), 0, now + 5000), holder(QStringLiteral("c"), 1, now + 5000)}, now));
    QVERIFY(!proxy.resortIfNeeded());
    // A newcomer takes rank 0: it moves to the top.
    model.setSnapshot(
        snapshot({holder(QStringLiteral("d"), 0, now + 5000), holder(QStringLiteral("b"), 1, now + 5000),
                  holder(QStringLiteral("c"), 2, now + 5000)},
                 now));
    QVERIFY(proxy.resortIfNeeded());
    QCOMPARE(t.ids(), (QStringList{QStringLiteral("d"), QStringLiteral("b"), QStringLiteral("c")}));
}

// A leased waiter's rank is its place in the queue: by rank, waiters come after every holder, in
// queue order, and read "line 1" for the next to be served.
void TestHolderSortProxy::waitersFollowHoldersInQueueOrder() {
    SortedTable t(model::HolderTableModel::RankColumn, Qt::AscendingOrder);
    const qint64 now = kNow;
    auto waiter = [now](const QString &id, qint64 place) {
        Holder w = holder(id, place, now + 10'000);
        w.token.reset();
        w.state = core::HolderState::Waiting;
        return w;
    };
    t.model.setSnapshot(
        snapshot({waiter(QStringLiteral("w2"), 1), holder(QStringLiteral("h1"), 1, now + 5000),
                  waiter(QStringLiteral("w1"), 0), holder(QStringLiteral("h0"), 0, now + 5000),
                  holder(QStringLiteral("h2"), 2, now + 5000)},
                 now));
    t.proxy.resortIfNeeded();
    QCOMPARE(t.ids(), (QStringList{QStringLiteral("h0"), QStringLiteral("h1"), QStringLiteral("h2"),
                                   QStringLiteral("w1"), QStringLiteral("w2")}));
    QCOMPARE(t.column(model::HolderTableModel::RankColumn),
             (QStringList{QStringLiteral("0"), QStringLiteral("1"), QStringLiteral("2"),
                          QStringLiteral("line 1"), QStringLiteral("line 2")}));
}

void TestHolderSortProxy::followsScatteredChanges() {
    // Descending by TTL, so source order and proxy order differ: leavers are scattered over the
    // proxy rows, and a selected holder must stay selected through removals and a resort.
    SortedTable t(model::HolderTableModel::TtlColumn, Qt::DescendingOrder);
    model::HolderTableModel &model = t.model;
    model::HolderSortProxy &proxy = t.proxy;
    const qint64 now = kNow;
    QList<Holder> hs;
    for (int i = 0; i < 20; ++i)
        hs << holder(QStringLiteral("h%1").arg(i), i, now + 1000 * ((i * 7) % 20));
    model.setSnapshot(snapshot(hs, now));
    QCOMPARE(proxy.rowCount(), 20);
    auto ttls = [&] {
        QList<qint64> out;
        for (int r = 0; r < proxy.rowCount(); ++r)
            out << proxy.index(r, 0).data(model::HolderTableModel::TtlMsRole).toLongLong();
        return out;
    };
    QList<qint64> sorted = ttls();
    QVERIFY(std::is_sorted(sorted.rbegin(), sorted.rend()));
    const QPersistentModelIndex kept = proxy.mapFromSource(model.index(model.rowOf("h5"), 0));
    QVERIFY(kept.isValid());

    // Every third holder leaves, two arrive, and h5's lease moves to the very end of the order.
    QList<Holder> next;
    for (int i = 0; i < 20; ++i) {
        if (i % 3 != 0)
            next << hs.at(i);
    }
    next << holder(QStringLiteral("new1"), 30, now + 500) << holder(QStringLiteral("new2"), 31, now + 30000);
    for (Holder &h : next) {
        if (h.id == QStringLiteral("h5"))
            h.expiresAtMs = now + 100;
    }
    model.setSnapshot(snapshot(next, now));
    QCOMPARE(proxy.rowCount(), next.size());
    QVERIFY(proxy.resortIfNeeded());
    sorted = ttls();
    QVERIFY(std::is_sorted(sorted.rbegin(), sorted.rend()));
    QCOMPARE(t.ids().first(), QStringLiteral("new2"));
    QCOMPARE(t.ids().last(), QStringLiteral("h5"));
    QVERIFY(kept.isValid());
    QCOMPARE(kept.data(model::HolderTableModel::RawIdRole).toByteArray(), QByteArray("h5"));
    QCOMPARE(kept.row(), proxy.rowCount() - 1);
    for (int r = 0; r < proxy.rowCount(); ++r) {
        const QModelIndex source = proxy.mapToSource(proxy.index(r, 1));
        QCOMPARE(proxy.mapFromSource(source).row(), r);
    }

    // Text columns sort by their text; unsorted is the model's own order.
    proxy.sort(model::HolderTableModel::HolderColumn, Qt::AscendingOrder);
    QStringList byName = t.ids();
    QVERIFY(std::is_sorted(byName.begin(), byName.end()));
    proxy.sort(-1);
    for (int r = 0; r < proxy.rowCount(); ++r)
        QCOMPARE(proxy.mapToSource(proxy.index(r, 0)).row(), r);
    model.clear();
    QCOMPARE(proxy.rowCount(), 0);
}

void TestHolderSortProxy::outlivesItsModel() {
    auto *model = new model::HolderTableModel;
    model::HolderSortProxy proxy;
    proxy.setSourceModel(model);
    proxy.sort(model::HolderTableModel::RankColumn, Qt::AscendingOrder);
    model->setSnapshot(snapshot({holder(QStringLiteral("a"), 0, kNow + 5000)}, kNow));
    QCOMPARE(proxy.rowCount(), 1);
    delete model;
    QCOMPARE(proxy.rowCount(), 0);
    QVERIFY(!proxy.index(0, 0).isValid());
}

SEMSCOPE_TEST_MAIN(TestHolderSortProxy)
#include "tst_holdersortproxy.moc"
