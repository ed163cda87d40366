// bench_cluster_loadtest: `semscope-cli loadtest --semaphores 30` on a 3-master Redis Cluster
// against what the masters can do with the same scripts, measured in the same run. Run by hand:
//
//   build/tests/bench/bench_cluster_loadtest [--duration 10s] [--requests 100000] [--clients 60]
//
// A private cluster of three masters (tests/support/RedisCluster, no replicas). First, master by
// master, redis-benchmark sends the `leased` acquire and release scripts as EVALSHA to semaphores
// that master serves (8 connections, unpipelined; the method of bench_loadtest, shared in
// ScriptBound): each master's bound in pairs/s, and their sum. Then the real command runs K=30
// semaphores spread over the masters (10 each), with as many slots as clients per semaphore so that
// every acquire is granted, as in the bound. It prints semscope's pairs/s per master and in total
// beside the bounds and the ratio (goal: ≥ 0.8× the sum). The bounds are measured one master at a
// time while the load test drives all three at once: on a machine with fewer cores than masters +
// load tester, they share the cores, which the sum of separately measured bounds does not.
#include "RedisCluster.h"
#include "ScriptBound.h"
#include "redis/topology/ClusterMap.h"
#include "redis/topology/HashSlot.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTextStream>
#include <QThread>

using namespace semscope;

int main(int argc, char *argv[]) {
    QCoreApplication app(argc, argv);
    QTextStream out(stdout);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("semscope loadtest --semaphores 30 vs redis-benchmark bounds per Cluster master"));
    parser.addHelpOption();
    parser.addOption({QStringLiteral("duration"), QStringLiteral("Load-test length (default 10s)."),
                      QStringLiteral("DUR"), QStringLiteral("10s")});
    parser.addOption({QStringLiteral("requests"),
                      QStringLiteral("redis-benchmark requests per master and script (default 100000)."),
                      QStringLiteral("N"), QStringLiteral("100000")});
    parser.addOption({QStringLiteral("clients"), QStringLiteral("Load-test clients (default 60)."),
                      QStringLiteral("N"), QStringLiteral("60")});
    parser.addOption({QStringLiteral("semaphores"), QStringLiteral("K (default 30)."), QStringLiteral("K"),
                      QStringLiteral("30")});
    parser.process(app);
    const int requests = std::max(1000, parser.value(QStringLiteral("requests")).toInt());
    const int semaphores = std::max(3, parser.value(QStringLiteral("semaphores")).toInt());
    const int clients = std::max(semaphores, parser.value(QStringLiteral("clients")).toInt());
    const QString cli = qEnvironmentVariableIsSet("SEMSCOPE_CLI") ? qEnvironmentVariable("SEMSCOPE_CLI")
                                                                  : QStringLiteral(SEMSCOPE_CLI_PATH);

    test::RedisCluster cluster;
    test::RedisCluster::Options options;
    options.replicasPerMaster = 0;
    if (!cluster.start(options)) {
        out << "cannot start the cluster: " << cluster.errorString() << "\n";
        return 1;
    }
    QString error;
    const auto map = cluster.slotMap(&error);
    if (!map) {
        out << "cannot read the slot map: " << error << "\n";
        return 1;
    }

    // The bound, master by master, on scratch semaphores whose slots that master serves.
    QHash<QString, double> bounds;
    double boundSum = 0;
    for (int m = 0; m < 3; ++m) {
        test::RedisServer &node = cluster.node(m);
        const quint16 port = node.port();
        auto place = [&map, port](const QString &base) {
            for (int i = 0;; ++i) {
                const QString name = base + QLatin1Char('-') + QString::number(i);
                if (map->shards()
                        .at(map->shardOfSlot(redis::topology::hashSlot(name.toUtf8())))
                        .master.port == port)
                    return name;
            }
        };
        const auto bound = bench::scriptBound(node, 1, requests, place);
        if (!bound) {
            out << "redis-benchmark bound failed on master " << m << "\n";
            return 1;
        }
        const QString address = node.host() + QLatin1Char(':') + QString::number(port);
        bounds.insert(address, bound->pairs());
        boundSum += bound->pairs();
        out << "bound " << address << ": acquire " << QString::number(bound->acquire, 'f', 0)
            << "/s, release " << QString::number(bound->release, 'f', 0) << "/s -> "
            << QString::number(bound->pairs(), 'f', 0) << " pairs/s\n";
        out.flush();
    }

    const int perSemaphore = (clients + semaphores - 1) / semaphores;
    QProcess run;
    run.start(cli,
              {QStringLiteral("--redis"), cluster.url(), QStringLiteral("--json"), QStringLiteral("loadtest"),
               QStringLiteral("bench"), QStringLiteral("--kind"), QStringLiteral("leased"),
               QStringLiteral("--semaphores"), QString::number(semaphores), QStringLiteral("--clients"),
               QString::number(clients), QStringLiteral("--limit"), QString::number(perSemaphore),
               QStringLiteral("--duration"), parser.value(QStringLiteral("duration"))});
    if (!run.waitForFinished(600'000)) {
        out << "the load test did not end: " << run.errorString() << "\n";
        return 1;
    }
    const QJsonObject report = QJsonDocument::fromJson(run.readAllStandardOutput()).object();
    if (report.isEmpty()) {
        out << "no report from " << cli << ": " << run.readAllStandardError() << "\n";
        return 1;
    }
    out << "\nsemscope-cli loadtest --semaphores " << semaphores << " (" << clients << " clients, limit "
        << perSemaphore << " each, " << parser.value(QStringLiteral("duration")) << "):\n";
    for (const QJsonValue &v : report.value(QStringLiteral("nodes")).toArray()) {
        const QJsonObject n = v.toObject();
        const QString node = n.value(QStringLiteral("node")).toString();
        out << "  " << node << ": " << n.value(QStringLiteral("semaphores")).toInt() << " semaphores, "
            << QString::number(n.value(QStringLiteral("pairs_per_s")).toDouble(), 'f', 0)
            << " pairs/s (bound " << QString::number(bounds.value(node), 'f', 0) << ")\n";
    }
    const double total = report.value(QStringLiteral("pairs_per_s")).toDouble();
    out << "  total: " << QString::number(total, 'f', 0) << " pairs/s, over-admissions "
        << report.value(QStringLiteral("over_admissions")).toInteger() << ", errors "
        << report.value(QStringLiteral("errors")).toInteger() << "\n";
    out << "sum of the bounds: " << QString::number(boundSum, 'f', 0) << " pairs/s\n";
    out << "ratio: " << QString::number(total / boundSum, 'f', 2) << "x (goal >= 0.8x); the three masters, "
        << "the load tester and redis-benchmark share " << QThread::idealThreadCount()
        << " cores here, and each bound was measured alone\n";
    return 0;
}
