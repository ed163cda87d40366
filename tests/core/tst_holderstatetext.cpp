#include "TestMain.h"
#include "core/HolderStateText.h"

#include <QTest>

using namespace semscope::core;

class TestHolderStateText : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // A stale holder is explained in its own layout's terms: a `slots` holder was never a Consul
    // session, a Consul one has no stuck threshold.
    void staleIsSaidInTheLayoutsTerms_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("says");
        QTest::addColumn<QString>("neverSays");
        QTest::newRow("slots") << int(Kind::Slots) << "no lease"
                               << "Consul";
        QTest::newRow("consul") << int(Kind::Consul) << "session is gone"
                                << "threshold";
        QTest::newRow("leased") << int(Kind::Leased) << "lease"
                                << "Consul";
    }
    void staleIsSaidInTheLayoutsTerms() {
        QFETCH(int, kind);
        QFETCH(QString, says);
        QFETCH(QString, neverSays);
        const QString text = holderStateDescription(HolderState::Stale, Kind(kind));
        QVERIFY2(text.contains(says), qPrintable(text));
        QVERIFY2(!text.contains(neverSays), qPrintable(text));
    }

    void otherStatesAreTheGenericOnes() {
        QCOMPARE(holderStateDescription(HolderState::Waiting, Kind::Slots),
                 holderStateDescription(HolderState::Waiting));
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestHolderStateText)
#include "tst_holderstatetext.moc"
