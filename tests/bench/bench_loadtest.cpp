// bench_loadtest: how close semscope's load tester on the `leased` kind gets to what the server
// can do with the very same Lua scripts. Run by hand (not a ctest test):
//
//   build/tests/bench/bench_loadtest [--duration 5s] [--requests 200000]
//
//   build/tests/bench/bench_loadtest --only contended     (the bound, then one setup)
//   build/tests/bench/bench_loadtest --only contended --no-bound --contended-connections 2 --commands
//
// One private redis-server on a free loopback port serves everything. First redis-benchmark sends
// the leased acquire script and the leased release script as EVALSHA (8 connections, unpipelined
// and with -P 16); a pair needs one of each, so the bound in pairs/s is 1 / (1/acquire + 1/release).
// Both halves take the path a real pair takes, so the bound is what the scripts cost today:
// - acquire: random holder ids, a limit no run reaches and a long lease, so every call is a grant
//   (no purge of expired leases: a real pair releases its slot, it does not let it expire);
// - release: a release that finds its holder gone is a single read, far cheaper than a real
//   release, so random ids alone would inflate the bound. The ids redis-benchmark will draw
//   (bench:000000000000 .. bench:<N-1>) are acquired first; its N draws then hit a held id a
//   fraction h of the time (about 63%, counted from the holders left), and a second run on an
//   empty semaphore times the miss path alone. The time of a real release is solved from
//   t_mixed = h * t_hit + (1 - h) * t_miss.
// Neither run has waiters, like the uncontended and multiplexed setups. In the contended setup a
// release also grants the freed slot to the head of the queue (the grant's work moves from the
// acquire to the release, and the acquire only joins the queue), so the script bound is no
// reference for it: its goals are the node redis-semaphore reference of the same run, attempts per
// grant, p99 wait and fairness.
// Then, when node and the packages of tests/bench/node-reference are installed (npm ci --prefix
// tests/bench/node-reference), the node redis-semaphore library runs the contended load on the same
// server with its defaults; the CPU its process and the redis-server spent per pair during that run
// print beside semscope's, since on a machine of few cores the work the one server thread does per
// pair caps the contended rate. Then semscope's load tester runs its setups; each figure prints beside its
// reference of this run (the script bound, or node for the contended setups) with the ratio, the
// CPU each side spent per pair (robust against other load on a shared machine), the machine's load,
// PASS or FAIL per goal, and last the verdict (BenchVerdict.h): the exit code is 1 when a goal was
// missed or could not be judged (node not installed). The contended setup takes the CLI's defaults:
// one connection and the acquire semscope recommends for `leased`, waiting in its queue; a second one
// retries after a pause (--retry) for comparison.
#include "BenchVerdict.h"
#include "RedisServer.h"
#include "ScriptBound.h"
#include "core/loadtest/LoadTestEngine.h"
#include "redis/LuaScript.h"
#include "redis/RedisSemaphoreStore.h"
#include "redis/kinds/LeasedKind.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTextStream>
#include <optional>
#include <sys/resource.h>

using namespace semscope;
using semscope::bench::Bound;
using semscope::bench::scriptBound;

namespace {

QTextStream out(stdout);

core::LoadTestReport runLoadTest(const test::RedisServer &server, core::LoadTestConfig c) {
    const redis::ConnectionSettings settings = server.settings();
    // The stores the CLI makes (LoadtestCommand): one worker's connections share their waits.
    core::LoadTestEngine engine(c, [settings]() -> std::unique_ptr<core::SemaphoreStore> {
        return redis::RedisSemaphoreStore::sharingWaitsInThread(settings);
    });
    QEventLoop loop;
    QObject::connect(&engine, &core::LoadTestEngine::finished, &loop, &QEventLoop::quit);
    engine.start();
    loop.exec();
    return engine.report();
}

// CPU seconds this process (every thread) has used so far.
double processCpuSeconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

// CPU seconds the redis-server has used so far (INFO cpu), or -1.
double serverCpuSeconds(test::RedisServer &server) {
    const QByteArray info = server.command({"INFO", "cpu"}).str;
    double total = 0;
    int found = 0;
    for (const QByteArray &line : info.split('\n')) {
        for (const char *field : {"used_cpu_sys:", "used_cpu_user:"}) {
            if (line.startsWith(field)) {
                total += line.mid(static_cast<qsizetype>(qstrlen(field))).trimmed().toDouble();
                ++found;
            }
        }
    }
    return found == 2 ? total : -1.0;
}

// A numeric field of INFO stats (total_reads_processed, ...), or -1.
qint64 infoStat(test::RedisServer &server, const QByteArray &field) {
    const QByteArray info = server.command({"INFO", "stats"}).str;
    for (const QByteArray &line : info.split('\n')) {
        if (line.startsWith(QByteArray(field + ':')))
            return line.mid(field.size() + 1).trimmed().toLongLong();
    }
    return -1;
}

// INFO commandstats since the last CONFIG RESETSTAT: command -> {calls, usec}.
QHash<QByteArray, std::pair<qint64, qint64>> commandStats(test::RedisServer &server) {
    QHash<QByteArray, std::pair<qint64, qint64>> stats;
    const QByteArray info = server.command({"INFO", "commandstats"}).str;
    for (const QByteArray &line : info.split('\n')) {
        if (!line.startsWith("cmdstat_"))
            continue;
        const qsizetype colon = line.indexOf(':');
        const QByteArray name = line.mid(8, colon - 8);
        qint64 calls = 0;
        qint64 usec = 0;
        for (const QByteArray &kv : line.mid(colon + 1).trimmed().split(',')) {
            if (kv.startsWith("calls="))
                calls = kv.mid(6).toLongLong();
            else if (kv.startsWith("usec="))
                usec = kv.mid(5).toLongLong();
        }
        stats.insert(name, {calls, usec});
    }
    return stats;
}

QString fixed(double v, int decimals = 0) {
    return QString::number(v, 'f', decimals);
}

// CPU seconds of this process's children that have ended and been waited for (the node run).
double childrenCpuSeconds() {
    rusage u{};
    getrusage(RUSAGE_CHILDREN, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

// What tests/bench/node-reference/contended.js measured, or why it did not run.
struct NodeReference {
    QJsonObject result;
    QString skipped;
    // CPU per pair of the node process and of the redis-server during its run, in microseconds
    // (-1: unknown): the work each side did for a pair, beside semscope's.
    double clientCpuUs = -1;
    double serverCpuUs = -1;
};

NodeReference runNodeReference(test::RedisServer &server, const QString &dir, int clients, int limit,
                               qint64 durationMs) {
    NodeReference ref;
    if (!QFileInfo::exists(dir + QStringLiteral("/node_modules/redis-semaphore/package.json"))) {
        ref.skipped = QStringLiteral("not installed (npm ci --prefix %1)").arg(QDir(dir).path());
        return ref;
    }
    const double children0 = childrenCpuSeconds();
    const double server0 = serverCpuSeconds(server);
    QProcess node;
    node.start(QStringLiteral("node"),
               {dir + QStringLiteral("/contended.js"), QStringLiteral("--host"), server.host(),
                QStringLiteral("--port"), QString::number(server.port()), QStringLiteral("--clients"),
                QString::number(clients), QStringLiteral("--limit"), QString::number(limit),
                QStringLiteral("--duration-ms"), QString::number(durationMs)});
    if (!node.waitForStarted(30'000)) {
        ref.skipped = QStringLiteral("cannot start node: ") + node.errorString();
        return ref;
    }
    if (!node.waitForFinished(durationMs + 60'000) || node.exitCode() != 0) {
        ref.skipped =
            QStringLiteral("node failed: ") + QString::fromUtf8(node.readAllStandardError()).trimmed();
        return ref;
    }
    const QJsonDocument doc = QJsonDocument::fromJson(node.readAllStandardOutput().trimmed());
    if (!doc.isObject() || !doc.object().contains(QStringLiteral("pairs_per_s"))) {
        ref.skipped = QStringLiteral("cannot read what node printed");
        return ref;
    }
    ref.result = doc.object();
    const double pairs = ref.result.value(QStringLiteral("pairs")).toDouble();
    if (pairs > 0) {
        ref.clientCpuUs = (childrenCpuSeconds() - children0) * 1e6 / pairs;
        if (server0 >= 0)
            ref.serverCpuUs = (serverCpuSeconds(server) - server0) * 1e6 / pairs;
    }
    return ref;
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
    parser.addOption(
        {QStringLiteral("only"),
         QStringLiteral("Run only the setups whose names start with one of these (comma-separated: "
                        "uncontended, multiplexed, contended); the bound is always measured."),
         QStringLiteral("NAMES")});
    parser.addOption({QStringLiteral("threads"),
                      QStringLiteral("Load-tester worker threads (default: the engine's choice)."),
                      QStringLiteral("N"), QStringLiteral("0")});
    parser.addOption({QStringLiteral("contended-connections"),
                      QStringLiteral("Connections of the contended setups (default: the CLI's default)."),
                      QStringLiteral("N"), QString::number(core::LoadTestConfig{}.connections)});
    parser.addOption({QStringLiteral("node-reference"),
                      QStringLiteral("Where the node redis-semaphore reference is installed (default: the "
                                     "source tree's tests/bench/node-reference)."),
                      QStringLiteral("DIR"), QStringLiteral(SEMSCOPE_NODE_REFERENCE_DIR)});
    parser.addOption({QStringLiteral("no-node"), QStringLiteral("Skip the node redis-semaphore reference.")});
    parser.addOption({QStringLiteral("commands"),
                      QStringLiteral("Also print each command's calls per pair and usec per call (INFO "
                                     "commandstats), to see where the server's time goes.")});
    parser.addOption({QStringLiteral("no-bound"),
                      QStringLiteral("Skip redis-benchmark (for profiling one setup; ratios print as 0).")});
    parser.process(app);
    const bool noBound = parser.isSet(QStringLiteral("no-bound"));
    const bool perCommand = parser.isSet(QStringLiteral("commands"));
    const QStringList only = parser.value(QStringLiteral("only")).split(QLatin1Char(','), Qt::SkipEmptyParts);
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

    const auto p1 = noBound ? std::optional<Bound>(Bound{}) : scriptBound(server, 1, requests);
    const auto p16 = noBound ? std::optional<Bound>(Bound{}) : scriptBound(server, 16, requests);
    if (!p1 || !p16)
        return 1;
    out << "redis-benchmark, 8 connections, EVALSHA leased acquire / release:\n";
    for (const auto &[label, b] : {std::pair{"-P 1 ", *p1}, std::pair{"-P 16", *p16}})
        out << "  " << label << ": acquire " << fixed(b.acquire) << "/s, release " << fixed(b.release)
            << "/s -> bound " << fixed(b.pairs()) << " pairs/s   (release run: " << fixed(b.releaseMixed)
            << "/s with " << fixed(100 * b.hitShare) << "% hits, " << fixed(b.releaseMiss)
            << "/s all misses)\n";
    out.flush();

    // The figures in the order the node reference needs: it runs first (when a contended setup
    // runs), so that every contended figure prints beside it, measured in this run.
    auto selected = [&only](const QString &name) {
        return only.isEmpty() || std::any_of(only.begin(), only.end(),
                                             [&name](const QString &o) { return name.startsWith(o); });
    };
    const int contendedClients = 50;
    const int contendedLimit = 5;
    std::optional<NodeReference> node;
    if (selected(QStringLiteral("contended")) && !parser.isSet(QStringLiteral("no-node"))) {
        node = runNodeReference(server, parser.value(QStringLiteral("node-reference")), contendedClients,
                                contendedLimit, *durationNs / 1'000'000);
        out << "\nnode redis-semaphore (" << contendedClients << " clients on one ioredis connection, limit "
            << contendedLimit << ", its default options): ";
        if (!node->skipped.isEmpty())
            out << "skipped: " << node->skipped << "\n";
        else
            out << fixed(node->result.value(QStringLiteral("pairs_per_s")).toDouble())
                << " pairs/s, acquire wait p50 "
                << fixed(node->result.value(QStringLiteral("acquire_p50_ms")).toDouble(), 2) << " ms, p99 "
                << fixed(node->result.value(QStringLiteral("acquire_p99_ms")).toDouble(), 2) << " ms, Jain "
                << fixed(node->result.value(QStringLiteral("jain_fairness")).toDouble(), 3)
                << "; CPU per pair: node " << fixed(node->clientCpuUs, 1) << " us, redis-server "
                << fixed(node->serverCpuUs, 1) << " us\n";
        out.flush();
    }
    const double nodePairs =
        node && node->skipped.isEmpty() ? node->result.value(QStringLiteral("pairs_per_s")).toDouble() : 0.0;
    const QString nodeName = QStringLiteral("node redis-semaphore");

    bench::BenchVerdict verdict(out);
    struct Setup {
        QString name;
        core::LoadTestConfig config;
        double reference;
        QString referenceName;
        std::function<void(const core::LoadTestReport &)> goals;
    };
    auto base = [&](const QString &name) {
        core::LoadTestConfig c;
        c.ref.kind = core::Kind::Leased;
        c.ref.name = name;
        c.durationMs = *durationNs / 1'000'000;
        c.ttlMs = 30'000;
        c.hold = core::Distribution::fixed(0);
        c.think = core::Distribution::fixed(0);
        c.threads = parser.value(QStringLiteral("threads")).toInt();
        return c;
    };
    auto safe = [&verdict](const core::LoadTestReport &r) {
        verdict.goal(QStringLiteral("0 over-admissions, 0 token violations, 0 errors"),
                     r.safety.overAdmissions == 0 && r.safety.tokenViolations == 0 && r.errors == 0);
    };
    auto ratioGoal = [&verdict, safe](double bound, double factor, const QString &boundName) {
        return [&verdict, safe, bound, factor, boundName](const core::LoadTestReport &r) {
            verdict.goal(QStringLiteral("pairs/s >= %1 x %2").arg(fixed(factor, 1), boundName),
                         bound > 0 && r.pairsPerSecond >= factor * bound);
            safe(r);
        };
    };
    QList<Setup> setups;
    {
        core::LoadTestConfig c = base(QStringLiteral("bench-uncontended"));
        c.clients = 8;
        c.connections = 8;
        c.limit = 16;
        setups << Setup{QStringLiteral("uncontended: 8 clients, 8 connections, limit 16"), c, p1->pairs(),
                        QStringLiteral("script bound -P 1"),
                        ratioGoal(p1->pairs(), 0.8, QStringLiteral("the script bound (-P 1)"))};
    }
    {
        core::LoadTestConfig c = base(QStringLiteral("bench-multiplexed"));
        c.clients = 256;
        c.connections = 4;
        c.limit = 1000;
        setups << Setup{QStringLiteral("multiplexed: 256 clients over 4 connections, limit 1000"), c,
                        p16->pairs(), QStringLiteral("script bound -P 16"),
                        ratioGoal(p16->pairs(), 0.7, QStringLiteral("the script bound (-P 16)"))};
    }
    // The contended setup with the CLI's defaults (`loadtest NAME --kind leased --limit 5 --clients
    // 50`): one connection, no hold, no think, and the acquire semscope recommends for the kind.
    auto contendedConfig = [&](const QString &name) {
        core::LoadTestConfig c = base(name);
        c.clients = contendedClients;
        c.connections = std::max(1, parser.value(QStringLiteral("contended-connections")).toInt());
        c.limit = contendedLimit;
        c.waitMs = core::LoadTestConfig::recommendedWaitMs(c.ref.kind);
        return c;
    };
    {
        const core::LoadTestConfig c = contendedConfig(QStringLiteral("bench-contended"));
        setups << Setup{
            QStringLiteral("contended, the CLI's defaults: 50 clients, %1 connection%2, limit 5, %3")
                .arg(c.connections)
                .arg(c.connections == 1 ? QString() : QStringLiteral("s"))
                .arg(c.acquireModeName()),
            c, nodePairs, nodeName, [&verdict, safe, node, nodePairs](const core::LoadTestReport &r) {
                const QString text = QStringLiteral("pairs/s >= 2 x node redis-semaphore (same run)");
                if (nodePairs > 0)
                    verdict.goal(text, r.pairsPerSecond >= 2 * nodePairs);
                else
                    verdict.unjudged(text, node ? node->skipped : QStringLiteral("--no-node"));
                verdict.goal(QStringLiteral("attempts/grant <= 1.5"), r.attemptsPerGrant <= 1.5);
                verdict.goal(QStringLiteral("p99 wait <= 10 ms"), r.acquireWait.percentileMs(99) <= 10.0);
                verdict.goal(QStringLiteral("Jain >= 0.95"), r.fairness.jainIndex >= 0.95);
                safe(r);
            }};
    }
    {
        // Retry after a pause (--retry), for comparison: its only goal is safety.
        core::LoadTestConfig c = contendedConfig(QStringLiteral("bench-contended-retry"));
        c.waitMs = 0;
        setups << Setup{
            QStringLiteral("contended --retry: 50 clients, %1 connection%2, limit 5, retry after %3")
                .arg(c.connections)
                .arg(c.connections == 1 ? QString() : QStringLiteral("s"))
                .arg(c.retry.toString()),
            c, nodePairs, nodeName, safe};
    }

    out << "\nsemscope load tester on `leased` (" << fixed(static_cast<double>(*durationNs) / 1e9, 1)
        << " s each); CPU per pair is what this process (load tester and client library) and the\n"
        << "redis-server spent, a figure the other load on a shared machine hardly moves:\n";
    verdict.printLoad(QStringLiteral("before the runs"));
    for (const Setup &s : setups) {
        if (!selected(s.name))
            continue;
        server.command({"CONFIG", "RESETSTAT"});
        const double clientCpu0 = processCpuSeconds();
        const double serverCpu0 = serverCpuSeconds(server);
        const qint64 reads0 = infoStat(server, "total_reads_processed");
        const qint64 writes0 = infoStat(server, "total_writes_processed");
        const core::LoadTestReport r = runLoadTest(server, s.config);
        const double clientCpu = processCpuSeconds() - clientCpu0;
        const double serverCpu = serverCpuSeconds(server) - serverCpu0;
        const qint64 reads = infoStat(server, "total_reads_processed") - reads0;
        const qint64 writes = infoStat(server, "total_writes_processed") - writes0;
        const auto stats = commandStats(server);
        out << s.name << "  (" << bench::BenchVerdict::machineLoad() << ")\n";
        if (!r.ok) {
            out << "    failed: " << r.error << " " << r.errorSamples.join(QStringLiteral("; ")) << "\n";
            verdict.goal(s.name + QStringLiteral(" ran"), false);
            continue;
        }
        const double pairs = r.pairsPerSecond * static_cast<double>(r.elapsedMs) / 1000.0;
        verdict.figure(QStringLiteral("pairs/s"), r.pairsPerSecond, s.referenceName, s.reference);
        if (s.referenceName == nodeName && nodePairs > 0) {
            verdict.figure(QStringLiteral("p99 wait ms"), r.acquireWait.percentileMs(99), nodeName,
                           node->result.value(QStringLiteral("acquire_p99_ms")).toDouble(), QString(), 2);
            // What caps the ratio on a machine of few cores: the work each side asks of the one
            // redis-server thread, and its own, for a pair.
            if (pairs > 0) {
                verdict.figure(QStringLiteral("redis-server CPU us per pair"), serverCpu * 1e6 / pairs,
                               nodeName, node->serverCpuUs, QString(), 1);
                verdict.figure(QStringLiteral("client CPU us per pair"), clientCpu * 1e6 / pairs, nodeName,
                               node->clientCpuUs, QString(), 1);
            }
        }
        out << "    acquire wait p50 " << fixed(r.acquireWait.percentileMs(50), 2) << " ms, p99 "
            << fixed(r.acquireWait.percentileMs(99), 2) << " ms, max " << fixed(r.acquireWait.maxMs(), 2)
            << " ms; attempts/grant " << fixed(r.attemptsPerGrant, 2) << "; Jain "
            << fixed(r.fairness.jainIndex, 3) << "; over-admissions " << r.safety.overAdmissions
            << "; token violations " << r.safety.tokenViolations << "; errors " << r.errors;
        if (!r.config.waits())
            out << "; busy replies " << r.busyReplies << ", retry pauses ended by a release " << r.retryWakes;
        out << "\n";
        if (pairs > 0) {
            // Commands run inside the scripts count in commandstats too; evalsha's usec includes them.
            qint64 scripts = 0;
            qint64 scriptUsec = 0;
            qint64 inner = 0;
            for (auto it = stats.cbegin(); it != stats.cend(); ++it) {
                if (it.key() == "evalsha" || it.key() == "eval") {
                    scripts += it.value().first;
                    scriptUsec += it.value().second;
                } else if (!it.key().startsWith("info") && !it.key().startsWith("config")) {
                    inner += it.value().first;
                }
            }
            out << "    CPU per pair: load tester " << fixed(clientCpu * 1e6 / pairs, 1)
                << " us, redis-server " << fixed(serverCpu * 1e6 / pairs, 1) << " us (in scripts "
                << fixed(scriptUsec / pairs, 1) << " us); per pair " << fixed(scripts / pairs, 2)
                << " scripts running " << fixed(inner / pairs, 1) << " commands; server socket reads "
                << fixed(reads / pairs, 2) << ", writes " << fixed(writes / pairs, 2) << "\n";
            if (perCommand) {
                QList<QByteArray> names = stats.keys();
                std::sort(names.begin(), names.end(), [&stats](const QByteArray &a, const QByteArray &b) {
                    return stats.value(a).first > stats.value(b).first;
                });
                for (const QByteArray &n : names) {
                    const auto [calls, usec] = stats.value(n);
                    out << "      " << n << ": " << fixed(calls / pairs, 2) << " per pair, "
                        << fixed(calls > 0 ? static_cast<double>(usec) / calls : 0.0, 2) << " us per call\n";
                }
            }
        }
        s.goals(r);
    }
    return verdict.finish();
}
