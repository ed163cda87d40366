// core/CountText.h: counts said in words ("1 holder", "3 holders"), never "holder(s)", and the
// words that agree with them.
#include "TestMain.h"
#include "core/CountText.h"

#include <QTest>

using namespace semscope::core;

class TestCountText : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void countText_data() {
        QTest::addColumn<qint64>("n");
        QTest::addColumn<QString>("one");
        QTest::addColumn<QString>("many");
        QTest::addColumn<QString>("expected");
        QTest::newRow("none") << qint64(0) << "holder"
                              << "holders"
                              << "0 holders";
        QTest::newRow("one") << qint64(1) << "holder"
                             << "holders"
                             << "1 holder";
        QTest::newRow("two") << qint64(2) << "holder"
                             << "holders"
                             << "2 holders";
        QTest::newRow("irregular one") << qint64(1) << "queue entry"
                                       << "queue entries"
                                       << "1 queue entry";
        QTest::newRow("irregular many") << qint64(3) << "queue entry"
                                        << "queue entries"
                                        << "3 queue entries";
        QTest::newRow("large") << qint64(5000) << "stale holder"
                               << "stale holders"
                               << "5000 stale holders";
    }
    void countText() {
        QFETCH(qint64, n);
        QFETCH(QString, one);
        QFETCH(QString, many);
        QFETCH(QString, expected);
        QCOMPARE(semscope::core::countText(n, one, many), expected);
    }

    void forCount_data() {
        QTest::addColumn<qint64>("n");
        QTest::addColumn<QString>("expected");
        QTest::newRow("none") << qint64(0) << "them";
        QTest::newRow("one") << qint64(1) << "it";
        QTest::newRow("two") << qint64(2) << "them";
    }
    void forCount() {
        QFETCH(qint64, n);
        QFETCH(QString, expected);
        QCOMPARE(semscope::core::forCount(n, QStringLiteral("it"), QStringLiteral("them")), expected);
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestCountText)
#include "tst_counttext.moc"
