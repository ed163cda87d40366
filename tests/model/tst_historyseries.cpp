#include "TestMain.h"
#include "model/HistoryArchive.h"
#include "model/HistorySeries.h"

#include <QSignalSpy>
#include <QtTest>

using namespace semscope;
using model::HistorySeries;

namespace {
core::Snapshot snap(QList<std::pair<QString, qint64>> holders, qint64 serverNow = 0,
                    std::optional<qint64> expiresIn = {}) {
    core::Snapshot s;
    s.limit = 5;
    s.serverNowMs = serverNow;
    for (const auto &[id, token] : holders) {
        core::Holder h;
        h.id = id;
        h.rawId = id.toUtf8();
        h.token = token;
        if (expiresIn)
            h.expiresAtMs = serverNow + *expiresIn;
        s.holders << h;
    }
    return s;
}
} // namespace

class TestHistorySeries : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void ratesFromHoldersComingAndGoing();
    void reacquireCountsAsBoth();
    void keepsCapacity();
    void ttlHistogram();
    void restoredHistoryGoesOnWithoutAMadeUpRate();
    void archiveKeepsEachSemaphoreBounded();
};

// Issue 16 item 10e: a semaphore looked at again shows its earlier points; the first read after
// the gap starts a new rate interval instead of counting every holder as newly acquired.
void TestHistorySeries::restoredHistoryGoesOnWithoutAMadeUpRate() {
    HistorySeries first;
    first.addSnapshot(snap({{"a", 1}}), 1'000);
    first.addSnapshot(snap({{"a", 1}, {"b", 2}}), 2'000);
    model::HistoryArchive archive;
    archive.store(QStringLiteral("jobs"), first.samples());

    HistorySeries shown(3);
    QSignalSpy cleared(&shown, &HistorySeries::cleared);
    shown.restore(archive.take(QStringLiteral("jobs")));
    QCOMPARE(cleared.size(), 1);
    QVERIFY(!archive.contains(QStringLiteral("jobs")));
    QCOMPARE(shown.samples().size(), 2);
    QCOMPARE(shown.samples().first().timeMs, 1'000);
    shown.addSnapshot(snap({{"a", 1}, {"b", 2}, {"c", 3}}), 60'000);
    QCOMPARE(shown.samples().size(), 3);
    QCOMPARE(shown.samples().last().acquisitionsPerSecond, 0.0);
    shown.addSnapshot(snap({{"a", 1}, {"b", 2}, {"c", 3}, {"d", 4}}), 61'000);
    QCOMPARE(shown.samples().size(), 3); // its capacity
    QCOMPARE(shown.samples().last().acquisitionsPerSecond, 1.0);
}

void TestHistorySeries::archiveKeepsEachSemaphoreBounded() {
    model::HistoryArchive archive(3);
    QList<HistorySeries::Sample> one(1);
    for (const char *key : {"a", "b", "c", "d"})
        archive.store(QString::fromLatin1(key), one);
    QCOMPARE(archive.size(), 3);
    QVERIFY(!archive.contains(QStringLiteral("a"))); // looked at longest ago
    archive.store(QStringLiteral("b"), one);         // b is fresh again
    archive.store(QStringLiteral("e"), one);
    QVERIFY(archive.contains(QStringLiteral("b")));
    QVERIFY(!archive.contains(QStringLiteral("c")));
    archive.store(QStringLiteral("b"), {}); // nothing to keep
    QVERIFY(!archive.contains(QStringLiteral("b")));
    QVERIFY(archive.take(QStringLiteral("zz")).isEmpty());
}

void TestHistorySeries::ratesFromHoldersComingAndGoing() {
    HistorySeries series;
    QSignalSpy added(&series, &HistorySeries::sampleAdded);
    series.addSnapshot(snap({{"a", 1}, {"b", 2}}), 10'000);
    series.addSnapshot(snap({{"b", 2}, {"c", 3}, {"d", 4}}), 12'000); // 2 s later: +c +d, -a
    QCOMPARE(added.count(), 2);
    const auto &s = series.samples().last();
    QCOMPARE(s.used, 3);
    QCOMPARE(s.limit, std::optional<qint64>(5));
    QCOMPARE(s.acquisitionsPerSecond, 1.0);
    QCOMPARE(s.releasesPerSecond, 0.5);
    QCOMPARE(series.samples().first().acquisitionsPerSecond, 0.0); // nothing to compare the first with
}

void TestHistorySeries::reacquireCountsAsBoth() {
    HistorySeries series;
    series.addSnapshot(snap({{"a", 1}}), 0);
    series.addSnapshot(snap({{"a", 2}}), 1000); // released and acquired again between reads
    QCOMPARE(series.samples().last().acquisitionsPerSecond, 1.0);
    QCOMPARE(series.samples().last().releasesPerSecond, 1.0);
}

void TestHistorySeries::keepsCapacity() {
    HistorySeries series(10);
    for (int i = 0; i < 25; ++i)
        series.addSnapshot(snap({}), i * 1000);
    QCOMPARE(series.samples().size(), 10);
    QCOMPARE(series.samples().first().timeMs, 15'000);
    QSignalSpy cleared(&series, &HistorySeries::cleared);
    series.clear();
    QCOMPARE(cleared.count(), 1);
    QVERIFY(series.samples().isEmpty());
}

void TestHistorySeries::ttlHistogram() {
    core::Snapshot s = snap({}, 100'000);
    auto add = [&](qint64 ttl) {
        core::Holder h;
        h.id = QString::number(s.holders.size());
        h.expiresAtMs = 100'000 + ttl;
        s.holders << h;
    };
    add(-1000);   // expired
    add(2000);    // 0-5
    add(10'000);  // 5-15
    add(14'999);  // 5-15
    add(45'000);  // 30-60
    add(999'000); // > 300
    core::Holder waiting;
    waiting.state = core::HolderState::Waiting;
    waiting.expiresAtMs = 100'500;
    s.holders << waiting; // waiters hold no slot: not counted
    core::Holder noTtl;
    s.holders << noTtl;
    int none = 0;
    const QList<int> buckets = HistorySeries::ttlHistogram(s, 100'000, &none);
    QCOMPARE(buckets.size(), HistorySeries::ttlBucketLabels().size());
    QCOMPARE(buckets, (QList<int>{1, 1, 2, 0, 1, 0, 1}));
    QCOMPARE(none, 1);
}

SEMSCOPE_TEST_MAIN(TestHistorySeries)
#include "tst_historyseries.moc"
