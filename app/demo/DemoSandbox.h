#pragma once

#include "core/ProfileStore.h"
#include "core/SemaphoreTypes.h"
#include "model/ConnectionConfig.h"

#include <QObject>
#include <QRandomGenerator>
#include <QSettings>
#include <QTemporaryDir>
#include <QTimer>
#include <memory>

namespace semscope::consul {
class ConsulDouble;
class ConsulSemaphoreStore;
} // namespace semscope::consul
namespace semscope::redis {
class LocalRedisCluster;
class LocalRedisProcess;
class RedisCommands;
class RedisConnection;
class RedisSemaphoreStore;
namespace topology {
class RedisTopology;
}
} // namespace semscope::redis

namespace semscope::app {

// `semscope --demo`: a private redis-server (from PATH, on a free loopback port, in a temporary
// folder) and an in-process Consul API double, filled with one semaphore of every kind — including
// a stuck `slots` holder, an expired-but-present holder and a stale Consul holder — and a gentle
// background load so holders come and go. Everything stops when the sandbox is destroyed; the
// redis-server is stopped by its PID (and dies with the app if the app is killed).
//
// `semscope --demo --cluster` (setCluster(true)): a private Redis Cluster of 3 masters and 3
// replicas (redis::LocalRedisCluster) instead of the one redis-server, with the same semaphores and
// load (routed by slot), one more `leased` semaphore on every master (clusterSemaphores()), and the
// `fair` and `slots` layouts written the way their own clients write them, whose keys fall in
// several slots: the app shows them with the "not atomic" warning and refuses writes to them.
class DemoSandbox : public QObject {
    Q_OBJECT
public:
    explicit DemoSandbox(QObject *parent = nullptr);
    ~DemoSandbox() override;

    // A Redis Cluster instead of one redis-server; before start().
    void setCluster(bool cluster) { m_clusterMode = cluster; }
    bool isCluster() const { return m_clusterMode; }

    // Starts both servers and seeds them; ready() or failed() follows.
    void start();
    void stop();
    bool isReady() const { return m_ready; }

    // The two connections the app opens (tagged production and development).
    model::ConnectionConfig redisConnection() const;
    model::ConnectionConfig consulConnection() const;
    // Folder for the demo's own settings, profiles and audit log (removed on quit).
    QString dataDir() const { return m_dir.path(); }
    QString settingsFile() const { return m_dir.path() + QStringLiteral("/semscope-demo.ini"); }
    core::ProfileStore *profiles() { return m_profiles.get(); }
    qint64 redisPid() const;
    // Every redis-server the sandbox started (the one, or each cluster node).
    QList<qint64> redisPids() const;
    quint16 redisPort() const { return m_redisPort; }
    // Pauses / resumes the background load (tests keep the scene still).
    void setLoadRunning(bool running);

    // The semaphores the sandbox creates, for tests and the README.
    static QList<core::SemaphoreRef> seededSemaphores();
    // Cluster mode: the `leased` semaphores placed one on each master (known once ready()).
    QList<core::SemaphoreRef> clusterSemaphores() const;

Q_SIGNALS:
    void ready();
    void failed(const QString &message);
    void progress(const QString &message);

private:
    struct Held {
        core::Grant grant;
        qint64 releaseAtMs = 0;
        bool consul = false;
    };
    void onRedisUp();
    void onClusterUp();
    void seedClusterExtras();
    redis::RedisCommands &raw();
    void seedRedis();
    void seedConsul();
    void seedExitedClient();
    // semscope-cli: $SEMSCOPE_CLI, else the one beside this program; empty when there is none.
    static QString cliProgram();
    void seedDone(const QString &what, bool ok, const QString &message);
    void loadTick();
    void rawCommand(const QList<QByteArray> &args);
    core::SemaphoreRef refFor(core::Kind kind, const QString &name, std::optional<qint64> limit) const;
    void fail(const QString &message);

    QTemporaryDir m_dir;
    std::unique_ptr<redis::LocalRedisProcess> m_redis;
    std::unique_ptr<redis::LocalRedisCluster> m_cluster;
    std::unique_ptr<redis::topology::RedisTopology> m_rawCluster; // raw commands routed by slot
    QStringList m_perMaster;                                      // cluster mode: one leased name per master
    bool m_clusterMode = false;
    quint16 m_redisPort = 0;
    std::unique_ptr<consul::ConsulDouble> m_consul;
    std::unique_ptr<redis::RedisConnection> m_raw;
    std::unique_ptr<redis::RedisConnection> m_subscriber;
    std::unique_ptr<redis::RedisSemaphoreStore> m_redisStore;
    std::unique_ptr<consul::ConsulSemaphoreStore> m_consulStore;
    std::unique_ptr<QSettings> m_profileSettings;
    std::unique_ptr<core::ProfileStore> m_profiles;
    QTimer m_load;
    QTimer m_startTimeout;
    QList<Held> m_held;
    int m_pendingSeeds = 0;
    int m_nextWorker = 1;
    quint64 m_tick = 0;
    bool m_seeding = false;
    bool m_ready = false;
    bool m_failed = false;
    QString m_redisId;
    QString m_consulId;
};

} // namespace semscope::app
