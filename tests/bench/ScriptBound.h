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

// The pairs/s bound of `server` with redis-benchmark's 8 connections at pipeline depth `pipeline`.
// `place` turns each scratch semaphore's base name into the name used (a Cluster master must serve
// its slot); empty: the base names.
std::optional<Bound> scriptBound(test::RedisServer &server, int pipeline, int requests,
                                 const std::function<QString(const QString &)> &place = {});

} // namespace semscope::bench
