#include "ScriptBound.h"

#include "redis/kinds/LeasedKind.h"

#include <QProcess>
#include <QRegularExpression>
#include <QTextStream>

namespace semscope::bench {

namespace {
QTextStream out(stdout);
} // namespace

redis::LuaScript leasedScript(const QString &name) {
    return redis::LuaScript(redis::LuaScript::fromResource(QStringLiteral("leased_common")).source() + '\n' +
                            redis::LuaScript::fromResource(name).source());
}

// Requests per second reported by `redis-benchmark -q`, or nullopt.
std::optional<double> redisBenchmark(const test::RedisServer &server, int connections, int pipeline,
                                     int requests, const QStringList &command, qint64 keyspace) {
    QProcess p;
    QStringList args{QStringLiteral("-h"), server.host(),
                     QStringLiteral("-p"), QString::number(server.port()),
                     QStringLiteral("-c"), QString::number(connections),
                     QStringLiteral("-n"), QString::number(requests),
                     QStringLiteral("-P"), QString::number(pipeline),
                     QStringLiteral("-r"), QString::number(keyspace),
                     QStringLiteral("-q")};
    args += command;
    p.start(QStringLiteral("redis-benchmark"), args);
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
    auto named = [&place](const QString &base) { return place ? place(base) : base; };
    const redis::LuaScript acquire = leasedScript(QStringLiteral("leased_acquire"));
    const redis::LuaScript release = leasedScript(QStringLiteral("leased_release"));
    for (const auto *s : {&acquire, &release}) {
        const redis::RedisReply r = server.command({"SCRIPT", "LOAD", s->source()});
        if (r.isError() || r.str != s->sha1()) {
            out << "SCRIPT LOAD failed: " << r.describe() << "\n";
            return std::nullopt;
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
    auto holders = [&](const QString &name) {
        return server.command({"ZCARD", kind.keysOf(name).at(0)}).toInteger().value_or(-1);
    };

    Bound b;
    const QString tag = QStringLiteral("-P%1").arg(pipeline);
    const auto a = redisBenchmark(
        server, 8, pipeline, requests,
        strings(acquireArgs(named(QStringLiteral("bench-acquire") + tag), "bench:__rand_int__")));
    if (!a)
        return std::nullopt;

    const QString mixedName = named(QStringLiteral("bench-release") + tag);
    QByteArray fill;
    for (int i = 0; i < requests; ++i)
        fill += resp(acquireArgs(mixedName, "bench:" + QByteArray::number(i).rightJustified(12, '0')));
    if (!pipeIn(server, fill) || holders(mixedName) != requests) {
        out << "could not prefill " << requests << " holders\n";
        return std::nullopt;
    }
    const auto mixed =
        redisBenchmark(server, 8, pipeline, requests, strings(releaseArgs(mixedName)), requests);
    const auto miss = redisBenchmark(server, 8, pipeline, requests,
                                     strings(releaseArgs(named(QStringLiteral("bench-empty") + tag))));
    if (!mixed || !miss)
        return std::nullopt;
    b.hitShare = static_cast<double>(requests - holders(mixedName)) / requests;
    const double tHit = (1.0 / *mixed - (1.0 - b.hitShare) / *miss) / std::max(b.hitShare, 0.01);
    b.acquire = *a;
    b.release = tHit > 0 ? 1.0 / tHit : *mixed;
    b.releaseMixed = *mixed;
    b.releaseMiss = *miss;
    for (const QString &name : {named(QStringLiteral("bench-acquire") + tag), mixedName})
        server.command({"DEL", kind.keysOf(name).at(0), kind.keysOf(name).at(2)});
    return b;
}

} // namespace semscope::bench
