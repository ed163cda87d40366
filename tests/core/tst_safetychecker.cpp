#include "TestMain.h"
#include "core/loadtest/CrashRecovery.h"
#include "core/loadtest/SafetyChecker.h"

#include <QTest>

using namespace semscope::core;

namespace {

// "holder:start-end" with optional ":token" and ":sent" (sent defaults to start - 1);
// a trailing "!" marks a crash (the client vanished at `end`).
QList<HoldInterval> parseIntervals(const QStringList &specs) {
    QList<HoldInterval> out;
    int client = 0;
    for (QString spec : specs) {
        HoldInterval iv;
        if (spec.endsWith(QLatin1Char('!'))) {
            iv.crashed = true;
            spec.chop(1);
        }
        const QStringList parts = spec.split(QLatin1Char(':'));
        iv.client = client++;
        iv.holder = parts.value(0);
        const QStringList range = parts.value(1).split(QLatin1Char('-'));
        iv.startNs = range.value(0).toLongLong();
        iv.endNs = range.value(1).toLongLong();
        if (parts.size() > 2 && !parts[2].isEmpty())
            iv.token = parts[2].toLongLong();
        iv.sentNs = parts.size() > 3 ? parts[3].toLongLong() : iv.startNs - 1;
        out.append(iv);
    }
    return out;
}

} // namespace

class TestSafetyChecker : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void overlaps_data() {
        QTest::addColumn<int>("limit");
        QTest::addColumn<QStringList>("intervals");
        QTest::addColumn<int>("overAdmissions");
        QTest::addColumn<int>("maxConcurrent");
        QTest::addColumn<QStringList>("firstEpisodeHolders");

        QTest::newRow("nothing") << 1 << QStringList() << 0 << 0 << QStringList();
        QTest::newRow("one holder") << 1 << QStringList{"a:10-20"} << 0 << 1 << QStringList();
        QTest::newRow("sequential mutex")
            << 1 << QStringList{"a:10-20", "b:21-30", "c:31-40"} << 0 << 1 << QStringList();
        // Release sent at the very instant the next grant arrives: half-open intervals, no overlap.
        QTest::newRow("touching") << 1 << QStringList{"a:10-20", "b:20-30", "c:30-40"} << 0 << 1
                                  << QStringList();
        QTest::newRow("overlap by one ns")
            << 1 << QStringList{"a:10-21", "b:20-30"} << 1 << 2 << QStringList{"a", "b"};
        QTest::newRow("nested") << 1 << QStringList{"a:10-100", "b:40-50"} << 1 << 2 << QStringList{"a", "b"};
        QTest::newRow("at limit is fine")
            << 3 << QStringList{"a:0-100", "b:10-100", "c:20-100", "d:100-200"} << 0 << 3 << QStringList();
        QTest::newRow("one over limit 3") << 3 << QStringList{"a:0-100", "b:10-100", "c:20-100", "d:99-200"}
                                          << 1 << 4 << QStringList{"a", "b", "c", "d"};
        QTest::newRow("two separate episodes")
            << 1 << QStringList{"a:0-10", "b:5-15", "c:20-30", "d:25-35"} << 2 << 2 << QStringList{"a", "b"};
        // A chain of overlaps that never drops back to the limit is one long episode.
        QTest::newRow("chained episode") << 1 << QStringList{"a:0-10", "b:5-15", "c:8-20", "d:14-25"} << 1
                                         << 3 << QStringList{"a", "b", "c", "d"};
        QTest::newRow("gaps split episodes")
            << 1 << QStringList{"a:0-10", "b:5-15", "c:12-20", "d:18-25"} << 3 << 2 << QStringList{"a", "b"};
        QTest::newRow("pile-up") << 2 << QStringList{"a:0-50", "b:1-50", "c:2-50", "d:3-50", "e:4-50"} << 1
                                 << 5 << QStringList{"a", "b", "c", "d", "e"};
        // Empty or inverted intervals prove nothing (a lease trimmed to nothing) and are ignored.
        QTest::newRow("empty intervals ignored")
            << 1 << QStringList{"a:10-10", "b:10-10", "c:5-3", "d:0-20"} << 0 << 1 << QStringList();
        QTest::newRow("same start") << 1 << QStringList{"a:10-20", "b:10-20"} << 1 << 2
                                    << QStringList{"a", "b"};
        QTest::newRow("zero limit means any holder is too many")
            << 0 << QStringList{"a:10-20"} << 1 << 1 << QStringList{"a"};
    }
    void overlaps() {
        QFETCH(int, limit);
        QFETCH(QStringList, intervals);
        QFETCH(int, overAdmissions);
        QFETCH(int, maxConcurrent);
        QFETCH(QStringList, firstEpisodeHolders);
        SafetyChecker checker(limit);
        checker.add(parseIntervals(intervals));
        const SafetyVerdict v = checker.check();
        QCOMPARE(v.overAdmissions, qint64(overAdmissions));
        QCOMPARE(v.maxConcurrentHolders, maxConcurrent);
        QCOMPARE(qint64(v.episodes.size()), qint64(overAdmissions));
        if (overAdmissions > 0) {
            QCOMPARE(v.episodes.first().holders, firstEpisodeHolders);
            QVERIFY(v.episodes.first().untilNs > v.episodes.first().atNs);
            QVERIFY(v.overAdmittedNs > 0);
        } else {
            QCOMPARE(v.overAdmittedNs, 0LL);
        }
    }

    void episodeTimes() {
        SafetyChecker checker(1);
        checker.add(parseIntervals({"a:100-300", "b:200-400"}));
        const auto v = checker.check();
        QCOMPARE(v.episodes.size(), 1);
        QCOMPARE(v.episodes[0].atNs, 200LL);
        QCOMPARE(v.episodes[0].untilNs, 300LL);
        QCOMPARE(v.overAdmittedNs, 100LL);
    }

    void manyHoldersAreCapped() {
        QStringList specs;
        for (int i = 0; i < 100; ++i)
            specs << QStringLiteral("h%1:%2-1000").arg(i, 3, 10, QLatin1Char('0')).arg(i);
        SafetyChecker checker(1);
        checker.add(parseIntervals(specs));
        const auto v = checker.check();
        QCOMPARE(v.overAdmissions, 1LL);
        QCOMPARE(v.maxConcurrentHolders, 100);
        QCOMPARE(v.episodes[0].holderCount, 100);
        QCOMPARE(v.episodes[0].holders.size(), SafetyChecker::holderListCap);
    }

    void tokens_data() {
        QTest::addColumn<QStringList>("intervals");
        QTest::addColumn<int>("violations");

        QTest::newRow("rising") << QStringList{"a:10-20:1", "b:30-40:2", "c:50-60:3"} << 0;
        QTest::newRow("gaps are fine") << QStringList{"a:10-20:1", "b:30-40:7", "c:50-60:100"} << 0;
        QTest::newRow("no tokens at all") << QStringList{"a:10-20", "b:30-40"} << 0;
        // b asked (sent 25) after a's grant (token 5) had arrived (10) but got a smaller token.
        QTest::newRow("provably backwards") << QStringList{"a:10-20:5:5", "b:30-40:4:25"} << 1;
        QTest::newRow("repeated in order") << QStringList{"a:10-20:5:5", "b:30-40:5:25"} << 1;
        // Replies crossed in flight: both were asked before either answer arrived, so the order
        // in which the answers arrived says nothing about the order the server granted them.
        QTest::newRow("crossed replies are not judged") << QStringList{"a:10-20:6:1", "b:12-40:5:2"} << 0;
        QTest::newRow("sent exactly when the reply arrived")
            << QStringList{"a:10-20:6:1", "b:30-40:5:10"} << 0;
        // Same token twice is wrong whatever the timing.
        QTest::newRow("duplicate while crossing") << QStringList{"a:10-20:6:1", "b:12-40:6:2"} << 1;
        QTest::newRow("several late")
            << QStringList{"a:10-20:10:5", "b:30-40:3:25", "c:50-60:4:45", "d:70-80:11:65"} << 2;
        QTest::newRow("mixed with and without") << QStringList{"a:10-20:2:5", "b:30-40", "c:50-60:1:45"} << 1;
    }
    void tokens() {
        QFETCH(QStringList, intervals);
        QFETCH(int, violations);
        SafetyChecker checker(100);
        checker.add(parseIntervals(intervals));
        const auto v = checker.check();
        QCOMPARE(v.tokenViolations, qint64(violations));
        QCOMPARE(qint64(v.violations.size()), qint64(violations));
    }

    void violationNamesBothSides() {
        SafetyChecker checker(10);
        checker.add(parseIntervals({"a:10-20:5:5", "b:30-40:4:25"}));
        const auto v = checker.check();
        QCOMPARE(v.violations.size(), 1);
        QCOMPARE(v.violations[0].holder, QStringLiteral("b"));
        QCOMPARE(v.violations[0].token, 4LL);
        QCOMPARE(v.violations[0].earlierHolder, QStringLiteral("a"));
        QCOMPARE(v.violations[0].earlierToken, 5LL);
    }

    void crashRecovery_data() {
        QTest::addColumn<int>("limit");
        QTest::addColumn<QStringList>("intervals");
        QTest::addColumn<int>("crashes");
        QTest::addColumn<QList<qint64>>("recoveries");
        QTest::addColumn<int>("leaked");

        QTest::newRow("no crash") << 1 << QStringList{"a:0-10", "b:11-20"} << 0 << QList<qint64>{} << 0;
        // Mutex: a crashes at 10; the next grant (b at 50) proves the slot came back.
        QTest::newRow("mutex recovers")
            << 1 << QStringList{"a:0-10!", "b:50-60"} << 1 << QList<qint64>{40} << 0;
        QTest::newRow("mutex leaks") << 1 << QStringList{"a:0-10!"} << 1 << QList<qint64>{} << 1;
        // Limit 2: a crashes at 10; b's grant at 20 (one open) does not prove anything, c's grant at
        // 30 while b still holds does (two open: no room left for a crashed holder).
        QTest::newRow("limit 2 proven by full house")
            << 2 << QStringList{"a:0-10!", "b:20-100", "c:30-100"} << 1 << QList<qint64>{20} << 0;
        QTest::newRow("limit 2 never full")
            << 2 << QStringList{"a:0-10!", "b:20-25", "c:30-35"} << 1 << QList<qint64>{} << 1;
        QTest::newRow("two crashes, oldest first")
            << 2 << QStringList{"a:0-10!", "b:0-20!", "c:30-100", "d:40-100"} << 2 << QList<qint64>{20, 20}
            << 0;
        QTest::newRow("crash of an empty interval")
            << 1 << QStringList{"a:10-10!", "b:30-40"} << 1 << QList<qint64>{20} << 0;
    }
    void crashRecovery() {
        QFETCH(int, limit);
        QFETCH(QStringList, intervals);
        QFETCH(int, crashes);
        QFETCH(QList<qint64>, recoveries);
        QFETCH(int, leaked);
        const auto v = analyzeCrashRecovery(parseIntervals(intervals), limit, 1000);
        QCOMPARE(v.crashes, qint64(crashes));
        QCOMPARE(v.recoveryNs, recoveries);
        QCOMPARE(v.recovered, qint64(recoveries.size()));
        QCOMPARE(int(v.leakedHolders.size()), leaked);
        if (leaked > 0)
            QVERIFY(v.leakedForNs.first() > 0);
    }
};

SEMSCOPE_TEST_APPLESS_MAIN(TestSafetyChecker)
#include "tst_safetychecker.moc"
