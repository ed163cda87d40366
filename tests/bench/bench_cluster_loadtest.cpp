// bench_cluster_loadtest: `semscope-cli loadtest --semaphores 30` on a 3-master Redis Cluster
// against what the masters can do with the same scripts, measured in the same run. Run by hand:
//
//   build/tests/bench/bench_cluster_loadtest [--duration 10s] [--requests 100000] [--clients 60]
//
// A private cluster of three masters (tests/support/RedisCluster, no replicas). redis-benchmark
// sends the `leased` acquire and release scripts as EVALSHA to semaphores that a master serves
// (8 connections, unpipelined; the method of bench_loadtest, shared in ScriptBound): a master's
// bound in pairs/s. It is measured twice:
// - alone, master after master: redis-benchmark and that one master have every core. Printed for
//   honesty, but their sum is not a bound on this machine: with 2 cores, three masters cannot each
//   run as fast as one does alone.
// - at the same time: three redis-benchmark processes started together, one per master, each
//   against semaphores of its own master; each master's bound is its pairs/s during that shared
//   run, and their sum is the reference. The load test drives the three masters at once on the
//   same cores, so this is the fair comparison ("the masters share the cores").
// Then the real command runs K=30 semaphores spread over the masters (10 each), with as many slots
// as clients per semaphore so that every acquire is granted, as in the bound. It prints semscope's
// pairs/s per master and in total beside the bounds, and the ratio to the concurrent sum (goal:
// ≥ 0.8×); the ratio to the sum of the alone-measured bounds is printed for scale.
#include "BenchVerdict.h"
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

    QList<test::RedisServer *> masters;
    QStringList addresses;
    for (int m = 0; m < 3; ++m) {
        masters << &cluster.node(m);
        addresses << cluster.node(m).host() + QLatin1Char(':') + QString::number(cluster.node(m).port());
    }
    // Scratch semaphores whose slots master m serves.
    auto place = [&map, &masters](int m, const QString &base) {
        const quint16 port = masters.at(m)->port();
        for (int i = 0;; ++i) {
            const QString name = base + QLatin1Char('-') + QString::number(i);
            if (map->shards().at(map->shardOfSlot(redis::topology::hashSlot(name.toUtf8()))).master.port ==
                port)
                return name;
        }
    };
    auto print = [&out](const QString &address, const bench::Bound &b) {
        out << "  " << address << ": acquire " << QString::number(b.acquire, 'f', 0) << "/s, release "
            << QString::number(b.release, 'f', 0) << "/s -> " << QString::number(b.pairs(), 'f', 0)
            << " pairs/s\n";
        out.flush();
    };

    // Each master's bound alone (redis-benchmark and that master have the cores to themselves).
    out << "bounds measured alone, master after master:\n";
    double aloneSum = 0;
    for (int m = 0; m < 3; ++m) {
        const auto bound = bench::scriptBound(*masters.at(m), 1, requests,
                                              [&place, m](const QString &base) { return place(m, base); });
        if (!bound) {
            out << "redis-benchmark bound failed on master " << m << "\n";
            return 1;
        }
        aloneSum += bound->pairs();
        print(addresses.at(m), *bound);
    }
    // The reference: the three bounds at the same time, one redis-benchmark per master.
    out << "bounds measured at the same time (one redis-benchmark per master, started together):\n";
    const auto concurrent = bench::concurrentScriptBounds(masters, 1, requests, place);
    if (!concurrent) {
        out << "concurrent redis-benchmark bounds failed\n";
        return 1;
    }
    QHash<QString, double> bounds;
    double boundSum = 0;
    for (int m = 0; m < 3; ++m) {
        bounds.insert(addresses.at(m), concurrent->at(m).pairs());
        boundSum += concurrent->at(m).pairs();
        print(addresses.at(m), concurrent->at(m));
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
            << " pairs/s (concurrent bound " << QString::number(bounds.value(node), 'f', 0) << ")\n";
    }
    const double total = report.value(QStringLiteral("pairs_per_s")).toDouble();
    out << "  total: " << QString::number(total, 'f', 0) << " pairs/s, over-admissions "
        << report.value(QStringLiteral("over_admissions")).toInteger() << ", errors "
        << report.value(QStringLiteral("errors")).toInteger() << "\n";
    out << "sum of the bounds measured alone: " << QString::number(aloneSum, 'f', 0) << " pairs/s (ratio "
        << QString::number(total / aloneSum, 'f', 2) << "x, for scale only)\n";
    out << "sum of the bounds measured at the same time: " << QString::number(boundSum, 'f', 0)
        << " pairs/s\n";
    bench::BenchVerdict verdict(out);
    verdict.figure(QStringLiteral("total pairs/s"), total, QStringLiteral("the concurrent sum of the bounds"),
                   boundSum);
    verdict.goal(QStringLiteral("total >= 0.8 x the concurrent sum of the bounds (the masters, the load "
                                "tester and redis-benchmark share the cores)"),
                 boundSum > 0 && total >= 0.8 * boundSum);
    verdict.goal(QStringLiteral("0 over-admissions, 0 errors"),
                 report.value(QStringLiteral("over_admissions")).toInteger() == 0 &&
                     report.value(QStringLiteral("errors")).toInteger() == 0);
    return verdict.finish();
}
