// How a connection through Sentinel reacts when the node the sentinels named is not the master
// (redis/connection/SentinelFollower::onStaleMaster), against a recording Link: a connection that
// reconnects by itself just reconnects; one that does not asks the sentinels again a few times in
// a row, then gives up saying how often. The failover paths with real sentinels are tst_sentinel's.
#include "TestMain.h"
#include "redis/connection/SentinelFollower.h"

#include <QTest>

using semscope::redis::ConnectionSettings;
using semscope::redis::SentinelFollower;
using semscope::redis::SentinelResolver;

namespace {

// Records what the follower asked of its connection.
class RecordingLink : public SentinelFollower::Link {
public:
    QStringList calls;
    bool isDisconnected() const override { return false; }
    bool isReconnecting() const override { return false; }
    bool isReady() const override { return true; }
    bool attemptScheduled() const override { return false; }
    void attemptNow() override { calls << QStringLiteral("attemptNow"); }
    void endConnection(const QString &reason) override { calls << QStringLiteral("end: ") + reason; }
    void followSwitch(const QString &reason) override { calls << QStringLiteral("follow: ") + reason; }
    void connectTo(const SentinelResolver::Result &named) override {
        calls << QStringLiteral("connectTo ") + named.master.text();
    }
    QString currentNode() const override { return QStringLiteral("10.0.0.7:6379"); }
    quint64 generation() const override { return 1; }
    std::shared_ptr<bool> aliveGuard() const override { return m_alive; }

private:
    std::shared_ptr<bool> m_alive = std::make_shared<bool>(true);
};

ConnectionSettings throughSentinels(bool autoReconnect) {
    ConnectionSettings settings;
    settings.sentinels.append({QStringLiteral("127.0.0.1"), 26379});
    settings.sentinelMaster = QStringLiteral("mymaster");
    settings.autoReconnect = autoReconnect;
    return settings;
}

} // namespace

class TestSentinelFollower : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void staleMaster_data();
    void staleMaster();
    void aCompletedHandshakeStartsTheCountAgain();
    void noHoldUntilAFailoverStarts();
};

void TestSentinelFollower::staleMaster_data() {
    QTest::addColumn<bool>("autoReconnect");
    QTest::addColumn<int>("times");
    QTest::addColumn<QStringList>("calls");

    const QString again = QStringLiteral("ROLE says replica; asking the sentinels again");
    QTest::newRow("reconnecting connection: always an ordinary reconnect")
        << true << 4 << QStringList{"end: " + again, "end: " + again, "end: " + again, "end: " + again};
    QTest::newRow("one-shot connection: follows twice, then gives up")
        << false << 4
        << QStringList{"follow: " + again, "follow: " + again,
                       "end: ROLE says replica; the sentinels named a node that is not the master 3 times "
                       "in a row",
                       "follow: " + again};
}

void TestSentinelFollower::staleMaster() {
    QFETCH(bool, autoReconnect);
    QFETCH(int, times);
    QFETCH(QStringList, calls);
    RecordingLink link;
    SentinelFollower follower(throughSentinels(autoReconnect), link);
    for (int i = 0; i < times; ++i)
        follower.onStaleMaster(QStringLiteral("ROLE says replica"));
    QCOMPARE(link.calls, calls);
}

void TestSentinelFollower::aCompletedHandshakeStartsTheCountAgain() {
    RecordingLink link;
    SentinelFollower follower(throughSentinels(false), link);
    follower.onStaleMaster(QStringLiteral("stale"));
    follower.onStaleMaster(QStringLiteral("stale"));
    follower.handshakeDone();
    follower.onStaleMaster(QStringLiteral("stale"));
    QCOMPARE(link.calls.size(), 3);
    for (const QString &call : std::as_const(link.calls))
        QVERIFY2(call.startsWith(QLatin1String("follow: ")), qPrintable(call));
}

void TestSentinelFollower::noHoldUntilAFailoverStarts() {
    RecordingLink link;
    SentinelFollower follower(throughSentinels(true), link);
    QVERIFY(!follower.holding());
    follower.stopWatching();
    QVERIFY(!follower.holding());
    QVERIFY(link.calls.isEmpty());
}

SEMSCOPE_TEST_GUILESS_MAIN(TestSentinelFollower)
#include "tst_sentinelfollower.moc"
