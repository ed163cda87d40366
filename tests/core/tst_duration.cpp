#include "TestMain.h"
#include "core/Duration.h"

#include <QTest>

using namespace semscope::core;

class TestDuration : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parse_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<qint64>("ms");
        QTest::newRow("bare number needs a unit") << "250" << false << qint64(0);
        QTest::newRow("bare 5 is not 5 ms") << "5" << false << qint64(0);
        QTest::newRow("bare zero") << "0" << true << qint64(0);
        QTest::newRow("ms") << "250ms" << true << qint64(250);
        QTest::newRow("seconds") << "10s" << true << qint64(10000);
        QTest::newRow("fraction") << "1.5s" << true << qint64(1500);
        QTest::newRow("minutes") << "2m" << true << qint64(120000);
        QTest::newRow("hours") << "1h" << true << qint64(3600000);
        QTest::newRow("spaces") << " 3 s " << true << qint64(3000);
        QTest::newRow("zero with unit") << "0s" << true << qint64(0);
        QTest::newRow("negative") << "-1s" << false << qint64(0);
        QTest::newRow("unit only") << "s" << false << qint64(0);
        QTest::newRow("unknown unit") << "3d" << false << qint64(0);
        QTest::newRow("empty") << "" << false << qint64(0);
        QTest::newRow("absurd") << "99999999999h" << false << qint64(0);
    }
    void parse() {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        QFETCH(qint64, ms);
        const auto parsed = parseDurationMs(text);
        QCOMPARE(parsed.has_value(), valid);
        if (valid)
            QCOMPARE(*parsed, ms);
    }
    void format_data() {
        QTest::addColumn<qint64>("ms");
        QTest::addColumn<QString>("text");
        QTest::newRow("ms") << qint64(850) << "850 ms";
        QTest::newRow("s") << qint64(12345) << "12.3 s";
        QTest::newRow("m") << qint64(245000) << "4 m 05 s";
        QTest::newRow("h") << qint64(7380000) << "2 h 03 m";
        QTest::newRow("negative") << qint64(-1500) << "-1.5 s";
    }
    void format() {
        QFETCH(qint64, ms);
        QFETCH(QString, text);
        QCOMPARE(formatDurationMs(ms), text);
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestDuration)
#include "tst_duration.moc"
