#include "TestMain.h"
#include "core/loadtest/Distribution.h"

#include <QTest>

using namespace semscope::core;

class TestDistribution : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parse_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<int>("shape");
        QTest::addColumn<qint64>("low");
        QTest::addColumn<qint64>("high");

        const int fixed = int(Distribution::Shape::Fixed);
        const int uniform = int(Distribution::Shape::Uniform);
        const int exp = int(Distribution::Shape::Exponential);
        QTest::newRow("fixed ms") << "fixed:5ms" << true << fixed << 5'000'000LL << 0LL;
        QTest::newRow("bare duration is fixed") << "5ms" << true << fixed << 5'000'000LL << 0LL;
        QTest::newRow("bare number needs a unit") << "7" << false << 0 << 0LL << 0LL;
        QTest::newRow("bare zero") << "0" << true << fixed << 0LL << 0LL;
        QTest::newRow("zero") << "fixed:0" << true << fixed << 0LL << 0LL;
        QTest::newRow("microseconds") << "fixed:250us" << true << fixed << 250'000LL << 0LL;
        QTest::newRow("fractional ms") << "1.5ms" << true << fixed << 1'500'000LL << 0LL;
        QTest::newRow("seconds") << "fixed:2s" << true << fixed << 2'000'000'000LL << 0LL;
        QTest::newRow("uniform") << "uniform:1ms..10ms" << true << uniform << 1'000'000LL << 10'000'000LL;
        QTest::newRow("uniform spaces")
            << " uniform: 1ms .. 2s " << true << uniform << 1'000'000LL << 2'000'000'000LL;
        QTest::newRow("uniform equal") << "uniform:3ms..3ms" << true << uniform << 3'000'000LL << 3'000'000LL;
        QTest::newRow("exp") << "exp:5ms" << true << exp << 5'000'000LL << 0LL;
        QTest::newRow("exponential") << "EXPONENTIAL:1s" << true << exp << 1'000'000'000LL << 0LL;
        QTest::newRow("empty") << "" << false << 0 << 0LL << 0LL;
        QTest::newRow("garbage") << "soon" << false << 0 << 0LL << 0LL;
        QTest::newRow("negative") << "fixed:-5ms" << false << 0 << 0LL << 0LL;
        QTest::newRow("unknown shape") << "normal:5ms" << false << 0 << 0LL << 0LL;
        QTest::newRow("uniform one bound") << "uniform:5ms" << false << 0 << 0LL << 0LL;
        QTest::newRow("uniform reversed") << "uniform:10ms..1ms" << false << 0 << 0LL << 0LL;
        QTest::newRow("uniform bad bound") << "uniform:1ms..x" << false << 0 << 0LL << 0LL;
        QTest::newRow("bad unit") << "5 parsecs" << false << 0 << 0LL << 0LL;
        QTest::newRow("absurd") << "fixed:99999999999999s" << false << 0 << 0LL << 0LL;
    }
    void parse() {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        QFETCH(int, shape);
        QFETCH(qint64, low);
        QFETCH(qint64, high);
        QString error;
        const auto d = Distribution::parse(text, &error);
        QCOMPARE(d.has_value(), valid);
        if (!valid) {
            QVERIFY(error.contains(QStringLiteral("invalid distribution")));
            return;
        }
        QCOMPARE(int(d->shape()), shape);
        QCOMPARE(d->lowNs(), low);
        if (d->shape() == Distribution::Shape::Uniform)
            QCOMPARE(d->highNs(), high);
        // Printing and parsing again gives the same distribution.
        const auto again = Distribution::parse(d->toString());
        QVERIFY2(again.has_value(), qPrintable(d->toString()));
        QCOMPARE(again->shape(), d->shape());
        QCOMPARE(again->lowNs(), d->lowNs());
        QCOMPARE(again->highNs(), d->highNs());
    }

    void samplesStayInRange() {
        std::mt19937_64 rng(42);
        const Distribution fixed = Distribution::fixed(3'000'000);
        const Distribution uniform = Distribution::uniform(1'000'000, 2'000'000);
        const Distribution exp = Distribution::exponential(1'000'000);
        bool sawLow = false;
        bool sawHigh = false;
        for (int i = 0; i < 20'000; ++i) {
            QCOMPARE(fixed.sampleNs(rng), 3'000'000LL);
            const qint64 u = uniform.sampleNs(rng);
            QVERIFY(u >= 1'000'000 && u <= 2'000'000);
            sawLow = sawLow || u < 1'100'000;
            sawHigh = sawHigh || u > 1'900'000;
            const qint64 e = exp.sampleNs(rng);
            QVERIFY(e >= 0);
            QVERIFY(e <= 1'000'000LL * Distribution::exponentialCap);
        }
        QVERIFY(sawLow);
        QVERIFY(sawHigh);
    }

    void exponentialMeanIsRoughlyRight() {
        std::mt19937_64 rng(7);
        const Distribution exp = Distribution::exponential(5'000'000);
        double sum = 0;
        const int n = 100'000;
        for (int i = 0; i < n; ++i)
            sum += static_cast<double>(exp.sampleNs(rng));
        const double mean = sum / n;
        // Standard error of the mean is mean/sqrt(n) ~ 0.3 %: 5 % is far outside chance.
        QVERIFY2(mean > 4.75e6 && mean < 5.25e6, qPrintable(QString::number(mean)));
        QCOMPARE(exp.meanNs(), 5'000'000LL);
        QCOMPARE(Distribution::uniform(2, 4).meanNs(), 3LL);
    }

    void zeroExponentialIsZero() {
        std::mt19937_64 rng(1);
        QCOMPARE(Distribution::exponential(0).sampleNs(rng), 0LL);
    }
};

SEMSCOPE_TEST_APPLESS_MAIN(TestDistribution)
#include "tst_distribution.moc"
