#include "SentinelGroup.h"

#include "ScriptedRedisServer.h"

#include "TestWait.h"
#include "redis/RedisConnection.h"

#include <QDir>
#include <QHash>

namespace semscope::test {

namespace {

QString temporaryBase() {
    const QString base = qEnvironmentVariable("SEMSCOPE_TEST_TMP");
    if (!base.isEmpty() && base.size() < 60 && QDir().mkpath(base))
        return base;
    return QDir::tempPath();
}

// INFO replication field `key` ("role", "master_link_status", ...), empty when absent.
QByteArray infoField(const redis::RedisReply &info, const QByteArray &key) {
    for (const QByteArray &line : info.str.split('\n')) {
        if (line.startsWith(QByteArray(key + ':')))
            return line.mid(key.size() + 1).trimmed();
    }
    return {};
}

} // namespace

SentinelGroup::SentinelGroup() = default;

SentinelGroup::~SentinelGroup() {
    // Sentinels first, so that none starts a failover while the data nodes go.
    for (auto &s : m_sentinels)
        s->stop();
    for (auto &n : m_nodes)
        n->stop();
}

bool SentinelGroup::start(const Options &options) {
    m_options = options;
    m_nodes.clear();
    m_sentinels.clear();
    // A replica's first full sync waits repl-diskless-sync-delay (5 s) for more replicas to join;
    // nobody else comes here, and any node may be master later.
    const QStringList quickSync{QStringLiteral("--repl-diskless-sync-delay"), QStringLiteral("0")};
    auto master = std::make_unique<RedisServer>();
    RedisServer::Options masterOptions;
    masterOptions.extraArgs = quickSync;
    if (!master->start(masterOptions)) {
        m_error = QStringLiteral("master: ") + master->errorString();
        return false;
    }
    const QString masterPort = QString::number(master->port());
    m_nodes.push_back(std::move(master));
    for (int i = 0; i < options.replicas; ++i) {
        auto replica = std::make_unique<RedisServer>();
        RedisServer::Options o;
        o.extraArgs = quickSync;
        o.extraArgs << QStringLiteral("--replicaof") << QStringLiteral("127.0.0.1") << masterPort;
        if (options.replicasRefusePromotion) {
            for (const char *command : {"SLAVEOF", "REPLICAOF"})
                o.extraArgs << QStringLiteral("--rename-command") << QString::fromLatin1(command)
                            << QStringLiteral("semscope-test-renamed-%1").arg(QString::fromLatin1(command));
        }
        if (!replica->start(o)) {
            m_error = QStringLiteral("replica %1: ").arg(i + 1) + replica->errorString();
            return false;
        }
        m_nodes.push_back(std::move(replica));
    }
    if (!waitForReplicasLinked()) {
        // Which step failed first (a report may be cut short), then what the master says of its
        // replicas, and each node's last log lines.
        m_error =
            QStringLiteral("the replicas did not link to the master: %1; master says: %2")
                .arg(m_error, QString::fromUtf8(node(0).command({"INFO", "replication"}).str.simplified()));
        for (auto &n : m_nodes)
            m_error +=
                QStringLiteral("\nlog of %1:\n").arg(n->port()) + QString::fromUtf8(n->log().right(1500));
        return false;
    }
    for (int i = 0; i < options.sentinels; ++i) {
        redis::LocalRedisProcess::Options o;
        o.program = redis::LocalRedisProcess::Program::Sentinel;
        o.label = QStringLiteral("sentinel %1").arg(i + 1);
        o.temporaryBase = temporaryBase();
        QStringList config{
            QStringLiteral("sentinel monitor %1 127.0.0.1 %2 1").arg(options.masterName, masterPort),
            QStringLiteral("sentinel down-after-milliseconds %1 %2")
                .arg(options.masterName)
                .arg(options.downAfterMs),
            QStringLiteral("sentinel failover-timeout %1 %2")
                .arg(options.masterName)
                .arg(options.failoverTimeoutMs),
            QStringLiteral("sentinel parallel-syncs %1 1").arg(options.masterName)};
        if (!options.sentinelPassword.isEmpty())
            config << QStringLiteral("requirepass \"%1\"").arg(options.sentinelPassword);
        o.configText = config.join(QLatin1Char('\n'));
        auto sentinel = std::make_unique<redis::LocalRedisProcess>();
        if (!sentinel->startAndWait(o)) {
            m_error = sentinel->errorString();
            return false;
        }
        m_sentinels.push_back(std::move(sentinel));
    }
    // Each sentinel must know every replica, and have read the replica's own INFO, before a
    // failover can pick it (otherwise SENTINEL FAILOVER answers NOGOODSLAVE).
    for (int i = 0; i < options.sentinels; ++i) {
        const bool known = waitFor(
            [&] {
                const redis::RedisReply r =
                    sentinelCommand(i, {"SENTINEL", "REPLICAS", options.masterName.toUtf8()});
                if (!r.isArray() || r.elements.size() != options.replicas)
                    return false;
                for (const redis::RedisReply &replica : r.elements) {
                    QHash<QByteArray, QByteArray> fields;
                    for (qsizetype f = 0; f + 1 < replica.elements.size(); f += 2)
                        fields.insert(replica.elements.at(f).str, replica.elements.at(f + 1).str);
                    if (fields.value("flags") != "slave" || fields.value("master-link-status") != "ok" ||
                        fields.value("info-refresh").toLongLong() > 5000)
                        return false;
                }
                return true;
            },
            15000);
        if (!known) {
            m_error = QStringLiteral("sentinel %1 did not discover the replicas").arg(i + 1);
            return false;
        }
    }
    return true;
}

QString SentinelGroup::url() const {
    QStringList addresses;
    for (const auto &s : m_sentinels)
        addresses << QStringLiteral("127.0.0.1:%1").arg(s->port());
    return QStringLiteral("redis+sentinel://%1/%2")
        .arg(addresses.join(QLatin1Char(',')), m_options.masterName);
}

redis::ConnectionSettings SentinelGroup::settings() const {
    auto s = redis::ConnectionSettings::fromUrl(url());
    s->sentinelPassword = m_options.sentinelPassword;
    return *s;
}

redis::RedisReply SentinelGroup::sentinelCommand(int index, const QList<QByteArray> &args) {
    redis::ConnectionSettings s = m_sentinels.at(size_t(index))->settings();
    s.autoReconnect = false;
    s.password = m_options.sentinelPassword;
    s.clientName = QStringLiteral("semscope-test-sentinel-control");
    s.commandTimeoutMs = 5000;
    redis::RedisConnection connection(s);
    connection.open();
    auto result =
        std::make_shared<redis::RedisReply>(redis::RedisReply::transportError(QStringLiteral("no reply")));
    waitForCallback(
        [&](std::function<void()> done) {
            connection.command(args, [result, done](const redis::RedisReply &reply) {
                *result = reply;
                done();
            });
        },
        7000);
    return *result;
}

int SentinelGroup::masterIndex() {
    for (int i = 0; i < sentinelCount(); ++i) {
        if (!m_sentinels.at(size_t(i))->isRunning())
            continue;
        const redis::RedisReply r =
            sentinelCommand(i, {"SENTINEL", "GET-MASTER-ADDR-BY-NAME", m_options.masterName.toUtf8()});
        if (!r.isArray() || r.elements.size() != 2)
            continue;
        const quint16 port = quint16(r.elements.at(1).str.toUInt());
        for (int n = 0; n < nodeCount(); ++n) {
            if (node(n).port() == port)
                return n;
        }
    }
    return -1;
}

bool SentinelGroup::waitForMaster(int index, int timeoutMs) {
    return waitFor(
        [&] {
            if (masterIndex() != index)
                return false;
            const redis::RedisReply role = node(index).command({"ROLE"});
            return role.isArray() && !role.elements.isEmpty() && role.elements.constFirst().str == "master";
        },
        timeoutMs);
}

bool SentinelGroup::waitForReplicasLinked(int timeoutMs) {
    int linked = 0;
    QString notUp;
    const bool up = waitFor(
        [&] {
            linked = 0;
            for (auto &n : m_nodes) {
                if (!n->isRunning())
                    continue;
                const redis::RedisReply info = n->command({"INFO", "replication"});
                if (infoField(info, "role") != "slave")
                    continue;
                if (infoField(info, "master_link_status") != "up") {
                    notUp = QStringLiteral("replica %1 says: %2")
                                .arg(n->port())
                                .arg(QString::fromUtf8(info.str.simplified()));
                    return false;
                }
                ++linked;
            }
            return true;
        },
        timeoutMs);
    if (!up) {
        m_error = QStringLiteral("a replica's link to its master is not up after %1 s; %2")
                      .arg(timeoutMs / 1000)
                      .arg(notUp);
        return false;
    }
    // A link that is up is not yet a stream that flows (see RedisServer::waitForReplicaStream): a
    // budget of its own, since a slow first sync may have used most of the one above.
    for (auto &n : m_nodes) {
        if (!n->isRunning() || infoField(n->command({"INFO", "replication"}), "role") != "master")
            continue;
        if (n->waitForReplicaStream(linked, timeoutMs))
            return true;
        m_error = QStringLiteral("the links are up but %1 replica(s) did not acknowledge the master's writes "
                                 "within %2 s")
                      .arg(linked)
                      .arg(timeoutMs / 1000);
        return false;
    }
    return true;
}

std::unique_ptr<ScriptedRedisServer> SentinelGroup::staleSentinel(int staleAnswers,
                                                                  std::shared_ptr<std::atomic<int>> asked) {
    const quint16 replicaPort = node(1).port();
    const quint16 masterPort = node(0).port();
    return std::make_unique<ScriptedRedisServer>(ScriptedRedisServer::sentinel(
        [=] { return asked->fetch_add(1) < staleAnswers ? replicaPort : masterPort; }));
}

bool SentinelGroup::failover() {
    for (int i = 0; i < sentinelCount(); ++i) {
        if (!m_sentinels.at(size_t(i))->isRunning())
            continue;
        const redis::RedisReply r =
            sentinelCommand(i, {"SENTINEL", "FAILOVER", m_options.masterName.toUtf8()});
        if (r.str == "OK")
            return true;
        m_error = QStringLiteral("SENTINEL FAILOVER: ") + r.describe();
        return false;
    }
    return false;
}

} // namespace semscope::test
