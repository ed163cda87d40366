#include "ScriptBound.h"

#include "redis/kinds/LeasedKind.h"

#include <QProcess>
#include <QRegularExpression>
#include <QTextStream>
#include <memory>
#include <vector>

namespace semscope::bench {

namespace {
QTextStream out(stdout);
} // namespace

redis::LuaScript leasedScript(const QString &name) {
    return redis::LuaScript(redis::LuaScript::fromResource(QStringLiteral("leased_common")).source() + '\n' +
                            redis::LuaScript::fromResource(name).source());
}

namespace {

QProcess *startRedisBenchmark(const test::RedisServer &server, int connections, int pipeline, int requests,
                              const QStringList &command, qint64 keyspace) {
    auto *p = new QProcess;
    QStringList args{QStringLiteral("-h"), server.host(),
                     QStringLiteral("-p"), QString::number(server.port()),
                     QStringLiteral("-c"), QString::number(connections),
                     QStringLiteral("-n"), QString::number(requests),
                     QStringLiteral("-P"), QString::number(pipeline),
                     QStringLiteral("-r"), QString::number(keyspace),
                     QStringLiteral("-q")};
    args += command;
    p->start(QStringLiteral("redis-benchmark"), args);
    return p;
}

// Waits for `p` and reads the last "requests per second" it printed.
std::optional<double> finishRedisBenchmark(QProcess &p) {
    if (!p.waitForFinished(300'000) || p.exitCode() != 0) {
        out << "redis-benchmark failed: " << p.readAllStandardError() << "\n";
        return std::nullopt;
    }
    static const QRegularExpression rps(QStringLiteral("([0-9.]+) requests per second"));
    const QString text = QString::fromUtf8(p.readAllStandardOutput());
    const auto matches = rps.globalMatch(text);
    std::optional<double> last;
    for (auto it = matches; it.hasNext();)
        last = it.next().captured(1).toDouble();
    if (!last)
        out << "cannot read redis-benchmark output: " << text << "\n";
    return last;
}

} // namespace

std::optional<double> redisBenchmark(const test::RedisServer &server, int connections, int pipeline,
                                     int requests, const QStringList &command, qint64 keyspace) {
    const auto r = redisBenchmarks({{&server, command, keyspace}}, connections, pipeline, requests);
    return r ? std::optional<double>(r->first()) : std::nullopt;
}

std::optional<QList<double>> redisBenchmarks(const QList<BenchmarkRun> &runs, int connections, int pipeline,
                                             int requests) {
    std::vector<std::unique_ptr<QProcess>> processes;
    for (const BenchmarkRun &r : runs)
        processes.emplace_back(
            startRedisBenchmark(*r.server, connections, pipeline, requests, r.command, r.keyspace));
    QList<double> rates;
    bool ok = true;
    for (auto &p : processes) {
        const auto rate = finishRedisBenchmark(*p);
        ok = ok && rate.has_value();
        rates << rate.value_or(0);
    }
    if (!ok)
        return std::nullopt;
    return rates;
}

QByteArray resp(const QList<QByteArray> &args) {
    QByteArray out = '*' + QByteArray::number(args.size()) + "\r\n";
    for (const QByteArray &a : args)
        out += '$' + QByteArray::number(a.size()) + "\r\n" + a + "\r\n";
    return out;
}

// Sends `commands` through `redis-cli --pipe` (fast bulk loading) and waits for all replies.
bool pipeIn(const test::RedisServer &server, const QByteArray &commands) {
    QProcess p;
    p.start(QStringLiteral("redis-cli"), {QStringLiteral("-h"), server.host(), QStringLiteral("-p"),
                                          QString::number(server.port()), QStringLiteral("--pipe")});
    if (!p.waitForStarted(30'000))
        return false;
    p.write(commands);
    p.closeWriteChannel();
    if (!p.waitForFinished(600'000) || p.exitCode() != 0) {
        out << "redis-cli --pipe failed: " << p.readAllStandardOutput() << p.readAllStandardError() << "\n";
        return false;
    }
    return true;
}

std::optional<Bound> scriptBound(test::RedisServer &server, int pipeline, int requests,
                                 const std::function<QString(const QString &)> &place) {
    const auto bounds =
        concurrentScriptBounds({&server}, pipeline, requests,
                               [&place](int, const QString &base) { return place ? place(base) : base; });
    return bounds ? std::optional<Bound>(bounds->first()) : std::nullopt;
}

std::optional<QList<Bound>>
concurrentScriptBounds(const QList<test::RedisServer *> &servers, int pipeline, int requests,
                       const std::function<QString(int, const QString &)> &place) {
    const redis::LuaScript acquire = leasedScript(QStringLiteral("leased_acquire"));
    const redis::LuaScript release = leasedScript(QStringLiteral("leased_release"));
    for (test::RedisServer *server : servers) {
        for (const auto *s : {&acquire, &release}) {
            const redis::RedisReply r = server->command({"SCRIPT", "LOAD", s->source()});
            if (r.isError() || r.str != s->sha1()) {
                out << "SCRIPT LOAD failed: " << r.describe() << "\n";
                return std::nullopt;
            }
        }
    }
    redis::LeasedKind kind;
    auto keysOf = [&kind](const QString &name) {
        QList<QByteArray> keys = kind.keysOf(name);
        keys.prepend(QByteArray::number(keys.size()));
        return keys;
    };
    auto acquireArgs = [&](const QString &name, const QByteArray &holder) {
        QList<QByteArray> cmd{"EVALSHA", acquire.sha1()};
        // holder, ttl, limit to create with, client info, wait, waiter lease, tag, listed holders, ticket
        cmd << keysOf(name) << holder << "600000"
            << "1000000000"
            << "bench"
            << "0"
            << "30000"
            << ""
            << "0"
            << "-1";
        return cmd;
    };
    auto releaseArgs = [&](const QString &name) {
        QList<QByteArray> cmd{"EVALSHA", release.sha1()};
        cmd << keysOf(name) << "bench:__rand_int__"
            << ""
            << ""; // token (any), tag (none)
        return cmd;
    };
    auto strings = [](const QList<QByteArray> &cmd) {
        QStringList l;
        for (const QByteArray &a : cmd)
            l << QString::fromUtf8(a);
        return l;
    };
    auto holders = [&](test::RedisServer *server, const QString &name) {
        return server->command({"ZCARD", kind.keysOf(name).at(0)}).toInteger().value_or(-1);
    };

    const QString tag = QStringLiteral("-P%1").arg(pipeline);
    QStringList acquireNames, mixedNames, emptyNames;
    QList<BenchmarkRun> acquires, mixedReleases, missReleases;
    for (int i = 0; i < servers.size(); ++i) {
        acquireNames << place(i, QStringLiteral("bench-acquire") + tag);
        mixedNames << place(i, QStringLiteral("bench-release") + tag);
        emptyNames << place(i, QStringLiteral("bench-empty") + tag);
        acquires << BenchmarkRun{servers.at(i),
                                 strings(acquireArgs(acquireNames.at(i), "bench:__rand_int__"))};
        mixedReleases << BenchmarkRun{servers.at(i), strings(releaseArgs(mixedNames.at(i))), requests};
        missReleases << BenchmarkRun{servers.at(i), strings(releaseArgs(emptyNames.at(i)))};
    }
    const auto a = redisBenchmarks(acquires, 8, pipeline, requests);
    if (!a)
        return std::nullopt;
    // The holders the release runs will draw, filled server by server (not timed).
    for (int i = 0; i < servers.size(); ++i) {
        QByteArray fill;
        for (int r = 0; r < requests; ++r)
            fill +=
                resp(acquireArgs(mixedNames.at(i), "bench:" + QByteArray::number(r).rightJustified(12, '0')));
        if (!pipeIn(*servers.at(i), fill) || holders(servers.at(i), mixedNames.at(i)) != requests) {
            out << "could not prefill " << requests << " holders\n";
            return std::nullopt;
        }
    }
    const auto mixed = redisBenchmarks(mixedReleases, 8, pipeline, requests);
    const auto miss = redisBenchmarks(missReleases, 8, pipeline, requests);
    if (!mixed || !miss)
        return std::nullopt;
    QList<Bound> bounds;
    for (int i = 0; i < servers.size(); ++i) {
        Bound b;
        b.hitShare = static_cast<double>(requests - holders(servers.at(i), mixedNames.at(i))) / requests;
        const double tHit =
            (1.0 / mixed->at(i) - (1.0 - b.hitShare) / miss->at(i)) / std::max(b.hitShare, 0.01);
        b.acquire = a->at(i);
        b.release = tHit > 0 ? 1.0 / tHit : mixed->at(i);
        b.releaseMixed = mixed->at(i);
        b.releaseMiss = miss->at(i);
        bounds << b;
        for (const QString &name : {acquireNames.at(i), mixedNames.at(i)})
            servers.at(i)->command({"DEL", kind.keysOf(name).at(0), kind.keysOf(name).at(2)});
    }
    return bounds;
}

} // namespace semscope::bench
