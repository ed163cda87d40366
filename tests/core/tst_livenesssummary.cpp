// core::ClientLiveness in one line for the holder card: connected, gone since a time (or since
// semscope first looked), checks failing, cannot tell and why.
#include "TestMain.h"
#include "core/ClientLiveness.h"

#include <QDateTime>
#include <QTest>

using namespace semscope::core;

class TestLivenessSummary : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void summary_data() {
        QTest::addColumn<int>("state");
        QTest::addColumn<bool>("consul");
        QTest::addColumn<qint64>("goneForMs"); // -1: no time known
        QTest::addColumn<bool>("firstLook");
        QTest::addColumn<QString>("evidence");
        QTest::addColumn<QString>("expected"); // %1: the time of day it was first missed
        using S = ClientLiveness::State;
        QTest::newRow("connected") << int(S::Connected) << false << qint64(-1) << false << "as x"
                                   << "client connected";
        QTest::newRow("gone since") << int(S::Gone) << false << qint64(245000) << false << ""
                                    << "client gone since %1 (4 m 05 s)";
        QTest::newRow("gone before the first look")
            << int(S::Gone) << false << qint64(12000) << true << ""
            << "client gone (already when semscope first looked, at %1, 12.0 s ago)";
        QTest::newRow("gone, no time") << int(S::Gone) << false << qint64(-1) << false << ""
                                       << "client gone";
        QTest::newRow("consul passing") << int(S::Connected) << true << qint64(-1) << false << ""
                                        << "node's checks passing";
        QTest::newRow("consul failing") << int(S::Gone) << true << qint64(61000) << false << ""
                                        << "checks failing since %1 (1 m 01 s)";
        QTest::newRow("cannot tell, with why")
            << int(S::Unknown) << false << qint64(-1) << false << "ACL forbids CLIENT LIST"
            << "cannot tell: ACL forbids CLIENT LIST";
        QTest::newRow("cannot tell") << int(S::Unknown) << false << qint64(-1) << false << ""
                                     << "cannot tell";
    }
    void summary() {
        QFETCH(int, state);
        QFETCH(bool, consul);
        QFETCH(qint64, goneForMs);
        QFETCH(bool, firstLook);
        QFETCH(QString, evidence);
        QFETCH(QString, expected);
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        ClientLiveness l;
        l.state = ClientLiveness::State(state);
        l.source = consul ? ClientLiveness::Source::ConsulNodeChecks : ClientLiveness::Source::RedisClients;
        l.evidence = evidence;
        l.sinceFirstLook = firstLook;
        if (goneForMs >= 0)
            l.goneSinceMs = now - goneForMs;
        if (expected.contains(QLatin1String("%1")))
            expected = expected.arg(
                QDateTime::fromMSecsSinceEpoch(now - goneForMs).toString(QStringLiteral("HH:mm:ss")));
        QCOMPARE(livenessSummary(l, now), expected);
    }
};

SEMSCOPE_TEST_APPLESS_MAIN(TestLivenessSummary)
#include "tst_livenesssummary.moc"
