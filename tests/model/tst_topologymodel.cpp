// The Topology window's table (model::TopologyModel) fed by model::readTopology on real servers: a
// standalone master with a replica that falls behind (SIGSTOP), and a 3+3 Cluster.
#include "RedisCluster.h"
#include "RedisServer.h"
#include "TestMain.h"
#include "TestWait.h"
#include "model/ConnectionController.h"
#include "model/ConnectionStores.h"
#include "model/StatusColors.h"
#include "model/TopologyModel.h"
#include "model/TopologyReader.h"

#include <QAbstractItemModelTester>
#include <QBrush>
#include <QtTest>

using namespace semscope;
using model::ConnectionController;
using model::TopologyModel;
using redis::topology::TopologyReport;

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

TopologyReport readNow(ConnectionController &c) {
    TopologyReport report;
    bool done = false;
    QObject context;
    model::readTopology(c, &context, [&](const TopologyReport &r) {
        report = r;
        done = true;
    });
    test::waitFor([&] { return done; }, 15000);
    if (!done)
        report.error = QStringLiteral("no answer");
    return report;
}

QColor foreground(const TopologyModel &m, int row, int column) {
    return m.index(row, column).data(Qt::ForegroundRole).value<QBrush>().color();
}

} // namespace

class TestTopologyModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void standaloneReplicaLagIsColoured();
    void clusterListsEveryNode();
    void consulHasNoReplicationToShow();
};

void TestTopologyModel::standaloneReplicaLagIsColoured() {
    test::RedisServer master;
    QVERIFY2(master.start(), qPrintable(master.errorString()));
    test::RedisServer replica;
    QVERIFY2(replica.startReplicaOf(master), qPrintable(replica.errorString()));

    const model::ConnectionConfig config = redisConfig(master.url());
    ConnectionController c(config, model::storeFactoryFor(config));
    c.open();
    TopologyModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    TopologyReport r;
    // In step once the replica acknowledged everything (it acknowledges every second).
    QVERIFY(test::waitFor(
        [&] {
            r = readNow(c);
            return r.nodes.size() == 2 && r.nodes.at(1).lagBytes == 0;
        },
        15000));
    m.setReport(r);
    QCOMPARE(m.rowCount(), 2);
    QCOMPARE(r.summary(), QStringLiteral("Standalone: 1 master, 1 replica"));
    QCOMPARE(m.index(0, TopologyModel::AddressColumn).data().toString(), address(master));
    QCOMPARE(m.index(0, TopologyModel::RoleColumn).data().toString(), QStringLiteral("master"));
    const int rep = m.rowOf(address(replica));
    QCOMPARE(rep, 1);
    QCOMPARE(m.index(rep, TopologyModel::MasterColumn).data().toString(), address(master));
    QCOMPARE(m.index(rep, TopologyModel::LinkColumn).data().toString(), QStringLiteral("online"));
    QCOMPARE(m.index(rep, TopologyModel::LagBytesColumn).data().toString(), QStringLiteral("0 B"));
    QCOMPARE(foreground(m, rep, TopologyModel::LagBytesColumn), model::toneText(model::Tone::Good));
    QVERIFY(
        !m.index(0, TopologyModel::LagBytesColumn).data(Qt::ForegroundRole).isValid()); // a master has no lag

    // The replica stops reading: what the master takes from now on is missing on it.
    replica.suspend();
    QVERIFY(!master.command({"SET", "filler", QByteArray(20000, 'x')}).isError());
    r = readNow(c);
    replica.resume();
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    m.setReport(r);
    QCOMPARE(m.rowCount(), 2);
    QVERIFY(m.index(rep, TopologyModel::LagBytesColumn).data(TopologyModel::SortRole).toLongLong() >= 20000);
    QVERIFY2(m.index(rep, TopologyModel::LagBytesColumn).data().toString().endsWith(QLatin1String(" KB")),
             qPrintable(m.index(rep, TopologyModel::LagBytesColumn).data().toString()));
    QCOMPARE(foreground(m, rep, TopologyModel::LagBytesColumn), model::toneText(model::Tone::Caution));
    const QString sentence = m.index(rep, TopologyModel::LagBytesColumn).data(Qt::ToolTipRole).toString();
    QVERIFY2(sentence.contains(QStringLiteral("a failover now would lose it")), qPrintable(sentence));
}

void TestTopologyModel::clusterListsEveryNode() {
    test::RedisCluster cluster;
    QVERIFY2(cluster.start(), qPrintable(cluster.errorString()));
    const model::ConnectionConfig config = redisConfig(cluster.url());
    ConnectionController c(config, model::storeFactoryFor(config));
    c.open();
    const TopologyReport r = readNow(c);
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    TopologyModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    m.setReport(r);
    QCOMPARE(m.rowCount(), 6);
    QCOMPARE(r.summary(), QStringLiteral("Cluster: 3 masters, 3 replicas"));
    QStringList masterRanges;
    for (int row = 0; row < m.rowCount(); ++row) {
        if (m.index(row, TopologyModel::RoleColumn).data().toString() == QLatin1String("master"))
            masterRanges << m.index(row, TopologyModel::SlotsColumn).data().toString();
        else
            QVERIFY(!m.index(row, TopologyModel::MasterColumn).data().toString().isEmpty());
    }
    QCOMPARE(masterRanges.size(), 3);
    // Masters in slot order, whatever order CLUSTER SHARDS gives.
    QCOMPARE(masterRanges, (QStringList{"0-5460", "5461-10921", "10922-16383"}));
    // The replica of node 0 is listed right after it, with its master named.
    const int rep = m.rowOf(address(cluster.node(3)));
    QCOMPARE(rep, m.rowOf(address(cluster.node(0))) + 1);
    QCOMPARE(m.index(rep, TopologyModel::MasterColumn).data().toString(), address(cluster.node(0)));

    // Semaphores per master, from the connection's list: a number on masters, nothing on replicas.
    // Slots 0, 100 and 5460 are the first master's, 5461 the second's; none of the third's.
    m.setSemaphoreSlots({0, 100, 5460, 5461});
    QCOMPARE(m.index(m.rowOf(address(cluster.node(0))), TopologyModel::SemaphoresColumn).data().toInt(), 3);
    QCOMPARE(m.index(m.rowOf(address(cluster.node(1))), TopologyModel::SemaphoresColumn).data().toInt(), 1);
    QCOMPARE(m.index(m.rowOf(address(cluster.node(2))), TopologyModel::SemaphoresColumn).data().toInt(), 0);
    QVERIFY(m.index(rep, TopologyModel::SemaphoresColumn).data().toString().isEmpty());

    // Same nodes again: updated in place, rows stay.
    m.setReport(readNow(c));
    QCOMPARE(m.rowCount(), 6);
    QCOMPARE(m.rowOf(address(cluster.node(3))), rep);
}

void TestTopologyModel::consulHasNoReplicationToShow() {
    // The reader asks a Consul connection nothing; it says why there is nothing to show.
    model::ConnectionConfig config = model::ConnectionConfig::create(core::Backend::Consul);
    config.address = QStringLiteral("http://127.0.0.1:1");
    ConnectionController c(config, model::storeFactoryFor(config));
    c.open();
    const TopologyReport r = readNow(c);
    QCOMPARE(r.error, model::consulReplicationNote());
    QVERIFY(r.nodes.isEmpty());
}

SEMSCOPE_TEST_MAIN(TestTopologyModel)
#include "tst_topologymodel.moc"
