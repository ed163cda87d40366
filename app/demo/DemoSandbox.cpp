#include "DemoSandbox.h"

#include "consul/ConsulSemaphoreStore.h"
#include "consuldouble/ConsulDouble.h"
#include "localredis/LocalRedisCluster.h"
#include "localredis/LocalRedisProcess.h"
#include "redis/RedisConnection.h"
#include "redis/RedisSemaphoreStore.h"
#include "redis/topology/RedisTopology.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QProcess>
#include <QSet>

Q_LOGGING_CATEGORY(lcDemo, "semscope.demo")

namespace semscope::app {

using namespace semscope::core;

namespace {
const QString kJobs = QStringLiteral("demo:jobs");              // leased, limit 5, busy
const QString kReports = QStringLiteral("demo:reports");        // leased, one expired-but-present holder
const QString kExports = QStringLiteral("demo:exports");        // leased, limit 1, two clients queued
const QString kPrinters = QStringLiteral("demo:printers");      // slots, limit 3, one stuck holder
const QString kFair = QStringLiteral("demo:fair-queue");        // fair, limit 3
const QString kRate = QStringLiteral("demo:rate-limit");        // zset, limit 4
const QString kLock = QStringLiteral("demo:lock:migrations");   // lock
const QString kImports = QStringLiteral("demo:imports");        // leased, limit 2, holder's client exited
const QString kConsulApi = QStringLiteral("demo/service-a");    // consul, limit 3, busy
const QString kConsulDeploy = QStringLiteral("demo/deploy");    // consul, limit 1
const QString kConsulBatch = QStringLiteral("demo/batch-jobs"); // consul, limit 2, one stale holder, no load
const QString kConsulMutex = QStringLiteral("demo/backup");     // `consul lock -n 1` mutex
const QString kRedissonSemaphore = QStringLiteral("demo:lock-pool"); // Redisson RSemaphore
const QString kOrders = QStringLiteral("demo:orders");               // cluster: leased, one per master
constexpr int kClusterMasters = 3;

QByteArray num(qint64 v) {
    return QByteArray::number(v);
}
} // namespace

DemoSandbox::DemoSandbox(QObject *parent)
    : QObject(parent)
    , m_dir(QDir::tempPath() + QStringLiteral("/semscope-demo-XXXXXX")) {
    m_redisId = QStringLiteral("demo-redis");
    m_consulId = QStringLiteral("demo-consul");
    m_profileSettings = std::make_unique<QSettings>(settingsFile(), QSettings::IniFormat);
    m_profiles = std::make_unique<ProfileStore>(m_profileSettings.get());
    m_load.setInterval(700);
    connect(&m_load, &QTimer::timeout, this, &DemoSandbox::loadTick);
    m_startTimeout.setSingleShot(true);
    m_startTimeout.setInterval(30000);
    connect(&m_startTimeout, &QTimer::timeout, this,
            [this] { fail(tr("the demo servers did not come up within 30 s")); });
}

DemoSandbox::~DemoSandbox() {
    stop();
}

QList<SemaphoreRef> DemoSandbox::seededSemaphores() {
    auto ref = [](Kind k, const QString &n) {
        SemaphoreRef r;
        r.kind = k;
        r.name = n;
        return r;
    };
    return {ref(Kind::Leased, kJobs),
            ref(Kind::Leased, kReports),
            ref(Kind::Leased, kExports),
            ref(Kind::Slots, kPrinters),
            ref(Kind::Fair, kFair),
            ref(Kind::Zset, kRate),
            ref(Kind::Lock, kLock),
            ref(Kind::Leased, kImports),
            ref(Kind::RedissonSemaphore, kRedissonSemaphore),
            ref(Kind::RedissonPermitExpirable, QStringLiteral("demo-permits")),
            ref(Kind::RedissonLock, QStringLiteral("demo-lock:redisson")),
            ref(Kind::NodeMutex, QStringLiteral("demo-cron")),
            ref(Kind::NodeSemaphore, QStringLiteral("demo-uploads")),
            ref(Kind::Consul, kConsulApi),
            ref(Kind::Consul, kConsulDeploy),
            ref(Kind::Consul, kConsulBatch),
            ref(Kind::ConsulMutex, kConsulMutex)};
}

model::ConnectionConfig DemoSandbox::redisConnection() const {
    model::ConnectionConfig c;
    c.id = m_redisId;
    c.name = m_clusterMode ? QStringLiteral("demo redis cluster") : QStringLiteral("demo redis");
    c.backend = Backend::Redis;
    c.environment = model::Environment::Production;
    c.host = QStringLiteral("127.0.0.1");
    c.port = m_redisPort;
    return c;
}

model::ConnectionConfig DemoSandbox::consulConnection() const {
    model::ConnectionConfig c;
    c.id = m_consulId;
    c.name = QStringLiteral("demo consul");
    c.backend = Backend::Consul;
    c.environment = model::Environment::Development;
    c.discoverMatch = QStringLiteral("demo/");
    c.address = m_consul ? m_consul->url().toString() : QString();
    return c;
}

qint64 DemoSandbox::redisPid() const {
    if (m_cluster)
        return m_cluster->pids().value(0);
    return m_redis ? m_redis->pid() : 0;
}

QList<qint64> DemoSandbox::redisPids() const {
    if (m_cluster)
        return m_cluster->pids();
    return m_redis ? QList<qint64>{m_redis->pid()} : QList<qint64>{};
}

QList<SemaphoreRef> DemoSandbox::clusterSemaphores() const {
    QList<SemaphoreRef> out;
    for (const QString &name : m_perMaster)
        out << refFor(Kind::Leased, name, 3);
    return out;
}

redis::RedisCommands &DemoSandbox::raw() {
    if (m_rawCluster)
        return *m_rawCluster;
    return *m_raw;
}

void DemoSandbox::fail(const QString &message) {
    if (m_failed || m_ready)
        return;
    m_failed = true;
    qCWarning(lcDemo) << "demo sandbox:" << message;
    Q_EMIT failed(message);
}

void DemoSandbox::start() {
    if (!m_dir.isValid()) {
        fail(tr("cannot create a temporary folder: %1").arg(m_dir.errorString()));
        return;
    }
    m_startTimeout.start();

    // Consul first: it is in-process and cannot fail to start except for a port.
    m_consul = std::make_unique<consul::ConsulDouble>();
    if (!m_consul->listen(QHostAddress::LocalHost, 0)) {
        fail(tr("the Consul sandbox could not listen: %1").arg(m_consul->errorString()));
        return;
    }

    if (m_clusterMode) {
        // Six redis-server nodes in folders inside the demo's, formed into a cluster without
        // blocking; each stopped by its PID and killed with the app.
        m_cluster = std::make_unique<redis::LocalRedisCluster>();
        connect(m_cluster.get(), &redis::LocalRedisCluster::failed, this,
                [this](const QString &m) { fail(m); });
        connect(m_cluster.get(), &redis::LocalRedisCluster::progress, this, &DemoSandbox::progress);
        connect(m_cluster.get(), &redis::LocalRedisCluster::ready, this, &DemoSandbox::onClusterUp);
        redis::LocalRedisCluster::Options options;
        options.masters = kClusterMasters;
        options.temporaryBase = m_dir.path();
        m_cluster->start(options);
        return;
    }

    // redis-server in its own folder inside the demo's, on a free loopback port; stopped by its
    // PID and killed with the app.
    m_redis = std::make_unique<redis::LocalRedisProcess>();
    connect(m_redis.get(), &redis::LocalRedisProcess::failed, this, [this](const QString &m) { fail(m); });
    connect(m_redis.get(), &redis::LocalRedisProcess::ready, this, [this] {
        m_redisPort = m_redis->port();
        redis::ConnectionSettings settings = m_redis->settings();
        settings.clientName = QStringLiteral("semscope-demo");
        m_raw = std::make_unique<redis::RedisConnection>(settings);
        connect(m_raw.get(), &redis::RedisConnection::connected, this, &DemoSandbox::onRedisUp);
        m_raw->open();
    });
    Q_EMIT progress(tr("Starting redis-server…"));
    redis::LocalRedisProcess::Options options;
    options.temporaryBase = m_dir.path();
    options.label = QStringLiteral("the demo's redis-server");
    m_redis->start(options);
}

// The cluster is formed: the slot map is read once (the raw commands and the per-master names need
// it), then seeding goes on as for one server.
void DemoSandbox::onClusterUp() {
    m_redisPort = m_cluster->settings().port;
    redis::ConnectionSettings settings = m_cluster->settings();
    settings.clientName = QStringLiteral("semscope-demo");
    m_raw = std::make_unique<redis::RedisConnection>(settings);
    m_raw->open();
    m_rawCluster = std::make_unique<redis::topology::RedisTopology>(settings);
    m_rawCluster->open();
    m_rawCluster->detect([this](const QString &error) {
        if (!error.isEmpty() || m_rawCluster->mode() != redis::topology::RedisTopology::Mode::Cluster) {
            fail(tr("the demo cluster's slot map could not be read: %1").arg(error));
            return;
        }
        // One name per master, picked by the slot it hashes to.
        QSet<QString> masters;
        for (int i = 1; masters.size() < kClusterMasters && i < 10000; ++i) {
            const QString name = kOrders + QLatin1Char('-') + QString::number(i);
            const QString master = m_rawCluster->nodeOfKey(name.toUtf8());
            if (masters.contains(master))
                continue;
            masters.insert(master);
            m_perMaster << name;
        }
        onRedisUp();
    });
}

void DemoSandbox::onRedisUp() {
    if (m_seeding || m_ready || m_failed)
        return;
    m_seeding = true;
    redis::ConnectionSettings settings;
    settings.host = QStringLiteral("127.0.0.1");
    settings.port = m_redisPort;
    settings.clientName = QStringLiteral("semscope-demo-load");
    m_redisStore = std::make_unique<redis::RedisSemaphoreStore>(settings);
    consul::ConsulConfig cc;
    cc.address = m_consul->url();
    m_consulStore = std::make_unique<consul::ConsulSemaphoreStore>(cc);

    // Profiles for the layouts that do not store their limit, as an operator would have entered them.
    const QString endpoint = redisConnection().endpoint();
    SemaphoreProfile fair;
    fair.limit = 3;
    fair.timeoutMs = 20000;
    m_profiles->save(endpoint, Kind::Fair, kFair, fair);
    SemaphoreProfile rate;
    rate.limit = 4;
    m_profiles->save(endpoint, Kind::Zset, kRate, rate);
    SemaphoreProfile printers;
    printers.limit = 3;
    // slots records no time: a lease-less holder watched for longer than this reads as stuck. The
    // background load's holders have leases; the crashed one turns stale a few seconds in.
    printers.timeoutMs = 5000;
    m_profiles->save(endpoint, Kind::Slots, kPrinters, printers);
    SemaphoreProfile uploads;
    uploads.limit = 2;
    uploads.timeoutMs = 10000;
    m_profiles->save(endpoint, Kind::NodeSemaphore, QStringLiteral("demo-uploads"), uploads);
    SemaphoreProfile redissonSem;
    redissonSem.limit = 4;
    m_profiles->save(endpoint, Kind::RedissonSemaphore, kRedissonSemaphore, redissonSem);

    Q_EMIT progress(tr("Creating the demo semaphores…"));
    seedRedis();
    seedConsul();
}

SemaphoreRef DemoSandbox::refFor(Kind kind, const QString &name, std::optional<qint64> limit) const {
    SemaphoreRef r;
    r.kind = kind;
    r.name = name;
    r.profile.limit = limit;
    if (kind == Kind::Fair)
        r.profile.timeoutMs = 20000;
    return r;
}

void DemoSandbox::rawCommand(const QList<QByteArray> &args) {
    ++m_pendingSeeds;
    const QString what = QString::fromUtf8(args.value(0) + ' ' + args.value(1));
    raw().command(args, [this, what](const redis::RedisReply &reply) {
        seedDone(what, !reply.isError(), reply.errorMessage());
    });
}

void DemoSandbox::seedDone(const QString &what, bool ok, const QString &message) {
    if (!ok)
        qCWarning(lcDemo) << "demo seed" << what << "failed:" << message;
    if (--m_pendingSeeds > 0 || m_ready || m_failed)
        return;
    m_ready = true;
    m_startTimeout.stop();
    m_load.start();
    const QString readyText =
        m_clusterMode ? tr("Demo ready: a Redis Cluster of %1 masters and %1 replicas from 127.0.0.1:%2, "
                           "Consul on %3")
                            .arg(kClusterMasters)
                            .arg(m_redisPort)
                            .arg(m_consul->url().toString())
                      : tr("Demo ready: redis on 127.0.0.1:%1, Consul on %2")
                            .arg(m_redisPort)
                            .arg(m_consul->url().toString());
    // On stderr too: where to point semscope-cli, and the moment scripts/time-setup.sh waits for.
    qCInfo(lcDemo).noquote() << readyText;
    Q_EMIT progress(readyText);
    Q_EMIT ready();
}

void DemoSandbox::seedRedis() {
    auto acquire = [this](const SemaphoreRef &ref, const QString &holder, qint64 ttlMs) {
        ++m_pendingSeeds;
        AcquireRequest req;
        req.holder = holder;
        req.ttlMs = ttlMs;
        m_redisStore->acquire(ref, req, Cancellation(), [this, ref, holder](AcquireResult r) {
            seedDone(QStringLiteral("acquire %1 %2").arg(ref.name, holder),
                     r.status == AcquireResult::Status::Granted, r.error);
        });
    };
    // Busy leased semaphore with a stored limit of 5.
    const SemaphoreRef jobs = refFor(Kind::Leased, kJobs, 5);
    acquire(jobs, QStringLiteral("billing-worker@app-1"), 60000);
    acquire(jobs, QStringLiteral("billing-worker@app-2"), 45000);
    // Its lease runs out in 2 s and nobody touches this semaphore again: expired but present.
    acquire(refFor(Kind::Leased, kReports, 2), QStringLiteral("nightly-report@batch-3"), 2000);
    acquire(refFor(Kind::Leased, kReports, 2), QStringLiteral("weekly-export@batch-1"), 600000);
    // A full semaphore with two clients in line behind its holder: the queue in order, each waiter
    // with its ticket and the lease it asked for. The waits are not seeds (they end only when the
    // slot comes free); they start once the holder is in, and a waiter served takes its turn like
    // the background load's clients.
    const SemaphoreRef exports = refFor(Kind::Leased, kExports, 1);
    ++m_pendingSeeds;
    AcquireRequest closing;
    closing.holder = QStringLiteral("quarterly-close@finance-1");
    closing.ttlMs = 600000;
    m_redisStore->acquire(exports, closing, Cancellation(), [this, exports](AcquireResult r) {
        const bool granted = r.status == AcquireResult::Status::Granted;
        seedDone(QStringLiteral("acquire %1 quarterly-close@finance-1").arg(exports.name), granted, r.error);
        if (!granted)
            return;
        for (const QString &waiter :
             {QStringLiteral("ledger-sync@finance-2"), QStringLiteral("audit-export@finance-3")}) {
            AcquireRequest req;
            req.holder = waiter;
            req.ttlMs = 120000;
            req.waitMs = 3'600'000;
            m_redisStore->acquire(exports, req, Cancellation(), [this](AcquireResult w) {
                if (w.status == AcquireResult::Status::Granted)
                    m_held.append(Held{w.grant, QDateTime::currentMSecsSinceEpoch() + 20000, false});
            });
        }
    });
    if (m_clusterMode) {
        seedClusterExtras();
    } else {
        // slots has no TTL: this holder "crashed" and keeps its slot for ever.
        const SemaphoreRef printers = refFor(Kind::Slots, kPrinters, 3);
        acquire(printers, QStringLiteral("crashed-worker-7"), 0);
        acquire(refFor(Kind::Fair, kFair, 3), QStringLiteral("queue-consumer-1"), 20000);
    }
    acquire(refFor(Kind::Zset, kRate, 4), QStringLiteral("api-client-42"), 30000);
    acquire(refFor(Kind::Lock, kLock, 1), QStringLiteral("migrator@db-1"), 300000);

    // Other libraries' layouts, written the way those libraries write them.
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    rawCommand({"SET", kRedissonSemaphore.toUtf8(), "3"});
    // Redisson clients waiting for permits subscribe to redisson_sc:{name}; discovery tells an
    // RSemaphore from a plain counter by that channel, so the demo keeps one subscriber.
    redis::ConnectionSettings subSettings = m_raw->settings();
    subSettings.clientName = QStringLiteral("semscope-demo-redisson-waiter");
    m_subscriber = std::make_unique<redis::RedisConnection>(subSettings);
    m_subscriber->open();
    m_subscriber->subscribe("redisson_sc:{" + kRedissonSemaphore.toUtf8() + "}", [](const QByteArray &) {});
    rawCommand({"SET", "demo-permits", "1"});
    rawCommand({"ZADD", "{demo-permits}:timeout", num(now + 40000), "9f1c2a7be04d4c11", num(now + 90000),
                "0be7f5d3aa8e4e0f"});
    rawCommand({"HSET", "demo-lock:redisson", "6f1e8c1a-2b7d-4d7e-9a43-5d1c0e7b9a11:53", "1"});
    rawCommand({"PEXPIRE", "demo-lock:redisson", "30000"});
    rawCommand({"SET", "mutex:demo-cron", "c3f8a0e6-cron-runner", "PX", "60000"});
    rawCommand({"ZADD", "semaphore:demo-uploads", num(now), "uploader-a", num(now - 500), "uploader-b"});
    rawCommand({"PEXPIRE", "semaphore:demo-uploads", "60000"}); // as redis-semaphore's acquire does

    // A redis-py Lock under a name with no lock-like word: discovery cannot tell it from any other
    // string, so it is listed only once an operator opens it (File → Open key…, "invoice-run").
    rawCommand({"SET", "invoice-run", "5f0c2b9e8d1a4c37b6e2f4a9c1d8e7b3", "NX", "PX", "3600000"});
    // A semaphore-like name holding the wrong type (an old list-based design): listed with a warning.
    rawCommand({"RPUSH", "semaphore:payments-legacy", "worker-1", "worker-2"});
    seedExitedClient();
}

QString DemoSandbox::cliProgram() {
    const QString fromEnv = qEnvironmentVariable("SEMSCOPE_CLI");
    if (!fromEnv.isEmpty())
        return fromEnv;
    const QString beside = QCoreApplication::applicationDirPath() + QStringLiteral("/semscope-cli");
    return QFileInfo(beside).isExecutable() ? beside : QString();
}

// A holder whose client has exited, as a cron job that died leaves it: `semscope-cli acquire`
// takes the slot and ends. Its owner record names a process no longer connected, so the holder
// card says "client gone" — the first question when a slot looks stuck.
void DemoSandbox::seedExitedClient() {
    const QString cli = cliProgram();
    if (cli.isEmpty()) {
        qCWarning(lcDemo) << "semscope-cli is not installed beside" << QCoreApplication::applicationDirPath()
                          << "- demo:imports has no holder";
        return;
    }
    ++m_pendingSeeds;
    auto *process = new QProcess(this);
    // The CLI keeps its history and audit log under the demo's folder, not the operator's own.
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char *var : {"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"})
        env.insert(QString::fromLatin1(var), m_dir.path() + QStringLiteral("/cli-home"));
    process->setProcessEnvironment(env);
    process->setProgram(cli);
    process->setArguments({QStringLiteral("--redis"), QStringLiteral("redis://127.0.0.1:%1").arg(m_redisPort),
                           QStringLiteral("acquire"), kImports, QStringLiteral("--kind"),
                           QStringLiteral("leased"), QStringLiteral("--limit"), QStringLiteral("2"),
                           QStringLiteral("--holder"), QStringLiteral("nightly-import@ops-laptop"),
                           QStringLiteral("--ttl"), QStringLiteral("30m")});
    const QString what = QStringLiteral("semscope-cli acquire %1").arg(kImports);
    connect(process, &QProcess::finished, this, [this, process, what](int code, QProcess::ExitStatus status) {
        seedDone(what, status == QProcess::NormalExit && code == 0,
                 QString::fromUtf8(process->readAllStandardError()).trimmed());
        process->deleteLater();
    });
    connect(process, &QProcess::errorOccurred, this, [this, process, what](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart)
            return; // the others end in finished()
        seedDone(what, false, process->errorString());
        process->deleteLater();
    });
    process->start();
}

// Cluster mode: a busy `leased` semaphore on every master, and the two layouts whose keys fall in
// several slots written as their own clients write them (semscope refuses to write them there).
void DemoSandbox::seedClusterExtras() {
    int n = 0;
    for (const QString &name : std::as_const(m_perMaster)) {
        for (int h = 0; h < 2; ++h) {
            ++m_pendingSeeds;
            AcquireRequest req;
            req.holder = QStringLiteral("order-worker-%1@shard-%2").arg(h + 1).arg(n + 1);
            req.ttlMs = 60000;
            m_redisStore->acquire(refFor(Kind::Leased, name, 3), req, Cancellation(),
                                  [this, name](AcquireResult r) {
                                      seedDone(QStringLiteral("acquire %1").arg(name),
                                               r.status == AcquireResult::Status::Granted, r.error);
                                  });
        }
        ++n;
    }
    const QByteArray printers = kPrinters.toUtf8();
    rawCommand({"RPUSH", printers + "|list", "2", "3"});
    rawCommand({"HSET", printers + "|map", "crashed-worker-7", "1"});
    const QByteArray fair = kFair.toUtf8();
    const QByteArray now = num(QDateTime::currentMSecsSinceEpoch() / 1000);
    rawCommand({"ZADD", fair, now, "queue-consumer-1"});
    rawCommand({"ZADD", fair + ":owner", "1", "queue-consumer-1"});
    rawCommand({"SET", fair + ":counter", "1"});
}

void DemoSandbox::seedConsul() {
    const SemaphoreRef api = refFor(Kind::Consul, kConsulApi, 3);
    auto acquire = [this](const SemaphoreRef &ref, const QString &holder, bool makeStale) {
        ++m_pendingSeeds;
        AcquireRequest req;
        req.holder = holder;
        req.ttlMs = 15000;
        m_consulStore->acquire(ref, req, Cancellation(), [this, ref, holder, makeStale](AcquireResult r) {
            const bool ok = r.status == AcquireResult::Status::Granted;
            if (ok && makeStale) {
                // The session dies (its node "crashed"): Consul deletes its contender key, but the
                // .lock still lists it until someone prunes it — a stale holder.
                const QString sid = r.grant.details.value(QStringLiteral("session")).toString();
                if (!sid.isEmpty())
                    m_consul->invalidateSession(sid);
            }
            seedDone(QStringLiteral("consul acquire %1 %2").arg(ref.name, holder), ok, r.error);
        });
    };
    acquire(api, QStringLiteral("checkout-api@node-1"), false);
    acquire(refFor(Kind::Consul, kConsulDeploy, 1), QStringLiteral("deployer@ci-runner-2"), false);
    // No load on this one, so no acquire prunes the stale holder away.
    const SemaphoreRef batch = refFor(Kind::Consul, kConsulBatch, 2);
    acquire(batch, QStringLiteral("batch-runner@node-2"), false);
    acquire(batch, QStringLiteral("crashed-consumer@node-4"), true);

    // A `consul lock -n 1` mutex, written the way `consul lock` writes it: a session without TTL
    // holding <prefix>/.lock with the lock flags.
    ++m_pendingSeeds;
    auto &client = m_consulStore->client();
    consul::ConsulClient::SessionRequest session;
    session.name = QStringLiteral("Consul lock for 'pg_dump nightly' at '%1'").arg(kConsulMutex);
    client.sessionCreate(session, [this](consul::ConsulClient::CreateSessionResult r) {
        if (r.id.isEmpty()) {
            seedDone(QStringLiteral("consul mutex session"), false, QString::fromUtf8(r.http.body));
            return;
        }
        consul::ConsulClient::KvPutOptions put;
        put.flags = consul::kLockFlagValue;
        put.acquire = r.id;
        m_consulStore->client().kvPut(kConsulMutex + QStringLiteral("/.lock"), QByteArray(), put,
                                      [this](consul::ConsulClient::BoolResult b) {
                                          seedDone(QStringLiteral("consul mutex"), b.value,
                                                   QString::fromUtf8(b.http.body));
                                      });
    });
}

void DemoSandbox::loadTick() {
    if (!m_redisStore || !m_consulStore)
        return;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    // Release the holders whose time is up.
    for (int i = int(m_held.size()) - 1; i >= 0; --i) {
        if (m_held.at(i).releaseAtMs > now)
            continue;
        const Held h = m_held.takeAt(i);
        if (h.consul)
            m_consulStore->release(h.grant, [](ReleaseResult) {});
        else
            m_redisStore->release(h.grant, [](ReleaseResult) {});
    }
    // Keep the foreign holders alive the way their libraries would (watchdog / refresh), so their
    // TTLs count down and re-arm; uploader-b stops refreshing and shows as expired.
    if (m_raw && (m_tick++ % 8) == 0) {
        const auto ignore = [](const redis::RedisReply &) {};
        raw().command({"PEXPIRE", "demo-lock:redisson", "30000"}, ignore);
        raw().command({"PEXPIRE", "mutex:demo-cron", "60000"}, ignore);
        raw().command({"ZADD", "semaphore:demo-uploads", "XX", num(now), "uploader-a"}, ignore);
        raw().command({"PEXPIRE", "semaphore:demo-uploads", "60000"}, ignore);
    }
    // And now and then take a slot, so the charts move.
    auto *rng = QRandomGenerator::global();
    if (rng->bounded(100) >= 55)
        return;
    struct Target {
        Kind kind;
        QString name;
        qint64 limit;
    };
    static const QList<Target> targets{{Kind::Leased, kJobs, 5},    {Kind::Leased, kJobs, 5},
                                       {Kind::Zset, kRate, 4},      {Kind::Fair, kFair, 3},
                                       {Kind::Slots, kPrinters, 3}, {Kind::Consul, kConsulApi, 3}};
    // On the cluster the split-slot layouts take no writes; the per-master semaphores do instead.
    QList<Target> clusterTargets;
    if (m_clusterMode) {
        for (const Target &t : targets) {
            if (t.kind != Kind::Fair && t.kind != Kind::Slots)
                clusterTargets << t;
        }
        for (const QString &name : std::as_const(m_perMaster))
            clusterTargets << Target{Kind::Leased, name, 3};
    }
    const QList<Target> &pool = m_clusterMode ? clusterTargets : targets;
    const Target t = pool.at(rng->bounded(int(pool.size())));
    const SemaphoreRef ref = refFor(t.kind, t.name, t.limit);
    AcquireRequest req;
    req.holder = QStringLiteral("worker-%1@app-%2").arg(m_nextWorker++).arg(1 + rng->bounded(4));
    req.ttlMs = t.kind == Kind::Consul ? 15000 : 20000;
    const qint64 holdMs = 2000 + rng->bounded(9000);
    const bool consul = t.kind == Kind::Consul;
    auto onResult = [this, holdMs, consul](AcquireResult r) {
        if (r.status != AcquireResult::Status::Granted)
            return;
        m_held.append(Held{r.grant, QDateTime::currentMSecsSinceEpoch() + holdMs, consul});
    };
    if (consul)
        m_consulStore->acquire(ref, req, Cancellation(), onResult);
    else
        m_redisStore->acquire(ref, req, Cancellation(), onResult);
}

void DemoSandbox::setLoadRunning(bool running) {
    if (running && m_ready)
        m_load.start();
    else
        m_load.stop();
}

void DemoSandbox::stop() {
    m_load.stop();
    m_startTimeout.stop();
    m_held.clear();
    m_redisStore.reset();
    m_consulStore.reset();
    m_subscriber.reset();
    m_rawCluster.reset();
    m_raw.reset();
    if (m_consul) {
        m_consul->close();
        m_consul.reset();
    }
    if (m_redis)
        m_redis->stop(); // SIGTERM to the PID we started
    if (m_cluster)
        m_cluster->stop(); // each node by its PID
}

} // namespace semscope::app
