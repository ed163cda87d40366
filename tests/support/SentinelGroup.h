#pragma once

#include "RedisServer.h"
#include "localredis/LocalRedisProcess.h"
#include "redis/ConnectionSettings.h"
#include "redis/RedisReply.h"

#include <QList>
#include <QString>
#include <atomic>
#include <memory>
#include <vector>

namespace semscope::test {

// A real Sentinel group on loopback for tests: one master, replicas of it and sentinels watching it,
// each its own process (RedisServer for the data nodes, LocalRedisProcess for the sentinels). The
// sentinels decide quickly (down-after 1 s, failover-timeout 3 s by default), so a failover takes
// one to three seconds. Everything is stopped by PID when the group goes.
//
// start() returns once every replica's link is up and each sentinel knows every replica (a
// sentinel learns replicas from the master's INFO, which it reads every 10 s; the sentinels are
// started only after the replicas are linked, so their first read finds them).
class ScriptedRedisServer;

class SentinelGroup {
public:
    struct Options {
        int replicas = 1;
        int sentinels = 1;
        int downAfterMs = 1000;
        int failoverTimeoutMs = 3000;
        QString masterName = QStringLiteral("mymaster");
        QString sentinelPassword; // the sentinels' requirepass
        // The replicas' REPLICAOF and SLAVEOF are renamed away: a failover the sentinels start
        // cannot promote one, and they abort it after failoverTimeoutMs
        // (-failover-abort-slave-timeout).
        bool replicasRefusePromotion = false;
    };

    SentinelGroup();
    ~SentinelGroup();

    bool start(const Options &options);
    bool start() { return start(Options()); }
    QString errorString() const { return m_error; }
    // A scripted sentinel in front of this group that has not caught up with a failover: asked for
    // the master, it names replica 1 the first `staleAnswers` times, then the master (node 0).
    // `asked` counts the questions.
    std::unique_ptr<ScriptedRedisServer> staleSentinel(int staleAnswers,
                                                       std::shared_ptr<std::atomic<int>> asked);

    // Node 0 is the first master; 1..replicas its replicas.
    RedisServer &node(int index) { return *m_nodes.at(size_t(index)); }
    int nodeCount() const { return int(m_nodes.size()); }
    redis::LocalRedisProcess &sentinel(int index) { return *m_sentinels.at(size_t(index)); }
    int sentinelCount() const { return int(m_sentinels.size()); }

    // redis+sentinel://127.0.0.1:S1,127.0.0.1:S2/mymaster
    QString url() const;
    // From url(), with the sentinel password.
    redis::ConnectionSettings settings() const;

    // One command to sentinel `index` (synchronous, for set-up and checks).
    redis::RedisReply sentinelCommand(int index, const QList<QByteArray> &args);
    // The node the first running sentinel names as master; -1 if none.
    int masterIndex();
    // Waits until the sentinels name node `index` and it says ROLE master.
    bool waitForMaster(int index, int timeoutMs = 15000);
    // Waits until each running replica of the current master has its link up (each given up to
    // `timeoutMs`) and then receives the master's writes (as long again). When it fails,
    // errorString() says which of the two did not happen, and what the replica said.
    bool waitForReplicasLinked(int timeoutMs = 20000);
    // SENTINEL FAILOVER through the first running sentinel; true when the sentinel accepted it.
    bool failover();

private:
    Options m_options;
    std::vector<std::unique_ptr<RedisServer>> m_nodes;
    std::vector<std::unique_ptr<redis::LocalRedisProcess>> m_sentinels;
    QString m_error;
};

} // namespace semscope::test
