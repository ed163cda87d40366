// bench_loadtest: how close semscope's load tester on the `leased` kind gets to what the server
// can do with the very same Lua scripts. Run by hand (not a ctest test):
//
//   build/tests/bench/bench_loadtest [--duration 5s] [--requests 200000]
//
// One private redis-server on a free loopback port serves everything. First redis-benchmark sends
// the leased acquire script and the leased release script as EVALSHA (8 connections, unpipelined
// and with -P 16); a pair needs one of each, so the bound in pairs/s is 1 / (1/acquire + 1/release).
// It is an upper bound: the release run mostly finds its random holder gone (the shorter path).
// Then semscope's load tester runs three setups and the table prints each beside its bound.
#include "RedisServer.h"
#include "core/loadtest/LoadTestEngine.h"
#include "redis/LuaScript.h"
#include "redis/RedisSemaphoreStore.h"
#include "redis/kinds/LeasedKind.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QEventLoop>
#include <QProcess>
#include <QRegularExpression>
#include <QTextStream>
#include <optional>

using namespace semscope;

namespace {

QTextStream out(stdout);

redis::LuaScript leasedScript(const QString &name) {
    return redis::LuaScript(redis::LuaScript::fromResource(QStringLiteral("leased_common")).source() + '\n' +
                            redis::LuaScript::fromResource(name).source());
}

// Requests per second reported by `redis-benchmark -q`, or nullopt.
std::optional<double> redisBenchmark(const test::RedisServer &server, int connections, int pipeline,
                                     int requests, const QStringList &command) {
    QProcess p;
    QStringList args{QStringLiteral("-h"), server.host(),
                     QStringLiteral("-p"), QString::number(server.port()),
                     QStringLiteral("-c"), QString::number(connections),
                     QStringLiteral("-n"), QString::number(requests),
                     QStringLiteral("-P"), QString::number(pipeline),
                     QStringLiteral("-r"), QStringLiteral("1000000000"),
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

struct Bound {
    double acquire = 0;
    double release = 0;
    double pairs() const { return acquire > 0 && release > 0 ? 1.0 / (1.0 / acquire + 1.0 / release) : 0.0; }
};

std::optional<Bound> scriptBound(test::RedisServer &server, int pipeline, int requests) {
    const redis::LuaScript acquire = leasedScript(QStringLiteral("leased_acquire"));
    const redis::LuaScript release = leasedScript(QStringLiteral("leased_release"));
    for (const auto *s : {&acquire, &release}) {
        const redis::RedisReply r = server.command({"SCRIPT", "LOAD", s->source()});
        if (r.isError() || r.str != s->sha1()) {
            out << "SCRIPT LOAD failed: " << r.describe() << "\n";
            return std::nullopt;
        }
    }
    const QString name = QStringLiteral("bench-bound-P%1").arg(pipeline);
    redis::LeasedKind kind;
    QStringList keys;
    for (const QByteArray &k : kind.keysOf(name))
        keys << QString::fromUtf8(k);
    const QString channel = QString::fromUtf8(kind.releaseChannel(name));
    const QString holder = QStringLiteral("bench:__rand_int__");
    // Limit far above the number of holders, so every acquire is a grant as in the uncontended
    // setups; a 1 ms lease, so earlier grants are purged at once and the semaphore stays as small as
    // in a real run instead of piling up every random holder.
    QStringList acquireCmd{QStringLiteral("EVALSHA"), QString::fromLatin1(acquire.sha1()),
                           QString::number(keys.size())};
    acquireCmd << keys << holder << QStringLiteral("1") << QStringLiteral("1000000000")
               << QStringLiteral("bench") << QStringLiteral("0") << QStringLiteral("30000") << channel;
    QStringList releaseCmd{QStringLiteral("EVALSHA"), QString::fromLatin1(release.sha1()),
                           QString::number(keys.size())};
    releaseCmd << keys << holder << QString() << channel;

    Bound b;
    const auto a = redisBenchmark(server, 8, pipeline, requests, acquireCmd);
    const auto r = redisBenchmark(server, 8, pipeline, requests, releaseCmd);
    if (!a || !r)
        return std::nullopt;
    b.acquire = *a;
    b.release = *r;
    return b;
}

core::LoadTestReport runLoadTest(const test::RedisServer &server, core::LoadTestConfig c) {
    const redis::ConnectionSettings settings = server.settings();
    core::LoadTestEngine engine(c, [settings]() -> std::unique_ptr<core::SemaphoreStore> {
        return std::make_unique<redis::RedisSemaphoreStore>(settings);
    });
    QEventLoop loop;
    QObject::connect(&engine, &core::LoadTestEngine::finished, &loop, &QEventLoop::quit);
    engine.start();
    loop.exec();
    return engine.report();
}

QString fixed(double v, int decimals = 0) {
    return QString::number(v, 'f', decimals);
}

} // namespace

int main(int argc, char *argv[]) {
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("semscope load tester vs redis-benchmark on the leased scripts"));
    parser.addHelpOption();
    parser.addOption({QStringLiteral("duration"),
                      QStringLiteral("Length of each load-test run (default 5s)."), QStringLiteral("DUR"),
                      QStringLiteral("5s")});
    parser.addOption({QStringLiteral("requests"),
                      QStringLiteral("redis-benchmark requests per run (default 200000)."),
                      QStringLiteral("N"), QStringLiteral("200000")});
    parser.process(app);
    const auto durationNs = core::parseDurationNs(parser.value(QStringLiteral("duration")));
    const int requests = parser.value(QStringLiteral("requests")).toInt();
    if (!durationNs || *durationNs < 1'000'000 || requests < 1000) {
        out << "bad --duration or --requests\n";
        return 2;
    }

    test::RedisServer server;
    if (!server.start()) {
        out << "cannot start redis-server: " << server.errorString() << "\n";
        return 1;
    }
    out << "private redis-server on " << server.url() << "\n";
    out.flush();

    const auto p1 = scriptBound(server, 1, requests);
    const auto p16 = scriptBound(server, 16, requests);
    if (!p1 || !p16)
        return 1;
    out << "redis-benchmark, 8 connections, EVALSHA leased acquire / release:\n";
    out << "  -P 1 : acquire " << fixed(p1->acquire) << "/s, release " << fixed(p1->release) << "/s -> bound "
        << fixed(p1->pairs()) << " pairs/s\n";
    out << "  -P 16: acquire " << fixed(p16->acquire) << "/s, release " << fixed(p16->release)
        << "/s -> bound " << fixed(p16->pairs()) << " pairs/s\n";
    out.flush();

    struct Setup {
        QString name;
        core::LoadTestConfig config;
        double bound;
        QString goal;
    };
    auto base = [&](const QString &name) {
        core::LoadTestConfig c;
        c.ref.kind = core::Kind::Leased;
        c.ref.name = name;
        c.durationMs = *durationNs / 1'000'000;
        c.ttlMs = 30'000;
        c.hold = core::Distribution::fixed(0);
        c.think = core::Distribution::fixed(0);
        return c;
    };
    QList<Setup> setups;
    {
        core::LoadTestConfig c = base(QStringLiteral("bench-uncontended"));
        c.clients = 8;
        c.connections = 8;
        c.limit = 16;
        setups << Setup{QStringLiteral("uncontended: 8 clients, 8 connections, limit 16"), c, p1->pairs(),
                        QStringLiteral(">= 0.9 x bound -P 1")};
    }
    {
        core::LoadTestConfig c = base(QStringLiteral("bench-multiplexed"));
        c.clients = 256;
        c.connections = 4;
        c.limit = 1000;
        setups << Setup{QStringLiteral("multiplexed: 256 clients over 4 connections, limit 1000"), c,
                        p16->pairs(), QStringLiteral(">= 0.7 x bound -P 16")};
    }
    {
        core::LoadTestConfig c = base(QStringLiteral("bench-contended"));
        c.clients = 50;
        c.connections = 8;
        c.limit = 5;
        c.waitMs = 10'000;
        setups << Setup{
            QStringLiteral("contended: 50 clients, 8 connections, limit 5, waiting"), c, p1->pairs(),
            QStringLiteral(
                ">= 2 x 18k (node redis-semaphore), attempts/grant <= 1.5, p99 <= 10 ms, Jain >= 0.95")};
    }

    out << "\nsemscope load tester on `leased` (" << fixed(static_cast<double>(*durationNs) / 1e9, 1)
        << " s each):\n";
    for (const Setup &s : setups) {
        const core::LoadTestReport r = runLoadTest(server, s.config);
        out << "  " << s.name << "\n";
        if (!r.ok) {
            out << "    failed: " << r.error << " " << r.errorSamples.join(QStringLiteral("; ")) << "\n";
            continue;
        }
        out << "    " << fixed(r.pairsPerSecond) << " pairs/s  vs bound " << fixed(s.bound) << "  ratio "
            << fixed(s.bound > 0 ? r.pairsPerSecond / s.bound : 0.0, 2) << "  (goal " << s.goal << ")\n";
        out << "    acquire p50 " << fixed(r.acquireWait.percentileMs(50), 2) << " ms, p99 "
            << fixed(r.acquireWait.percentileMs(99), 2) << " ms, max " << fixed(r.acquireWait.maxMs(), 2)
            << " ms; attempts/grant " << fixed(r.attemptsPerGrant, 2) << "; Jain "
            << fixed(r.fairness.jainIndex, 3) << "; over-admissions " << r.safety.overAdmissions
            << "; errors " << r.errors << "\n";
        if (s.config.limit == 5)
            out << "    vs node redis-semaphore reference 18000 pairs/s: ratio "
                << fixed(r.pairsPerSecond / 18000.0, 2) << "\n";
        out.flush();
    }
    return 0;
}
