// Which writes the semaphore page offers (model/SemaphoreActionRules): nothing the store would refuse
// is enabled, and each greyed action says why and what the operator can do instead (issue 31 item 1).
#include "TestMain.h"
#include "model/SemaphoreActionRules.h"
#include "redis/RedisSemaphoreStore.h"

#include <QtTest>

using namespace semscope;
using model::SemaphoreAction;

Q_DECLARE_METATYPE(semscope::model::SemaphoreAction)

namespace {
// Written as the Redis store words it for a `slots` semaphore split over two Cluster masters.
const QString kSplit = QStringLiteral(
    "refused: this layout keeps its keys in slots 1210, 6452 on different masters (127.0.0.1:7000, "
    "127.0.0.1:7001) of a Redis Cluster; no atomic script can span slots (its own clients cannot update "
    "it atomically there either), so semscope does not write it");
} // namespace

class TestSemaphoreActionRules : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void verdicts_data() {
        QTest::addColumn<core::Kind>("kind");
        QTest::addColumn<bool>("readOnly");
        QTest::addColumn<QString>("refusal");
        QTest::addColumn<int>("selected");
        QTest::addColumn<bool>("own");
        QTest::addColumn<SemaphoreAction>("action");
        QTest::addColumn<bool>("offered");
        QTest::addColumn<bool>("allowed");
        QTest::addColumn<QString>("whyContains"); // empty: no reason given
        using K = core::Kind;
        using A = SemaphoreAction;
        const QString none;
        QTest::newRow("slots: acquire")
            << K::Slots << false << none << 0 << false << A::Acquire << true << true << none;
        QTest::newRow("slots: purge")
            << K::Slots << false << none << 0 << false << A::Purge << true << true << none;
        QTest::newRow("slots: repair")
            << K::Slots << false << none << 0 << false << A::Repair << true << true << none;
        QTest::newRow("slots: force-release, nothing selected")
            << K::Slots << false << none << 0 << false << A::ForceRelease << true << false << "Select";
        QTest::newRow("slots: force-release, selected")
            << K::Slots << false << none << 2 << false << A::ForceRelease << true << true << none;
        QTest::newRow("slots: renew, not mine")
            << K::Slots << false << none << 1 << false << A::RenewMine << true << false << "acquired";
        QTest::newRow("slots: release, mine")
            << K::Slots << false << none << 1 << true << A::ReleaseMine << true << true << none;
        QTest::newRow("leased: no repair")
            << K::Leased << false << none << 0 << false << A::Repair << false << false << none;
        QTest::newRow("slots: no invalidate")
            << K::Slots << false << none << 1 << false << A::InvalidateSession << false << false << none;
        QTest::newRow("consul: invalidate one")
            << K::Consul << false << none << 1 << false << A::InvalidateSession << true << true << none;
        QTest::newRow("consul: invalidate two") << K::Consul << false << none << 2 << false
                                                << A::InvalidateSession << true << false << "exactly one";
        QTest::newRow("read-only: acquire gone")
            << K::Slots << true << none << 0 << false << A::Acquire << false << false << "read-only";
        QTest::newRow("read-only: force-release gone")
            << K::Slots << true << none << 1 << false << A::ForceRelease << false << false << "read-only";
        // The store refuses every write of a layout split over masters: each one is greyed with the
        // store's own words and what is left to do, selection or not.
        for (A a : {A::Acquire, A::Purge, A::Repair, A::ForceRelease}) {
            QTest::addRow("split: %d", int(a))
                << K::Slots << false << kSplit << 1 << false << a << true << false
                << "on different masters (127.0.0.1:7000, 127.0.0.1:7001)";
            QTest::addRow("split, advice: %d", int(a))
                << K::Slots << false << kSplit << 1 << false << a << true << false << "What you can do";
        }
        QTest::newRow("split: release mine") << K::Slots << false << kSplit << 1 << true << A::ReleaseMine
                                             << true << false << "different masters";
    }
    void verdicts() {
        QFETCH(core::Kind, kind);
        QFETCH(bool, readOnly);
        QFETCH(QString, refusal);
        QFETCH(int, selected);
        QFETCH(bool, own);
        QFETCH(SemaphoreAction, action);
        QFETCH(bool, offered);
        QFETCH(bool, allowed);
        QFETCH(QString, whyContains);
        model::SemaphoreActionInputs in;
        in.kind = kind;
        in.readOnly = readOnly;
        in.writeRefusal = refusal;
        if (!refusal.isEmpty()) // the store says what is left to do with its refusal
            in.writeRefusalAdvice = redis::RedisSemaphoreStore::splitLayoutAdvice();
        in.selectedHolders = selected;
        in.ownHolderSelected = own;
        const model::SemaphoreActionVerdict v = model::semaphoreActionRules(in).verdict(action);
        QCOMPARE(v.offered, offered);
        QCOMPARE(v.allowed, allowed);
        if (whyContains.isEmpty())
            QVERIFY2(v.why.isEmpty() || !v.offered, qPrintable(v.why));
        else
            QVERIFY2(v.why.contains(whyContains), qPrintable(v.why));
    }

    // The banner repeats the store's refusal whole (the same text the write would have answered)
    // and says what is left; with nothing refused there is none.
    void bannerOnlyWhenTheStoreRefuses() {
        model::SemaphoreActionInputs in;
        QVERIFY(model::semaphoreActionRules(in).banner.isEmpty());
        in.readOnly = true;
        QVERIFY(model::semaphoreActionRules(in).banner.isEmpty()); // the page's read-only banner says it
        in.readOnly = false;
        in.writeRefusal = kSplit;
        in.writeRefusalAdvice = redis::RedisSemaphoreStore::splitLayoutAdvice();
        const QString banner = model::semaphoreActionRules(in).banner;
        QVERIFY2(banner.contains(kSplit), qPrintable(banner));
        QVERIFY2(banner.contains(in.writeRefusalAdvice), qPrintable(banner));
        QVERIFY2(banner.contains(QLatin1String("no cross-master force-release")), qPrintable(banner));
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestSemaphoreActionRules)
#include "tst_semaphoreactionrules.moc"
