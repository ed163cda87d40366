#pragma once

// What the server itself can do with semscope's `leased` scripts, measured with redis-benchmark
// sending them as EVALSHA: the bound a load test is compared against (bench_loadtest for one server,
// bench_cluster_loadtest per Cluster master). See bench_loadtest.cpp's top comment for the method.

#include "RedisServer.h"
#include "redis/LuaScript.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>
#include <functional>
#include <optional>

namespace semscope::bench {

// The leased script `name` with the shared part in front, as the store sends it.
redis::LuaScript leasedScript(const QString &name);

// Requests per second reported by `redis-benchmark -q`, or nullopt.
std::optional<double> redisBenchmark(const test::RedisServer &server, int connections, int pipeline,
                                     int requests, const QStringList &command,
                                     qint64 keyspace = 1'000'000'000);

// One command in RESP, for `redis-cli --pipe`.
QByteArray resp(const QList<QByteArray> &args);
// Sends `commands` through `redis-cli --pipe` (fast bulk loading) and waits for all replies.
bool pipeIn(const test::RedisServer &server, const QByteArray &commands);

struct Bound {
    double acquire = 0;
    double release = 0; // a release that finds its holder (solved, see bench_loadtest.cpp)
    double releaseMixed = 0;
    double releaseMiss = 0;
    double hitShare = 0;
    double pairs() const { return acquire > 0 && release > 0 ? 1.0 / (1.0 / acquire + 1.0 / release) : 0.0; }
};

// One redis-benchmark run per entry, all started together; each one's requests per second, or
// nullopt when any failed.
struct BenchmarkRun {
    const test::RedisServer *server = nullptr;
    QStringList command;
    qint64 keyspace = 1'000'000'000;
};
std::optional<QList<double>> redisBenchmarks(const QList<BenchmarkRun> &runs, int connections, int pipeline,
                                             int requests);

// The pairs/s bound of `server` with redis-benchmark's 8 connections at pipeline depth `pipeline`.
// `place` turns each scratch semaphore's base name into the name used (a Cluster master must serve
// its slot); empty: the base names.
std::optional<Bound> scriptBound(test::RedisServer &server, int pipeline, int requests,
                                 const std::function<QString(const QString &)> &place = {});

// The bounds of several servers measured AT THE SAME TIME: each timed step (acquire, release with
// holders, release without) runs as one redis-benchmark process per server, all started together,
// so the servers share the machine's cores as they do under a load test that drives them all. Each
// server's bound is what it reached during those shared runs. A process that ends first leaves the
// others the cores for their last moments, so the sum is slightly generous, never stingy.
// `place(i, base)` names the scratch semaphores of servers[i].
std::optional<QList<Bound>> concurrentScriptBounds(const QList<test::RedisServer *> &servers, int pipeline,
                                                   int requests,
                                                   const std::function<QString(int, const QString &)> &place);

} // namespace semscope::bench
