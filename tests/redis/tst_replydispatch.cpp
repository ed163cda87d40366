// Which reply goes where (redis/connection/ReplyDispatch): pub/sub pushes to their channel's
// handlers, only once the connection subscribed; queued commands released in order.
#include "TestMain.h"
#include "redis/connection/ReplyDispatch.h"

#include <QTest>

using semscope::redis::commandName;
using semscope::redis::PendingCommand;
using semscope::redis::RedisReply;
using semscope::redis::ReplyDispatch;

Q_DECLARE_METATYPE(semscope::redis::RedisReply)

namespace {

RedisReply array(const QList<QByteArray> &items) {
    RedisReply r;
    r.type = RedisReply::Type::Array;
    for (const QByteArray &item : items)
        r.elements << RedisReply::string(item);
    return r;
}

} // namespace

class TestReplyDispatch : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void pushes_data();
    void pushes();
    void nothingIsAPushBeforeASubscription();
    void aHandlerMayUnsubscribeItself();
    void subscribeAndUnsubscribeSayWhetherAWriteIsNeeded();
    void releaseQueueKeepsTheOrder();
    void commandNames_data();
    void commandNames();
};

void TestReplyDispatch::pushes_data() {
    QTest::addColumn<RedisReply>("reply");
    QTest::addColumn<bool>("isPush");
    QTest::addColumn<QStringList>("heard"); // what the handlers of channel "ch" saw

    QTest::newRow("message on the channel")
        << array({"message", "ch", "hello"}) << true << QStringList{"hello"};
    QTest::newRow("message in capitals") << array({"MESSAGE", "ch", "hi"}) << true << QStringList{"hi"};
    QTest::newRow("message on another channel") << array({"message", "other", "x"}) << true << QStringList();
    QTest::newRow("subscribe confirmation")
        << array({"subscribe", "ch", "1"}) << true << QStringList{"(subscribed)"};
    QTest::newRow("unsubscribe confirmation") << array({"unsubscribe", "ch", "0"}) << true << QStringList();
    QTest::newRow("pattern message") << array({"pmessage", "c*", "ch"}) << true << QStringList();
    QTest::newRow("an ordinary array reply") << array({"a", "b", "c"}) << false << QStringList();
    QTest::newRow("too short for a push") << array({"message", "ch"}) << false << QStringList();
    QTest::newRow("not an array") << RedisReply::string("message") << false << QStringList();
}

void TestReplyDispatch::pushes() {
    QFETCH(RedisReply, reply);
    QFETCH(bool, isPush);
    QFETCH(QStringList, heard);
    ReplyDispatch dispatch;
    QStringList seen;
    dispatch.subscribe(
        "ch", [&](const QByteArray &m) { seen << QString::fromUtf8(m); },
        [&] { seen << QStringLiteral("(subscribed)"); });
    QCOMPARE(dispatch.routePush(reply), isPush);
    QCOMPARE(seen, heard);
}

void TestReplyDispatch::nothingIsAPushBeforeASubscription() {
    // LRANGE of a list that holds "message", "ch", "x" is a reply, not a push.
    ReplyDispatch dispatch;
    QVERIFY(!dispatch.routePush(array({"message", "ch", "x"})));
}

void TestReplyDispatch::aHandlerMayUnsubscribeItself() {
    ReplyDispatch dispatch;
    int calls = 0;
    dispatch.subscribe("ch",
                       [&](const QByteArray &) {
                           ++calls;
                           dispatch.unsubscribe("ch");
                       },
                       {});
    QVERIFY(dispatch.routePush(array({"message", "ch", "1"})));
    QVERIFY(dispatch.routePush(array({"message", "ch", "2"})));
    QCOMPARE(calls, 1);
    QVERIFY(dispatch.channels().isEmpty());
}

void TestReplyDispatch::subscribeAndUnsubscribeSayWhetherAWriteIsNeeded() {
    ReplyDispatch dispatch;
    QVERIFY(dispatch.subscribe("a", {}, {}));
    QVERIFY(!dispatch.subscribe("a", {}, {})); // new handlers, same subscription on the server
    QVERIFY(dispatch.subscribe("b", {}, {}));
    const QList<QByteArray> channels = dispatch.channels();
    QCOMPARE(QSet<QByteArray>(channels.cbegin(), channels.cend()), (QSet<QByteArray>{"a", "b"}));
    QVERIFY(dispatch.unsubscribe("a"));
    QVERIFY(!dispatch.unsubscribe("a"));
    QCOMPARE(dispatch.channels(), QList<QByteArray>{"b"});
}

void TestReplyDispatch::releaseQueueKeepsTheOrder() {
    ReplyDispatch dispatch;
    QList<QByteArray> replied;
    PendingCommand inFlight;
    inFlight.name = "PING";
    dispatch.inFlight.push_back(inFlight);
    for (const QByteArray &name : {QByteArray("GET"), QByteArray("SET"), QByteArray("DEL")}) {
        PendingCommand p;
        p.name = name;
        p.callback = [&replied, name](const RedisReply &) { replied << name; };
        dispatch.queue.push_back({"<" + name + ">", p});
    }
    QCOMPARE(dispatch.releaseQueue(), QByteArray("<GET><SET><DEL>"));
    QVERIFY(dispatch.queue.empty());
    QCOMPARE(dispatch.inFlight.size(), size_t(4));
    QCOMPARE(dispatch.inFlight.front().name, QByteArray("PING"));
    dispatch.inFlight.pop_front();
    while (!dispatch.inFlight.empty()) {
        dispatch.inFlight.front().callback(RedisReply::nil());
        dispatch.inFlight.pop_front();
    }
    QCOMPARE(replied, (QList<QByteArray>{"GET", "SET", "DEL"}));
}

void TestReplyDispatch::commandNames_data() {
    QTest::addColumn<QList<QByteArray>>("args");
    QTest::addColumn<QByteArray>("name");
    QTest::newRow("upper-cased, arguments left out")
        << QList<QByteArray>{"get", "secret-key"} << QByteArray("GET");
    QTest::newRow("none") << QList<QByteArray>{} << QByteArray();
    QTest::newRow("cut at 32 bytes") << QList<QByteArray>{QByteArray(40, 'x')} << QByteArray(32, 'X');
}

void TestReplyDispatch::commandNames() {
    QFETCH(QList<QByteArray>, args);
    QFETCH(QByteArray, name);
    QCOMPARE(commandName(args), name);
}

SEMSCOPE_TEST_GUILESS_MAIN(TestReplyDispatch)
#include "tst_replydispatch.moc"
