// redis/topology/ClusterMap read from CLUSTER SHARDS and CLUSTER SLOTS replies written here (no
// server): where each master is dialled. A node that never met another one (a Cluster of one master)
// does not know its own address and names itself with an empty ip; it is reached at the host the
// operator asked for. Every address a node announces is kept as announced, reachable or not: the map
// cannot tell, and a Cluster's own clients dial the same addresses.
#include "TestMain.h"
#include "redis/topology/ClusterMap.h"

#include <QTest>

using semscope::redis::RedisReply;
using semscope::redis::topology::ClusterMap;

namespace {

RedisReply array(const QList<RedisReply> &elements) {
    RedisReply r;
    r.type = RedisReply::Type::Array;
    r.elements = elements;
    return r;
}

RedisReply text(const QByteArray &s) {
    return RedisReply::string(s);
}

// The slot range of master `i` of `n`: the 16384 slots split in order.
QPair<int, int> rangeOf(int i, int n) {
    const int per = 16384 / n;
    return {i * per, i == n - 1 ? 16383 : (i + 1) * per - 1};
}

// CLUSTER SHARDS (RESP2: maps as flat key/value arrays) with one master per announced address, at
// port 7000 + i. "?" is how Redis says an endpoint it does not know (its ip is then empty too).
RedisReply shardsReply(const QByteArrayList &announced) {
    RedisReply reply = array({});
    for (int i = 0; i < announced.size(); ++i) {
        const QByteArray &host = announced.at(i);
        const auto [from, to] = rangeOf(i, int(announced.size()));
        const RedisReply node = array({text("id"), text("node" + QByteArray::number(i)), text("port"),
                                       RedisReply::integerReply(7000 + i), text("ip"),
                                       text(host == "?" ? QByteArray() : host), text("endpoint"), text(host),
                                       text("role"), text("master"), text("health"), text("online")});
        reply.elements << array({text("slots"),
                                 array({RedisReply::integerReply(from), RedisReply::integerReply(to)}),
                                 text("nodes"), array({node})});
    }
    return reply;
}

// CLUSTER SLOTS for the same masters: [from, to, [ip, port, id]] per range.
RedisReply slotsReply(const QByteArrayList &announced) {
    RedisReply reply = array({});
    for (int i = 0; i < announced.size(); ++i) {
        const auto [from, to] = rangeOf(i, int(announced.size()));
        reply.elements << array({RedisReply::integerReply(from), RedisReply::integerReply(to),
                                 array({text(announced.at(i)), RedisReply::integerReply(7000 + i),
                                        text("node" + QByteArray::number(i))})});
    }
    return reply;
}

QStringList masters(const ClusterMap &map) {
    QStringList addresses;
    for (const auto &shard : map.shards())
        addresses << shard.master.address();
    return addresses;
}

} // namespace

class TestClusterMap : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void askedHostFallback_data() {
        QTest::addColumn<QByteArrayList>("announced"); // each master's own address, in slot order
        QTest::addColumn<QString>("asked");            // the host the reply came from
        QTest::addColumn<QStringList>("dialled");      // where each master is reached
        QTest::newRow("one master, announced ip the client cannot reach")
            << QByteArrayList{"10.255.0.9"} << "127.0.0.1" << QStringList{"10.255.0.9:7000"};
        QTest::newRow("one master, announced ip is the asked host")
            << QByteArrayList{"127.0.0.1"} << "127.0.0.1" << QStringList{"127.0.0.1:7000"};
        QTest::newRow("one master, empty announced host")
            << QByteArrayList{""} << "127.0.0.1" << QStringList{"127.0.0.1:7000"};
        QTest::newRow("one master, unknown endpoint '?'")
            << QByteArrayList{"?"} << "redis.example" << QStringList{"redis.example:7000"};
        QTest::newRow("several masters: no fallback")
            << QByteArrayList{"10.0.0.1", "10.0.0.2", "10.0.0.3"} << "redis.example"
            << QStringList{"10.0.0.1:7000", "10.0.0.2:7001", "10.0.0.3:7002"};
        // Only the node answering can lack its own address: it is the one that was asked.
        QTest::newRow("several masters, the answering one without an address")
            << QByteArrayList{"", "10.0.0.2"} << "redis.example"
            << QStringList{"redis.example:7000", "10.0.0.2:7001"};
    }
    void askedHostFallback() {
        QFETCH(QByteArrayList, announced);
        QFETCH(QString, asked);
        QFETCH(QStringList, dialled);
        for (const bool shards : {true, false}) {
            QString error;
            const std::optional<ClusterMap> map =
                shards ? ClusterMap::fromShards(shardsReply(announced), false, &error, asked)
                       : ClusterMap::fromSlots(slotsReply(announced), &error, asked);
            const QByteArray from = shards ? "CLUSTER SHARDS" : "CLUSTER SLOTS";
            QVERIFY2(map, qPrintable(error)); // it names the reply
            QVERIFY2(masters(*map) == dialled,
                     QByteArray(from + ": " + masters(*map).join(QLatin1Char(' ')).toUtf8()).constData());
            // Every slot is routed to the master serving it.
            QCOMPARE(map->masterOfSlot(0), dialled.constFirst());
            QCOMPARE(map->masterOfSlot(16383), dialled.constLast());
            QCOMPARE(map->replicaCount(), 0);
        }
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestClusterMap)
#include "tst_clustermap.moc"
