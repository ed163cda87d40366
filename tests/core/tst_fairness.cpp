#include "TestMain.h"
#include "core/loadtest/Fairness.h"

#include <QTest>

using namespace semscope::core;

class TestFairness : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void jain_data() {
        QTest::addColumn<QList<qint64>>("grants");
        QTest::addColumn<double>("expected");
        QTest::newRow("empty") << QList<qint64>{} << 0.0;
        QTest::newRow("all zero") << QList<qint64>{0, 0, 0} << 0.0;
        QTest::newRow("one client") << QList<qint64>{7} << 1.0;
        QTest::newRow("equal") << QList<qint64>{5, 5, 5, 5} << 1.0;
        QTest::newRow("one takes all of four") << QList<qint64>{12, 0, 0, 0} << 0.25;
        QTest::newRow("half and half") << QList<qint64>{10, 10, 0, 0} << 0.5;
        // (1+2+3)^2 / (3 * (1+4+9)) = 36/42
        QTest::newRow("1 2 3") << QList<qint64>{1, 2, 3} << 36.0 / 42.0;
        QTest::newRow("negative counts as zero") << QList<qint64>{-3, 4} << 0.5;
    }
    void jain() {
        QFETCH(QList<qint64>, grants);
        QFETCH(double, expected);
        QVERIFY2(qAbs(jainIndex(grants) - expected) < 1e-12, qPrintable(QString::number(jainIndex(grants))));
    }

    void summary() {
        const auto s = summarizeFairness({4, 0, 9, 2, 0});
        QCOMPARE(s.clients, 5LL);
        QCOMPARE(s.minGrants, 0LL);
        QCOMPARE(s.maxGrants, 9LL);
        QCOMPARE(s.starvedClients, 2LL);
        QVERIFY(s.jainIndex > 0.2 && s.jainIndex < 1.0);
        const auto empty = summarizeFairness({});
        QCOMPARE(empty.clients, 0LL);
        QCOMPARE(empty.jainIndex, 0.0);
    }
};

SEMSCOPE_TEST_APPLESS_MAIN(TestFairness)
#include "tst_fairness.moc"
