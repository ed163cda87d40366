// `semscope --demo --cluster`: the demo sandbox's private Redis Cluster (3 masters, 3 replicas) has
// semaphores on every master, the main window lists them with their masters, and every node's
// process is gone after the sandbox stops. Renders docs' cluster-demo screenshot.
#include "DemoFixture.h"
#include "TestMain.h"
#include "model/ConnectionSession.h"
#include "redis/RedisSemaphoreStore.h"

#include <QDir>
#include <QtTest>
#include <cerrno>
#include <csignal>

using namespace semscope;

class TestClusterDemo : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void clusterDemoServesEveryMasterAndStopsEveryNode() {
        test::DemoFixture demo;
        QVERIFY2(demo.start(false, true), "the cluster demo did not start");
        QVERIFY(demo.sandbox->isCluster());
        const QList<qint64> pids = demo.sandbox->redisPids();
        QCOMPARE(pids.size(), 6);
        for (qint64 pid : pids)
            QVERIFY2(pid > 0 && ::kill(pid_t(pid), 0) == 0, qPrintable(QString::number(pid)));

        // Discovery through the first node finds semaphores on all three masters, the ones placed
        // one per master among them.
        redis::ConnectionSettings settings;
        settings.host = QStringLiteral("127.0.0.1");
        settings.port = demo.sandbox->redisPort();
        redis::RedisSemaphoreStore store(settings);
        std::optional<core::DiscoverResult> result;
        store.discover(core::DiscoverRequest(), core::Cancellation(), {},
                       [&result](const core::DiscoverResult &r) { result = r; });
        QTRY_VERIFY_WITH_TIMEOUT(result.has_value(), 30000);
        QVERIFY2(result->ok, qPrintable(result->error));
        QSet<QString> masters;
        QHash<QString, QString> nodeOf;
        for (const core::DiscoveredSemaphore &d : result->semaphores) {
            masters.insert(d.node);
            nodeOf.insert(d.ref.name, d.node);
        }
        QCOMPARE(masters.size(), 3);
        const QList<core::SemaphoreRef> perMaster = demo.sandbox->clusterSemaphores();
        QCOMPARE(perMaster.size(), 3);
        QSet<QString> perMasterNodes;
        for (const core::SemaphoreRef &ref : perMaster) {
            QVERIFY2(nodeOf.contains(ref.name), qPrintable(ref.name));
            perMasterNodes.insert(nodeOf.value(ref.name));
        }
        QCOMPARE(perMasterNodes, masters);

        // The app on it: the connection lists them (the split-slot layouts with their warning), and
        // a semaphore's page shows; that view is the README's screenshot.
        demo.sandbox->setLoadRunning(true);
        demo.window->show();
        QVERIFY(QTest::qWaitForWindowExposed(demo.window.get()));
        model::ConnectionSession *session = demo.open(demo.sandbox->redisConnection());
        QVERIFY(session);
        QTRY_VERIFY_WITH_TIMEOUT(session->list.rowCount() >= perMaster.size() + 5, 30000);
        auto *page = demo.window->semaphorePage();
        QVERIFY(demo.window->openSemaphore(demo.sandbox->redisConnection().id, perMaster.at(1)));
        QTRY_VERIFY_WITH_TIMEOUT(page->history()->samples().size() >= 3, 30000);
        const QString dir = QStringLiteral(SEMSCOPE_SCREENSHOT_DIR);
        QVERIFY(QDir().mkpath(dir));
        QVERIFY(demo.window->grab().save(dir + QStringLiteral("/cluster-demo.png")));

        // Quit: every node stopped, by its PID.
        demo.window.reset();
        demo.sandbox->stop();
        for (qint64 pid : pids)
            QVERIFY2(::kill(pid_t(pid), 0) != 0 && errno == ESRCH, qPrintable(QString::number(pid)));
    }
};

SEMSCOPE_TEST_MAIN(TestClusterDemo)
#include "tst_clusterdemo.moc"
