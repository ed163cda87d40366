// Issues 17 and 18 in the desktop app, on real servers: Tools → Topology on a 3+3 Cluster, the
// list's Node column and the page's master and slot, the page's Replication tab with a replica that
// falls behind (SIGSTOP), and a Sentinel failover as an event on the connection and the page.
// Saves the screenshots the README shows (1280×720).

#include "RedisCluster.h"
#include "RedisServer.h"
#include "SentinelGroup.h"
#include "TestMain.h"
#include "TestWait.h"
#include "consuldouble/ConsulDouble.h"
#include "core/audit/AuditLog.h"
#include "model/ConnectionRegistry.h"
#include "model/ConnectionSession.h"
#include "model/ConnectionStores.h"
#include "model/SecretStore.h"
#include "model/TopologyModel.h"
#include "model/TopologyReader.h"
#include "redis/RedisSemaphoreStore.h"
#include "ui/MainWindow.h"
#include "ui/SemaphorePage.h"
#include "ui/topology/ReplicationPanel.h"
#include "ui/topology/TopologyWindow.h"

#include <QDir>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace semscope;
using model::SemaphoreListModel;

namespace {

struct WindowFixture {
    QTemporaryDir dir;
    model::ConnectionRegistry registry{dir.path() + QStringLiteral("/connections.ini")};
    core::AuditLog audit{dir.path() + QStringLiteral("/audit.jsonl")};
    model::MemorySecretStore secrets;
    QSettings profileSettings{dir.path() + QStringLiteral("/profiles.ini"), QSettings::IniFormat};
    core::ProfileStore profiles{&profileSettings};
    ui::MainWindow window{services()};

    ui::MainWindowServices services() {
        ui::MainWindowServices s;
        s.registry = &registry;
        s.secrets = &secrets;
        s.audit = &audit;
        s.profiles = &profiles;
        s.storeFactory = [](const model::ConnectionConfig &c) { return model::storeFactoryFor(c); };
        s.settingsFile = dir.path() + QStringLiteral("/window.ini");
        return s;
    }

    // Adds the connection, opens it and waits for its discovery.
    model::ConnectionSession *open(const QString &name, const QString &url) {
        auto config = model::ConnectionConfig::create(core::Backend::Redis);
        config.name = name;
        config.url = url;
        return open(config);
    }
    model::ConnectionSession *open(const model::ConnectionConfig &config) {
        window.resize(1280, 720);
        window.show();
        if (!QTest::qWaitForWindowExposed(&window))
            return nullptr;
        registry.upsert(config);
        window.openConnection(config.id);
        model::ConnectionSession *s = window.session(config.id);
        if (!s)
            return nullptr;
        QSignalSpy done(s, &model::ConnectionSession::discoveryFinished);
        if (s->isDiscovering() && !done.wait(30000))
            return nullptr;
        return s;
    }
};

core::SemaphoreRef leased(const QString &name) {
    core::SemaphoreRef r;
    r.kind = core::Kind::Leased;
    r.name = name;
    r.profile.limit = 3;
    return r;
}

// Another program takes a slot of each semaphore (so they exist and have a holder).
bool fill(const redis::ConnectionSettings &settings, const QStringList &names) {
    redis::RedisSemaphoreStore store(settings);
    for (const QString &name : names) {
        core::AcquireRequest req;
        req.holder = QStringLiteral("worker-%1@host-7").arg(name);
        req.ttlMs = 600000;
        bool granted = false;
        const bool answered = test::waitForCallback([&](std::function<void()> done) {
            store.acquire(leased(name), req, {}, [&, done](core::AcquireResult r) {
                granted = r.status == core::AcquireResult::Status::Granted;
                done();
            });
        });
        if (!answered || !granted)
            return false;
    }
    return true;
}

void saveScreenshot(QWidget *w, const QString &name) {
    const QString dir = QStringLiteral(SEMSCOPE_SCREENSHOT_DIR);
    QVERIFY(QDir().mkpath(dir));
    QVERIFY(w->grab().save(dir + QLatin1Char('/') + name + QStringLiteral(".png")));
}

QString address(test::RedisServer &node) {
    return QStringLiteral("127.0.0.1:%1").arg(node.port());
}

} // namespace

class TestTopology : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void clusterTopologyWindowNodeColumnAndPage();
    void replicationTabShowsALaggingReplica();
    void sentinelFailoverIsAnEventOnConnectionAndPage();
    void consulHasNoReplicationTopology();
};

void TestTopology::clusterTopologyWindowNodeColumnAndPage() {
    test::RedisCluster cluster;
    QVERIFY2(cluster.start(), qPrintable(cluster.errorString()));
    const QStringList names{"orders", "payments", "emails", "reports", "thumbnails", "exports"};
    QVERIFY(fill(cluster.settings(), names));
    WindowFixture f;
    model::ConnectionSession *s = f.open(QStringLiteral("cluster"), cluster.url());
    QVERIFY(s);
    QCOMPARE(s->list.rowCount(), int(names.size()));

    // The Node column is there on a Cluster, naming each semaphore's master.
    QTableView *list = f.window.semaphoreView();
    QVERIFY(!list->isColumnHidden(SemaphoreListModel::NodeColumn));
    // Right after how full each semaphore is, not last and off screen in a narrow list.
    QCOMPARE(list->horizontalHeader()->visualIndex(SemaphoreListModel::NodeColumn),
             list->horizontalHeader()->visualIndex(SemaphoreListModel::StaleColumn) + 1);
    QSet<QString> masters;
    for (int row = 0; row < s->list.rowCount(); ++row) {
        const QModelIndex node = s->list.index(row, SemaphoreListModel::NodeColumn);
        QVERIFY(!node.data().toString().isEmpty());
        QVERIFY(node.data(Qt::ToolTipRole).toString().contains(QLatin1String("hash slot")));
        masters << node.data().toString();
    }
    QVERIFY2(masters.size() >= 2, "the names should land on more than one master");

    // The page names the semaphore's master and slot; its Replication tab that master's replica.
    // A semaphore of the first master, whose replica takes over below ("orders", "emails" and
    // "reports" hash to its slots).
    int row = 0;
    while (row < s->list.rowCount() && s->list.discoveredAt(row).node != address(cluster.node(0)))
        ++row;
    QVERIFY(row < s->list.rowCount());
    const core::SemaphoreRef ref = s->list.refAt(row);
    const core::DiscoveredSemaphore found = s->list.discoveredAt(row);
    QVERIFY(f.window.openSemaphore(s->config().id, ref));
    ui::SemaphorePage *page = f.window.semaphorePage();
    QVERIFY2(page->connectionLabel()->text().contains(
                 QStringLiteral("master %1, slot %2").arg(found.node).arg(found.slot)),
             qPrintable(page->connectionLabel()->text()));
    ui::ReplicationPanel *panel = page->replicationPanel();
    QSignalSpy panelRead(panel, &ui::ReplicationPanel::refreshed);
    page->lowerTabs()->setCurrentWidget(panel);
    QVERIFY(panelRead.wait(15000));
    QVERIFY2(panel->masterLabel()->text().contains(found.node), qPrintable(panel->masterLabel()->text()));
    QVERIFY2(panel->masterLabel()->text().contains(QStringLiteral("hash slot <b>%1</b>").arg(found.slot)),
             qPrintable(panel->masterLabel()->text()));
    QVERIFY2(panel->replicasLabel()->text().contains(QLatin1String("replica 127.0.0.1:")),
             qPrintable(panel->replicasLabel()->text()));

    // Tools → Topology: six nodes, the summary, when it was read.
    ui::TopologyWindow *w = f.window.openTopology();
    QVERIFY(w);
    QSignalSpy refreshed(w, &ui::TopologyWindow::refreshed);
    QVERIFY(refreshed.wait(15000) || w->model()->rowCount() == 6);
    QCOMPARE(w->model()->rowCount(), 6);
    QCOMPARE(w->summaryLabel()->text(), QStringLiteral("Cluster: 3 masters, 3 replicas"));
    QVERIFY2(w->ageLabel()->text().startsWith(QLatin1String("read ")), qPrintable(w->ageLabel()->text()));
    QCOMPARE(f.window.openTopology(), w); // one window per connection
    // Issue 31 item 11: each master says how many of the listed semaphores it serves; replicas none.
    // (Before the failover below, each semaphore's node as discovered is its master.)
    QHash<QString, int> listed;
    for (int r = 0; r < s->list.rowCount(); ++r)
        ++listed[s->list.discoveredAt(r).node];
    int counted = 0;
    for (int r = 0; r < w->model()->rowCount(); ++r) {
        const QString address = w->model()->index(r, model::TopologyModel::AddressColumn).data().toString();
        const QVariant n = w->model()->index(r, model::TopologyModel::SemaphoresColumn).data();
        if (w->model()->index(r, model::TopologyModel::RoleColumn).data().toString() ==
            QLatin1String("master")) {
            QCOMPARE(n.toInt(), listed.value(address));
            counted += n.toInt();
        } else {
            QVERIFY(n.toString().isEmpty());
        }
    }
    QCOMPARE(counted, int(names.size()));
    w->resize(1280, 720);
    // A manual failover of the first master: seen by the next read, an event in the window.
    QVERIFY(!cluster.node(3).command({"CLUSTER", "FAILOVER"}).isError());
    QVERIFY(test::waitFor([&] { return w->events()->rowCount() > 0; }, 20000));
    QCOMPARE(w->events()->eventAt(0).kind, core::TopologyEvent::Kind::MasterSwitched);
    QCOMPARE(w->events()->eventAt(0).to, address(cluster.node(3)));
    QVERIFY(test::waitFor([&] { return w->model()->rowOf(address(cluster.node(3))) == 0; }, 15000));
    // The counts follow the failover at once (by slot ranges, not by the node discovery named).
    int afterFailover = 0;
    for (int r = 0; r < w->model()->rowCount(); ++r)
        afterFailover += w->model()->index(r, model::TopologyModel::SemaphoresColumn).data().toInt();
    QCOMPARE(afterFailover, int(names.size()));
    QCOMPARE(w->model()->index(0, model::TopologyModel::SemaphoresColumn).data().toInt(),
             listed.value(address(cluster.node(0))));
    QCOMPARE(w->model()->index(0, model::TopologyModel::RoleColumn).data().toString(),
             QStringLiteral("master"));
    // The open page follows: its next read is redirected to the new master, which its header, the
    // list's Node column and the Replication tab name from then on (not the master discovery saw).
    const QString promoted =
        QStringLiteral("master %1, slot %2").arg(address(cluster.node(3))).arg(found.slot);
    QVERIFY2(test::waitFor([&] { return page->connectionLabel()->text().contains(promoted); }, 15000),
             qPrintable(page->connectionLabel()->text()));
    QCOMPARE(s->list.index(s->list.rowOf(ref), SemaphoreListModel::NodeColumn).data().toString(),
             address(cluster.node(3)));
    QVERIFY2(
        test::waitFor([&] { return panel->masterLabel()->text().contains(address(cluster.node(3))); }, 15000),
        qPrintable(panel->masterLabel()->text()));
    // Lag columns settle once every replica acknowledged (each does every second).
    QVERIFY(test::waitFor(
        [&] {
            for (const auto &n : w->model()->report().nodes) {
                if (n.role == QLatin1String("replica") && n.lagBytes != 0)
                    return false;
            }
            return true;
        },
        15000));
    test::deliverPostedEvents(); // the last change drawn
    saveScreenshot(w, QStringLiteral("topology-cluster"));

    w->close();
}

void TestTopology::replicationTabShowsALaggingReplica() {
    test::RedisServer master;
    QVERIFY2(master.start(), qPrintable(master.errorString()));
    test::RedisServer replica;
    QVERIFY2(replica.startReplicaOf(master), qPrintable(replica.errorString()));
    QVERIFY(fill(master.settings(), {QStringLiteral("deploys")}));
    WindowFixture f;
    model::ConnectionSession *s = f.open(QStringLiteral("replicated"), master.url());
    QVERIFY(s);
    QVERIFY(f.window.semaphoreView()->isColumnHidden(SemaphoreListModel::NodeColumn)); // not a Cluster
    QVERIFY(f.window.openSemaphore(s->config().id, leased(QStringLiteral("deploys"))));
    ui::SemaphorePage *page = f.window.semaphorePage();
    ui::ReplicationPanel *panel = page->replicationPanel();
    QCOMPARE(page->lowerTabs()->tabText(page->lowerTabs()->indexOf(panel)), QStringLiteral("Replication"));
    QSignalSpy panelRead(panel, &ui::ReplicationPanel::refreshed);
    page->lowerTabs()->setCurrentWidget(panel);
    QVERIFY(panelRead.wait(15000));
    QVERIFY2(panel->masterLabel()->text().contains(address(master)),
             qPrintable(panel->masterLabel()->text()));
    QVERIFY2(panel->masterLabel()->text().contains(QLatin1String("Standalone: 1 master, 1 replica")),
             qPrintable(panel->masterLabel()->text()));

    // The replica stops reading, having acknowledged all before; what the master takes meanwhile is
    // what a failover would lose.
    QVERIFY(master.waitForReplicaStream(1));
    replica.suspend();
    QVERIFY(!master.command({"SET", "filler", QByteArray(12 * 1024, 'x')}).isError());
    panelRead.clear();
    panel->refresh();
    const bool read = panelRead.wait(15000);
    const QString text = panel->replicasLabel()->text();
    if (read)
        saveScreenshot(&f.window, QStringLiteral("replication-lag"));
    replica.resume();
    QVERIFY(read);
    QVERIFY2(text.contains(QStringLiteral("replica %1 is 12").arg(address(replica))), qPrintable(text));
    QVERIFY2(
        text.contains(QLatin1String("an acquire made in that window is not on it yet; a failover now would "
                                    "lose it")),
        qPrintable(text));
    QVERIFY2(panel->ageLabel()->text().startsWith(QLatin1String("read ")),
             qPrintable(panel->ageLabel()->text()));
}

void TestTopology::sentinelFailoverIsAnEventOnConnectionAndPage() {
    test::SentinelGroup group;
    QVERIFY2(group.start(), qPrintable(group.errorString()));
    QVERIFY(fill(group.settings(), {QStringLiteral("nightly-batch")}));
    WindowFixture f;
    model::ConnectionSession *s = f.open(QStringLiteral("sentinel"), group.url());
    QVERIFY(s);
    const QString sentinel = QStringLiteral("127.0.0.1:%1").arg(group.sentinel(0).port());
    const QString before = QStringLiteral("master %1 via sentinel %2").arg(address(group.node(0)), sentinel);
    QTRY_VERIFY2(f.window.connectionStateLabel()->text().contains(before),
                 qPrintable(f.window.connectionStateLabel()->text()));
    QVERIFY(f.window.connectionList()->currentItem()->toolTip().contains(before));
    // Tools → Topology through Sentinel: the master of the moment and its replica.
    ui::TopologyWindow *w = f.window.openTopology();
    QVERIFY(w);
    QTRY_VERIFY_WITH_TIMEOUT(w->model()->rowCount() == 2, 15000);
    const QString summary = w->summaryLabel()->text();
    QVERIFY2(summary.startsWith(QLatin1String("Sentinel ")) &&
                 summary.contains(QStringLiteral(": master %1, 1 replica · ").arg(address(group.node(0)))) &&
                 summary.endsWith(before),
             qPrintable(summary));
    QCOMPARE(w->model()->rowOf(address(group.node(0))), 0);
    QCOMPARE(w->model()->rowOf(address(group.node(1))), 1);
    w->close();

    QVERIFY(f.window.openSemaphore(s->config().id, leased(QStringLiteral("nightly-batch"))));
    ui::SemaphorePage *page = f.window.semaphorePage();
    QVERIFY(page->connectionLabel()->text().contains(before));
    ui::ReplicationPanel *panel = page->replicationPanel();
    page->lowerTabs()->setCurrentWidget(panel);
    QCOMPARE(panel->events()->rowCount(), 0);

    QVERIFY2(group.failover(), qPrintable(group.errorString()));
    const QString moved = QStringLiteral("failover: master moved from %1 to %2")
                              .arg(address(group.node(0)), address(group.node(1)));
    QVERIFY(test::waitFor(
        [&] {
            for (int row = 0; row < panel->events()->rowCount(); ++row) {
                if (panel->events()->eventAt(row).text == moved)
                    return true;
            }
            return false;
        },
        20000));
    const QString tab = page->lowerTabs()->tabText(page->lowerTabs()->indexOf(panel));
    QVERIFY2(tab.startsWith(QLatin1String("Replication (")), qPrintable(tab));
    const QString after = QStringLiteral("master %1 via sentinel %2").arg(address(group.node(1)), sentinel);
    QTRY_VERIFY2(f.window.connectionStateLabel()->text().contains(after),
                 qPrintable(f.window.connectionStateLabel()->text()));
    QVERIFY(page->connectionLabel()->text().contains(after));
    // The tab reads the new master's replication once it has it.
    QTRY_VERIFY_WITH_TIMEOUT(panel->masterLabel()->text().contains(after), 15000);
    test::deliverPostedEvents(); // the last change drawn
    saveScreenshot(&f.window, QStringLiteral("failover-event"));
}

// Consul replicates by Raft: the tab says so in one line and reads nothing; there is no Topology
// window for it.
void TestTopology::consulHasNoReplicationTopology() {
    consul::ConsulDouble consul;
    QVERIFY2(consul.listen(), qPrintable(consul.errorString()));
    WindowFixture f;
    auto config = model::ConnectionConfig::create(core::Backend::Consul);
    config.name = QStringLiteral("consul");
    config.address = consul.url().toString();
    model::ConnectionSession *s = f.open(config);
    QVERIFY(s);
    core::SemaphoreRef ref;
    ref.kind = core::Kind::Consul;
    ref.name = QStringLiteral("service/deploy");
    QVERIFY(f.window.openSemaphore(s->config().id, ref));
    ui::ReplicationPanel *panel = f.window.semaphorePage()->replicationPanel();
    f.window.semaphorePage()->lowerTabs()->setCurrentWidget(panel);
    QCOMPARE(panel->masterLabel()->text(), model::consulReplicationNote());
    QVERIFY(panel->replicasLabel()->text().isEmpty());
    QVERIFY(!panel->eventView()->isVisible());
    QVERIFY(f.window.semaphoreView()->isColumnHidden(SemaphoreListModel::NodeColumn));
    QCOMPARE(f.window.openTopology(), nullptr);
    QVERIFY(f.window.statusBar()->currentMessage().contains(QLatin1String("Redis connection")));
}

SEMSCOPE_TEST_MAIN(TestTopology)
#include "tst_topology.moc"
