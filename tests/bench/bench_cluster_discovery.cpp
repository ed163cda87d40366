// bench_cluster_discovery: semscope's discovery of a 3-master Redis Cluster against the plainest
// walk that could do the job, measured in the same run. Run by hand (not a ctest test):
//
//   build/tests/bench/bench_cluster_discovery [--scale 1.0]
//
// A private cluster of three masters (tests/support/RedisCluster, no replicas) is filled with 1M
// keys at scale 1 (--scale 0.1 for a quick run), of which 10k are `leased` semaphores made by the
// acquire script and the rest plain strings, each sent to its master with `redis-cli --pipe`. Then,
// three times each, alternating:
// - semscope: RedisSemaphoreStore::discover on a store that has already read the slot map (every
//   master walked at once: SCAN pages of names, ZSETs and hashes, samples of the candidates,
//   recognition);
// - reference: `SCAN cursor COUNT 1000` of each master, one master after the other, nothing else;
// - the SCANs alone that semscope's walk is made of (three per page, every master at once, nothing
//   read or recognised): how much of semscope's time the walk itself takes.
// It prints the best time of each, the ratio (goal: semscope ≤ 1.2× the reference) and the number
// of semaphores found. The masters and this program share the machine's cores.
#include "BenchVerdict.h"
#include "RedisCluster.h"
#include "ScriptBound.h"
#include "TestWait.h"
#include "redis/RedisConnection.h"
#include "redis/RedisSemaphoreStore.h"
#include "redis/kinds/LeasedKind.h"
#include "redis/topology/ClusterMap.h"
#include "redis/topology/HashSlot.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTextStream>
#include <QThread>
#include <algorithm>
#include <sys/resource.h>

using namespace semscope;

namespace {

QTextStream out(stdout);

// Every master walked with SCAN COUNT 1000 in turn; the keys seen, or -1 on an error.
qint64 plainScan(const QList<redis::ConnectionSettings> &masters) {
    qint64 keys = 0;
    for (const redis::ConnectionSettings &s : masters) {
        redis::RedisConnection conn(s);
        conn.open();
        QByteArray cursor = "0";
        bool failed = false;
        do {
            test::waitForCallback(
                [&](std::function<void()> done) {
                    conn.command({"SCAN", cursor, "COUNT", "1000"}, [&, done](const redis::RedisReply &r) {
                        if (r.isError() || r.elements.size() < 2) {
                            failed = true;
                        } else {
                            cursor = r.elements.at(0).str;
                            keys += r.elements.at(1).elements.size();
                        }
                        done();
                    });
                },
                60000);
        } while (!failed && cursor != "0");
        if (failed)
            return -1;
    }
    return keys;
}

// The least a walk that misses no semaphore does on Redis 7.0: each page is three SCANs of the same
// cursor sent together (the names, TYPE zset, TYPE hash: a SCAN filters one type, and a TYPE per
// key costs the server more than a walk), every master at once, and nothing else: no key read,
// nothing recognised. What semscope spends beyond it is sampling and recognition.
bool threeScansPerPage(const QList<redis::ConnectionSettings> &masters) {
    struct Walk {
        std::unique_ptr<redis::RedisConnection> conn;
        QByteArray cursor = "0";
    };
    std::vector<std::unique_ptr<Walk>> walks;
    for (const redis::ConnectionSettings &s : masters) {
        auto walk = std::make_unique<Walk>();
        walk->conn = std::make_unique<redis::RedisConnection>(s);
        walk->conn->open();
        walks.push_back(std::move(walk));
    }
    int running = int(walks.size());
    bool failed = false;
    std::function<void()> allDone;
    std::function<void(Walk *)> next = [&](Walk *w) {
        const QList<QByteArray> scan{"SCAN", w->cursor, "COUNT", "1000"};
        w->conn->pipeline(
            {scan, scan + QList<QByteArray>{"TYPE", "zset"}, scan + QList<QByteArray>{"TYPE", "hash"}},
            [&, w](const QList<redis::RedisReply> &replies) {
                for (const redis::RedisReply &r : replies) {
                    if (r.isError() || r.elements.size() < 2)
                        failed = true;
                }
                w->cursor = failed ? QByteArray("0") : replies.at(0).elements.at(0).str;
                if (w->cursor != "0")
                    next(w);
                else if (--running == 0)
                    allDone();
            });
    };
    const bool ended = test::waitForCallback(
        [&](std::function<void()> done) {
            allDone = done;
            for (const auto &w : walks)
                next(w.get());
        },
        60000);
    return ended && !failed;
}

// CPU seconds spent so far, by the masters (INFO cpu: user + sys of the main thread's process)
// and by this program (getrusage): where a walk's work goes, whatever the wall time.
struct CpuSeconds {
    double masters = 0;
    double client = 0;
};

CpuSeconds cpuNow(test::RedisCluster &cluster) {
    CpuSeconds cpu;
    for (int m = 0; m < 3; ++m) {
        const QByteArray info = cluster.node(m).command({"INFO", "cpu"}).str;
        for (const QByteArray &line : info.split('\n')) {
            if (line.startsWith("used_cpu_user:") || line.startsWith("used_cpu_sys:"))
                cpu.masters += line.mid(line.indexOf(':') + 1).trimmed().toDouble();
        }
    }
    rusage self{};
    getrusage(RUSAGE_SELF, &self);
    cpu.client = double(self.ru_utime.tv_sec + self.ru_stime.tv_sec) +
                 double(self.ru_utime.tv_usec + self.ru_stime.tv_usec) / 1e6;
    return cpu;
}

QString cpuSpent(const CpuSeconds &from, const CpuSeconds &to) {
    return QStringLiteral("CPU %1 s in the masters + %2 s here")
        .arg(to.masters - from.masters, 0, 'f', 2)
        .arg(to.client - from.client, 0, 'f', 2);
}

} // namespace

int main(int argc, char *argv[]) {
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("semscope's Cluster discovery vs a plain SCAN of each master"));
    parser.addHelpOption();
    parser.addOption({QStringLiteral("scale"),
                      QStringLiteral("Share of 1M keys / 10k semaphores (default 1)."), QStringLiteral("S"),
                      QStringLiteral("1")});
    parser.process(app);
    const double scale = std::clamp(parser.value(QStringLiteral("scale")).toDouble(), 0.001, 10.0);
    const qint64 totalKeys = qint64(1'000'000 * scale);
    const qint64 semaphores = qint64(10'000 * scale);

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
    auto masterOf = [&](const QByteArray &key) {
        return map->shards().at(map->shardOfSlot(redis::topology::hashSlot(key))).master.port;
    };

    // The fill: each master gets its own pipe of what lives on it.
    out << "filling " << totalKeys << " keys (" << semaphores << " leased semaphores) ...\n";
    out.flush();
    const redis::LuaScript acquire = bench::leasedScript(QStringLiteral("leased_acquire"));
    redis::LeasedKind kind;
    QHash<quint16, QByteArray> pipes;
    qint64 semaphoreKeys = 0;
    for (qint64 i = 0; i < semaphores; ++i) {
        const QString name = QStringLiteral("bench-sem-%1").arg(i);
        const QList<QByteArray> keys = kind.keysOf(name);
        QList<QByteArray> cmd{"EVAL", acquire.source(), QByteArray::number(keys.size())};
        cmd << keys << "holder-1"
            << "600000"
            << "5"
            << "bench"
            << "0"
            << "30000"
            << ""
            << "0"
            << "-1";
        pipes[masterOf(keys.first())] += bench::resp(cmd);
    }
    for (int m = 0; m < 3; ++m) {
        test::RedisServer &node = cluster.node(m);
        if (!bench::pipeIn(node, pipes.value(node.port()))) {
            out << "cannot fill the semaphores\n";
            return 1;
        }
        semaphoreKeys += node.command({"DBSIZE"}).integer;
    }
    pipes.clear();
    const qint64 fillers = std::max<qint64>(0, totalKeys - semaphoreKeys);
    for (qint64 i = 0; i < fillers; ++i) {
        const QByteArray key = "filler:" + QByteArray::number(i);
        pipes[masterOf(key)] += bench::resp({"SET", key, "x"});
        if ((i + 1) % 200'000 == 0 || i + 1 == fillers) {
            for (int m = 0; m < 3; ++m) {
                test::RedisServer &node = cluster.node(m);
                if (!pipes.value(node.port()).isEmpty() && !bench::pipeIn(node, pipes.value(node.port()))) {
                    out << "cannot fill\n";
                    return 1;
                }
            }
            pipes.clear();
        }
    }
    qint64 keys = 0;
    QList<redis::ConnectionSettings> masters;
    for (int m = 0; m < 3; ++m) {
        keys += cluster.node(m).command({"DBSIZE"}).integer;
        masters << cluster.node(m).settings();
    }
    out << "cluster holds " << keys << " keys on 3 masters\n";
    out.flush();

    redis::RedisSemaphoreStore store(cluster.settings());
    test::waitForCallback(
        [&](std::function<void()> done) { store.topology().detect([done](const QString &) { done(); }); });
    double bestSemscope = 1e18;
    double bestPlain = 1e18;
    double bestFloor = 1e18;
    qsizetype found = 0;
    qint64 scanned = 0;
    for (int round = 0; round < 3; ++round) {
        const CpuSeconds beforeSemscope = cpuNow(cluster);
        QElapsedTimer t;
        t.start();
        std::optional<core::DiscoverResult> result;
        test::waitForCallback(
            [&](std::function<void()> done) {
                store.discover(core::DiscoverRequest(), core::Cancellation(), {},
                               [&result, done](const core::DiscoverResult &r) {
                                   result = r;
                                   done();
                               });
            },
            600000);
        const double semscopeMs = double(t.nsecsElapsed()) / 1e6;
        if (!result || !result->ok) {
            out << "discovery failed: " << (result ? result->error : QStringLiteral("no answer")) << "\n";
            return 1;
        }
        found = result->semaphores.size();
        const CpuSeconds beforePlain = cpuNow(cluster);
        t.restart();
        scanned = plainScan(masters);
        const double plainMs = double(t.nsecsElapsed()) / 1e6;
        const CpuSeconds afterPlain = cpuNow(cluster);
        const CpuSeconds beforeFloor = cpuNow(cluster);
        t.restart();
        if (!threeScansPerPage(masters)) {
            out << "the three SCANs per page failed\n";
            return 1;
        }
        const double floorMs = double(t.nsecsElapsed()) / 1e6;
        const CpuSeconds afterFloor = cpuNow(cluster);
        bestFloor = std::min(bestFloor, floorMs);
        out << "round " << round + 1 << ": three SCANs per page, nothing else "
            << QString::number(floorMs, 'f', 0) << " ms (" << cpuSpent(beforeFloor, afterFloor) << ")\n";
        out << "round " << round + 1 << ": semscope " << QString::number(semscopeMs, 'f', 0) << " ms ("
            << cpuSpent(beforeSemscope, beforePlain) << "), plain SCAN " << QString::number(plainMs, 'f', 0)
            << " ms (" << cpuSpent(beforePlain, afterPlain) << ")\n";
        out.flush();
        bestSemscope = std::min(bestSemscope, semscopeMs);
        bestPlain = std::min(bestPlain, plainMs);
    }
    out << "\nkeys " << keys << " (plain SCAN saw " << scanned << "), semaphores found " << found << " of "
        << semaphores << "\n";
    out << "semscope discovery (3 masters at once): " << QString::number(bestSemscope, 'f', 0)
        << " ms (best of 3)\n";
    out << "plain SCAN COUNT 1000, master after master: " << QString::number(bestPlain, 'f', 0)
        << " ms (best of 3)\n";
    out << "three SCANs per page alone (names, TYPE zset, TYPE hash; every master at once): "
        << QString::number(bestFloor, 'f', 0) << " ms (best of 3), "
        << QString::number(bestFloor / bestPlain, 'f', 2) << "x the plain SCAN\n";
    bench::BenchVerdict verdict(out);
    verdict.figure(QStringLiteral("semscope discovery ms"), bestSemscope, QStringLiteral("plain SCAN"),
                   bestPlain);
    verdict.goal(QStringLiteral("semscope discovery <= 1.2 x plain SCAN (the cores are shared by the masters "
                                "and this program)"),
                 bestSemscope <= 1.2 * bestPlain);
    return verdict.finish();
}
