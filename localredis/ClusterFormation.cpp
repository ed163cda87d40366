#include "ClusterFormation.h"

#include "redis/RedisConnection.h"
#include "redis/topology/HashSlot.h"

#include <QSet>
#include <algorithm>

namespace semscope::redis {

namespace {
constexpr int kPollMs = 100;

QString address(const ConnectionSettings &s) {
    return s.host + QLatin1Char(':') + QString::number(s.port);
}
} // namespace

ClusterFormation::ClusterFormation(QList<ConnectionSettings> nodes, int masters, QObject *parent)
    : QObject(parent)
    , m_settings(std::move(nodes))
    , m_masters(masters) {
    m_nodes.resize(size_t(m_settings.size()));
    m_deadline.setSingleShot(true);
    connect(&m_deadline, &QTimer::timeout, this,
            [this] { finish(QStringLiteral("the cluster was not ready in time (%1)").arg(m_waitingFor)); });
}

ClusterFormation::~ClusterFormation() = default;

RedisConnection &ClusterFormation::node(int i) {
    std::unique_ptr<RedisConnection> &c = m_nodes.at(size_t(i));
    if (!c) {
        ConnectionSettings s = m_settings.at(i);
        s.clientName = QStringLiteral("semscope-cluster-setup");
        s.commandTimeoutMs = 5000;
        c = std::make_unique<RedisConnection>(s);
        c->open();
    }
    return *c;
}

void ClusterFormation::form(int timeoutMs, std::function<void(const QString &error)> done) {
    m_done = std::move(done);
    m_deadline.start(timeoutMs);
    addSlots();
}

void ClusterFormation::waitUntilHealthy(int timeoutMs, std::function<void(const QString &error)> done) {
    m_done = std::move(done);
    m_deadline.start(timeoutMs);
    checkHealth();
}

void ClusterFormation::finish(const QString &error) {
    if (!m_done)
        return;
    m_deadline.stop();
    ++m_generation;
    const auto done = std::exchange(m_done, {});
    done(error);
}

// Calls `check` until it says ok (every kPollMs), then `next`.
void ClusterFormation::poll(std::function<void(std::function<void(bool ok)>)> check, const QString &what,
                            std::function<void()> next) {
    m_waitingFor = what;
    const quint64 gen = m_generation;
    check([this, gen, check, what, next](bool ok) {
        if (gen != m_generation)
            return;
        if (ok) {
            next();
            return;
        }
        QTimer::singleShot(kPollMs, this, [this, gen, check, what, next] {
            if (gen == m_generation)
                poll(check, what, next);
        });
    });
}

// Slots split evenly between the masters, in order.
void ClusterFormation::addSlots() {
    m_waitingFor = QStringLiteral("slot assignment");
    auto left = std::make_shared<int>(m_masters);
    const quint64 gen = m_generation;
    for (int m = 0; m < m_masters; ++m) {
        const int from = topology::kHashSlots * m / m_masters;
        const int to = topology::kHashSlots * (m + 1) / m_masters - 1;
        node(m).command({"CLUSTER", "ADDSLOTSRANGE", QByteArray::number(from), QByteArray::number(to)},
                        [this, gen, left, m](const RedisReply &r) {
                            if (gen != m_generation)
                                return;
                            if (r.isError())
                                return finish(QStringLiteral("CLUSTER ADDSLOTSRANGE on %1: %2")
                                                  .arg(address(m_settings.at(m)), r.errorMessage()));
                            if (--*left == 0)
                                meet();
                        });
    }
}

// Every node meets the first one; gossip does the rest. Then the masters' ids, for the replicas.
void ClusterFormation::meet() {
    m_waitingFor = QStringLiteral("CLUSTER MEET");
    const int count = int(m_settings.size());
    auto left = std::make_shared<int>(count - 1 + m_masters);
    m_ids.resize(m_masters);
    const quint64 gen = m_generation;
    auto step = [this, gen, left](const QString &error) {
        if (gen != m_generation)
            return;
        if (!error.isEmpty())
            return finish(error);
        if (--*left == 0)
            replicate(m_masters);
    };
    for (int i = 1; i < count; ++i) {
        const ConnectionSettings &s = m_settings.at(i);
        node(0).command(
            {"CLUSTER", "MEET", s.host.toUtf8(), QByteArray::number(s.port)}, [step, s](const RedisReply &r) {
                step(r.isError() ? QStringLiteral("CLUSTER MEET %1: %2").arg(address(s), r.errorMessage())
                                 : QString());
            });
    }
    for (int m = 0; m < m_masters; ++m) {
        node(m).command({"CLUSTER", "MYID"}, [this, step, m](const RedisReply &r) {
            m_ids[m] = r.str;
            step(r.isError() || r.str.isEmpty() ? QStringLiteral("CLUSTER MYID on %1: %2")
                                                      .arg(address(m_settings.at(m)), r.errorMessage())
                                                : QString());
        });
    }
}

// A replica can follow a master only once it knows it: retried until gossip has told it.
void ClusterFormation::replicate(int i) {
    if (i >= m_settings.size()) {
        waitForLinks(m_masters);
        return;
    }
    const int replicasPerMaster = std::max(1, int(m_settings.size() - m_masters) / std::max(1, m_masters));
    const int master = (i - m_masters) / replicasPerMaster;
    poll(
        [this, i, master](std::function<void(bool)> answer) {
            node(i).command({"CLUSTER", "REPLICATE", m_ids.value(master)},
                            [answer](const RedisReply &r) { answer(!r.isError()); });
        },
        QStringLiteral("%1 to follow %2").arg(address(m_settings.at(i)), address(m_settings.at(master))),
        [this, i] { replicate(i + 1); });
}

void ClusterFormation::waitForLinks(int i) {
    if (i >= m_settings.size()) {
        checkHealth();
        return;
    }
    poll(
        [this, i](std::function<void(bool)> answer) {
            node(i).command({"INFO", "replication"}, [answer](const RedisReply &r) {
                answer(r.isString() && r.str.contains("master_link_status:up"));
            });
        },
        QStringLiteral("%1 to synchronise with its master").arg(address(m_settings.at(i))),
        [this, i] { waitForLinks(i + 1); });
}

void ClusterFormation::checkHealth() {
    poll(
        [this](std::function<void(bool)> answer) {
            struct Views {
                int left = 0;
                bool ok = true;
                QSet<QByteArray> slotViews;
            };
            auto views = std::make_shared<Views>();
            const int count = int(m_settings.size());
            views->left = count;
            for (int i = 0; i < count; ++i) {
                node(i).pipeline(
                    {{"CLUSTER", "INFO"}, {"CLUSTER", "SLOTS"}, {"CLUSTER", "NODES"}},
                    [views, answer, count](const QList<RedisReply> &r) {
                        const RedisReply &info = r.value(0);
                        const RedisReply &slotTable = r.value(1);
                        const QByteArray nodes = r.value(2).str;
                        if (!info.str.contains("cluster_state:ok") || slotTable.isError() ||
                            nodes.count('\n') < count || nodes.contains("handshake") ||
                            nodes.contains("fail"))
                            views->ok = false;
                        // Who serves each range, as this node sees it.
                        QList<QByteArray> ranges;
                        for (const RedisReply &range : slotTable.elements)
                            ranges << range.elements.value(0).describe().toUtf8() + "-" +
                                          range.elements.value(1).describe().toUtf8() + "@" +
                                          range.elements.value(2).elements.value(1).describe().toUtf8();
                        std::sort(ranges.begin(), ranges.end());
                        views->slotViews.insert(ranges.join(','));
                        if (--views->left == 0)
                            answer(views->ok && views->slotViews.size() == 1);
                    });
            }
        },
        QStringLiteral("every node to agree the cluster is healthy"), [this] { finish({}); });
}

} // namespace semscope::redis
