#include "TestMain.h"
#include "core/loadtest/LatencyHistogram.h"

#include <QTest>
#include <algorithm>
#include <random>
#include <vector>

using namespace semscope::core;

class TestLatencyHistogram : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void bucketsAreContiguousAndNarrow_data() {
        QTest::addColumn<qint64>("value");
        for (qint64 v :
             {0LL, 1LL, 63LL, 127LL, 128LL, 129LL, 255LL, 256LL, 1000LL, 4095LL, 4096LL, 1'000'000LL,
              123'456'789LL, 60'000'000'000LL, (1LL << 62) + 12345, std::numeric_limits<qint64>::max()})
            QTest::addRow("%lld", static_cast<long long>(v)) << v;
    }
    void bucketsAreContiguousAndNarrow() {
        QFETCH(qint64, value);
        const int b = LatencyHistogram::bucketOf(value);
        QVERIFY(b >= 0 && b < LatencyHistogram::bucketCount);
        QVERIFY(LatencyHistogram::lowestInBucket(b) <= value);
        QVERIFY(LatencyHistogram::highestInBucket(b) >= value);
        // Width relative to value is at most 1/64.
        const double width =
            double(LatencyHistogram::highestInBucket(b) - LatencyHistogram::lowestInBucket(b));
        QVERIFY(width <= std::max(0.0, double(value) / 64.0));
        if (b + 1 < LatencyHistogram::bucketCount)
            QCOMPARE(LatencyHistogram::lowestInBucket(b + 1), LatencyHistogram::highestInBucket(b) + 1);
    }

    void emptyHistogram() {
        LatencyHistogram h;
        QCOMPARE(h.count(), 0LL);
        QCOMPARE(h.percentileNs(50), 0LL);
        QCOMPARE(h.maxNs(), 0LL);
        QCOMPARE(h.meanNs(), 0.0);
    }

    void percentilesOfKnownData_data() {
        QTest::addColumn<double>("percentile");
        QTest::addColumn<qint64>("exact");
        QTest::newRow("p0") << 0.0 << 1'000LL;
        QTest::newRow("p50") << 50.0 << 5'000'000LL;
        QTest::newRow("p90") << 90.0 << 9'000'000LL;
        QTest::newRow("p99") << 99.0 << 9'900'000LL;
        QTest::newRow("p100") << 100.0 << 10'000'000LL;
    }
    void percentilesOfKnownData() {
        QFETCH(double, percentile);
        QFETCH(qint64, exact);
        // 1 us .. 10 ms in 1 us steps, shuffled.
        std::vector<qint64> values;
        for (qint64 v = 1'000; v <= 10'000'000; v += 1'000)
            values.push_back(v);
        std::shuffle(values.begin(), values.end(), std::mt19937_64(3));
        LatencyHistogram h;
        for (qint64 v : values)
            h.record(v);
        QCOMPARE(h.count(), 10'000LL);
        QCOMPARE(h.maxNs(), 10'000'000LL);
        QCOMPARE(h.minNs(), 1'000LL);
        const qint64 got = h.percentileNs(percentile);
        // Never below the true value, at most one bucket (1/64) above it.
        QVERIFY2(got >= exact, qPrintable(QStringLiteral("%1 < %2").arg(got).arg(exact)));
        QVERIFY2(double(got) <= double(exact) * (1.0 + 1.0 / 64.0), qPrintable(QString::number(got)));
    }

    void oneHugeOutlierIsTheMax() {
        LatencyHistogram h;
        for (int i = 0; i < 999; ++i)
            h.record(1'000'000);
        h.record(5'000'000'000);
        QVERIFY(h.percentileNs(99) < 1'020'000);
        QCOMPARE(h.percentileNs(100), 5'000'000'000LL);
        QCOMPARE(h.maxMs(), 5000.0);
    }

    void negativeValuesCountAsZero() {
        LatencyHistogram h;
        h.record(-5);
        QCOMPARE(h.count(), 1LL);
        QCOMPARE(h.maxNs(), 0LL);
    }

    void mergeEqualsRecordingEverything() {
        LatencyHistogram a;
        LatencyHistogram b;
        LatencyHistogram all;
        std::mt19937_64 rng(11);
        std::exponential_distribution<double> exp(1.0 / 2e6);
        for (int i = 0; i < 5000; ++i) {
            const auto v = static_cast<qint64>(exp(rng));
            (i % 3 ? a : b).record(v);
            all.record(v);
        }
        LatencyHistogram merged;
        merged.merge(a);
        merged.merge(b);
        merged.merge(LatencyHistogram());
        QCOMPARE(merged.count(), all.count());
        QCOMPARE(merged.minNs(), all.minNs());
        QCOMPARE(merged.maxNs(), all.maxNs());
        for (double p : {1.0, 25.0, 50.0, 75.0, 90.0, 99.0, 99.9})
            QCOMPARE(merged.percentileNs(p), all.percentileNs(p));
        merged.clear();
        QCOMPARE(merged.count(), 0LL);
    }
};

SEMSCOPE_TEST_APPLESS_MAIN(TestLatencyHistogram)
#include "tst_latencyhistogram.moc"
