// Issue 31 item 3: which semaphores seen before the list keeps while their keys are gone, and for
// how long (model/SeenSemaphores).
#include "TestMain.h"
#include "model/SeenSemaphores.h"

#include <QTest>

using namespace semscope;
using model::SeenSemaphores;

namespace {
core::SemaphoreRef ref(const char *name, core::Kind kind = core::Kind::Zset) {
    return {kind, QString::fromLatin1(name), {}};
}
constexpr qint64 kT0 = 1'790'000'000'000LL;
constexpr qint64 kHour = 3600 * 1000;
} // namespace

class TestSeenSemaphores : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void aMissedSemaphoreIsKeptAsEmpty() {
        SeenSemaphores seen;
        QVERIFY(seen.afterScan({ref("rate"), ref("fair", core::Kind::Fair)}, kT0).empty.isEmpty());
        const auto out = seen.afterScan({ref("fair", core::Kind::Fair)}, kT0 + 3000);
        QCOMPARE(out.empty.size(), 1);
        QCOMPARE(out.empty.first().ref, ref("rate"));
        QCOMPARE(out.empty.first().lastSeenMs, kT0); // "empty since" the last scan that found it
        QVERIFY(out.expired.isEmpty());
        // Found again: no longer empty.
        QVERIFY(seen.afterScan({ref("rate"), ref("fair", core::Kind::Fair)}, kT0 + 6000).empty.isEmpty());
    }

    void retentionExpiresIt_data() {
        QTest::addColumn<qint64>("retentionMs");
        QTest::addColumn<qint64>("missingForMs");
        QTest::addColumn<bool>("kept");
        QTest::newRow("within a day") << SeenSemaphores::kDefaultRetentionMs << 23 * kHour << true;
        QTest::newRow("past a day") << SeenSemaphores::kDefaultRetentionMs << 25 * kHour << false;
        QTest::newRow("one hour, 2 h empty") << kHour << 2 * kHour << false;
        QTest::newRow("none kept") << qint64(0) << qint64(1) << false;
    }
    void retentionExpiresIt() {
        QFETCH(qint64, retentionMs);
        QFETCH(qint64, missingForMs);
        QFETCH(bool, kept);
        SeenSemaphores seen;
        seen.setRetentionMs(retentionMs);
        seen.afterScan({ref("rate")}, kT0);
        const auto out = seen.afterScan({}, kT0 + missingForMs);
        QCOMPARE(out.empty.size(), kept ? 1 : 0);
        QCOMPARE(out.expired.size(), kept ? 0 : 1);
        QCOMPARE(seen.contains(ref("rate")), kept);
    }

    void loadedFromTheHistory() {
        SeenSemaphores seen;
        // A scan of this session may come before the history's answer.
        seen.afterScan({ref("a")}, kT0);
        monitor::SeenSemaphore a{ref("a"), kT0 - 10 * kHour, kT0 - kHour};
        monitor::SeenSemaphore b{ref("b"), kT0 - 10 * kHour, kT0 - kHour};
        seen.load({a, b});
        const auto out = seen.afterScan({}, kT0 + 1000);
        QCOMPARE(out.empty.size(), 2);
        for (const auto &s : out.empty) {
            if (s.ref == ref("a"))
                QCOMPARE(s.lastSeenMs, kT0); // the later sighting wins
            else
                QCOMPARE(s.lastSeenMs, kT0 - kHour);
        }
    }

    void forgottenIsGone() {
        SeenSemaphores seen;
        seen.afterScan({ref("a")}, kT0);
        seen.forget(ref("a"));
        QVERIFY(seen.afterScan({}, kT0 + 1000).empty.isEmpty());
        // The history's answer, read before the Forget was written, does not bring it back...
        seen.load({monitor::SeenSemaphore{ref("a"), kT0, kT0}});
        QVERIFY(seen.afterScan({}, kT0 + 2000).empty.isEmpty());
        // ...a scan that finds it again does.
        seen.afterScan({ref("a")}, kT0 + 3000);
        QCOMPARE(seen.afterScan({}, kT0 + 4000).empty.size(), 1);
    }
};

SEMSCOPE_TEST_APPLESS_MAIN(TestSeenSemaphores)
#include "tst_seensemaphores.moc"
