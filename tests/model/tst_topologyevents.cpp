// Topology events through the whole chain a GUI sees them by: the Redis store's event source, the
// controller's worker thread, and the GUI thread (ConnectionController::topologyEvent), on a real
// Sentinel group and a real Cluster; plus the event list model.
#include "RedisCluster.h"
#include "SentinelGroup.h"
#include "TestMain.h"
#include "TestWait.h"
#include "model/ConnectionController.h"
#include "model/ConnectionStores.h"
#include "model/TopologyEventModel.h"
#include "model/TopologyReader.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QtTest>

using namespace semscope;
using core::TopologyEvent;
using model::ConnectionController;

namespace {

QString address(test::RedisServer &node) {
    return QStringLiteral("127.0.0.1:%1").arg(node.port());
}

model::ConnectionConfig redisConfig(const QString &url) {
    model::ConnectionConfig c = model::ConnectionConfig::create(core::Backend::Redis);
    c.name = QStringLiteral("topology");
    c.url = url;
    return c;
}

std::optional<TopologyEvent> lastOfKind(const QSignalSpy &spy, TopologyEvent::Kind kind) {
    for (qsizetype i = spy.size() - 1; i >= 0; --i) {
        const auto e = spy.at(i).at(0).value<TopologyEvent>();
        if (e.kind == kind)
            return e;
    }
    return std::nullopt;
}

} // namespace

class TestTopologyEvents : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sentinelFailoverArrivesWithBothAddresses();
    void abortedFailoverIsAnEvent();
    void clusterFailoverIsAnEvent();
    void eventModelListsNewestFirst();
};

// SENTINEL FAILOVER: the GUI thread gets a "master switched" event naming the old and the new
// master, the controller keeps it, and its master line follows.
void TestTopologyEvents::sentinelFailoverArrivesWithBothAddresses() {
    test::SentinelGroup group;
    QVERIFY2(group.start(), qPrintable(group.errorString()));
    const model::ConnectionConfig config = redisConfig(group.url());
    ConnectionController c(config, model::storeFactoryFor(config));
    QSignalSpy events(&c, &ConnectionController::topologyEvent);
    c.open();
    QTRY_COMPARE_WITH_TIMEOUT(c.state(), ConnectionController::State::Connected, 15000);
    const QString oldMaster = address(group.node(0));
    const QString sentinel = QStringLiteral("127.0.0.1:%1").arg(group.sentinel(0).port());
    QTRY_COMPARE(c.servingMaster(), QStringLiteral("master %1 via sentinel %2").arg(oldMaster, sentinel));
    QVERIFY(c.topologyEvents().isEmpty()); // finding the master is no failover

    QVERIFY2(group.failover(), qPrintable(group.errorString()));
    QVERIFY(test::waitFor([&] { return lastOfKind(events, TopologyEvent::Kind::MasterSwitched).has_value(); },
                          20000));
    const TopologyEvent e = *lastOfKind(events, TopologyEvent::Kind::MasterSwitched);
    const QString newMaster = address(group.node(1));
    QCOMPARE(e.from, oldMaster);
    QCOMPARE(e.to, newMaster);
    QCOMPARE(e.text, QStringLiteral("failover: master moved from %1 to %2").arg(oldMaster, newMaster));
    QVERIFY(e.timeMs > 0);
    QVERIFY(!c.topologyEvents().isEmpty());
    QCOMPARE(c.topologyEvents().constLast().to, newMaster);
    QCOMPARE(c.servingMaster(), QStringLiteral("master %1 via sentinel %2").arg(newMaster, sentinel));
}

// A failover the sentinels give up (the replica cannot be promoted): "failover started", then
// "failover aborted" naming the master that stays, and the connection serves it again.
void TestTopologyEvents::abortedFailoverIsAnEvent() {
    test::SentinelGroup group;
    test::SentinelGroup::Options options;
    options.replicasRefusePromotion = true;
    QVERIFY2(group.start(options), qPrintable(group.errorString()));
    const model::ConnectionConfig config = redisConfig(group.url());
    ConnectionController c(config, model::storeFactoryFor(config));
    QSignalSpy events(&c, &ConnectionController::topologyEvent);
    c.open();
    QTRY_COMPARE_WITH_TIMEOUT(c.state(), ConnectionController::State::Connected, 15000);
    const QString master = address(group.node(0));

    QVERIFY2(group.failover(), qPrintable(group.errorString()));
    QVERIFY(test::waitFor(
        [&] { return lastOfKind(events, TopologyEvent::Kind::FailoverAborted).has_value(); }, 20000));
    QVERIFY(lastOfKind(events, TopologyEvent::Kind::FailoverStarted).has_value());
    const TopologyEvent e = *lastOfKind(events, TopologyEvent::Kind::FailoverAborted);
    QCOMPARE(e.from, master);
    QCOMPARE(e.text,
             QStringLiteral("failover aborted (-failover-abort-slave-timeout): the sentinels gave up; "
                            "'mymaster' stays on %1, commands resume there")
                 .arg(master));
    QCOMPARE(core::topologyEventKindName(e.kind), QStringLiteral("failover aborted"));
    QVERIFY(!lastOfKind(events, TopologyEvent::Kind::MasterSwitched));
    QTRY_COMPARE_WITH_TIMEOUT(c.state(), ConnectionController::State::Connected, 5000);
}

// CLUSTER FAILOVER on a replica: the next map read (the Topology window reads every 2 s) turns the
// promotion into a "master switched" event for that master's slots; an unchanged map says nothing;
// a replica killed is "node down" once the cluster marks it failed.
void TestTopologyEvents::clusterFailoverIsAnEvent() {
    test::RedisCluster cluster;
    QVERIFY2(cluster.start(), qPrintable(cluster.errorString()));
    const model::ConnectionConfig config = redisConfig(cluster.url());
    ConnectionController c(config, model::storeFactoryFor(config));
    QSignalSpy events(&c, &ConnectionController::topologyEvent);
    c.open();
    auto read = [&] {
        redis::topology::TopologyReport report;
        bool done = false;
        model::readTopology(c, this, [&](const redis::topology::TopologyReport &r) {
            report = r;
            done = true;
        });
        [&] { QTRY_VERIFY_WITH_TIMEOUT(done, 15000); }();
        return report;
    };
    const auto before = read();
    QVERIFY2(before.error.isEmpty(), qPrintable(before.error));
    QCOMPARE(before.summary(), QStringLiteral("Cluster: 3 masters, 3 replicas"));
    read();
    QCOMPARE(events.size(), 0);

    // Master 0's replica is node 3 (masters first, then one replica each).
    const QString oldMaster = address(cluster.node(0));
    const QString promoted = address(cluster.node(3));
    QVERIFY(!cluster.node(3).command({"CLUSTER", "FAILOVER"}).isError());
    QVERIFY(test::waitFor([&] { return cluster.masterOfSlot(0) == &cluster.node(3); }, 20000));
    QVERIFY(test::waitFor(
        [&] {
            read();
            return lastOfKind(events, TopologyEvent::Kind::MasterSwitched).has_value();
        },
        20000));
    const TopologyEvent e = *lastOfKind(events, TopologyEvent::Kind::MasterSwitched);
    QCOMPARE(e.from, oldMaster);
    QCOMPARE(e.to, promoted);
    QVERIFY2(e.text.startsWith(QStringLiteral("failover: master of slots 0-")), qPrintable(e.text));
    QVERIFY2(e.text.endsWith(QStringLiteral(" moved from %1 to %2").arg(oldMaster, promoted)),
             qPrintable(e.text));
    QCOMPARE(c.topologyEvents().constLast().to, promoted);

    // A replica dies: once the cluster marks it failed (node timeout 2 s), a "node down" event.
    const QString dead = address(cluster.node(4));
    cluster.node(4).kill();
    QVERIFY(test::waitFor(
        [&] {
            read();
            return lastOfKind(events, TopologyEvent::Kind::NodeDown).has_value();
        },
        20000));
    const TopologyEvent down = *lastOfKind(events, TopologyEvent::Kind::NodeDown);
    QCOMPARE(down.to, dead);
    QCOMPARE(down.text, QStringLiteral("node %1 is down: the cluster marks it failed").arg(dead));
}

void TestTopologyEvents::eventModelListsNewestFirst() {
    model::TopologyEventModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    TopologyEvent found = TopologyEvent::make(TopologyEvent::Kind::MasterFound, QStringLiteral("master a"));
    TopologyEvent first =
        TopologyEvent::make(TopologyEvent::Kind::FailoverStarted, QStringLiteral("failover started"));
    TopologyEvent second = TopologyEvent::make(
        TopologyEvent::Kind::MasterSwitched, QStringLiteral("failover: master moved from a to b"), "a", "b");
    m.setEvents({found, first});
    QCOMPARE(m.rowCount(), 1); // finding a master is state, not an event
    m.add(second);
    m.add(found);
    QCOMPARE(m.rowCount(), 2);
    QCOMPARE(m.index(0, model::TopologyEventModel::TextColumn).data().toString(), second.text);
    QCOMPARE(m.index(0, model::TopologyEventModel::KindColumn).data().toString(),
             QStringLiteral("master switched"));
    QCOMPARE(m.index(1, model::TopologyEventModel::TextColumn).data().toString(), first.text);
    QVERIFY(m.index(0, model::TopologyEventModel::TimeColumn).data().toString().contains(QLatin1Char(':')));
    for (int i = 0; i < model::TopologyEventModel::kMaxEvents + 5; ++i)
        m.add(second);
    QCOMPARE(m.rowCount(), model::TopologyEventModel::kMaxEvents);
}

SEMSCOPE_TEST_MAIN(TestTopologyEvents)
#include "tst_topologyevents.moc"
