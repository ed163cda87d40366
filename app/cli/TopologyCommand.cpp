// `semscope-cli topology`: every node behind --redis (a standalone server and its replicas, or every
// master and replica of a Cluster) with role, master, slot ranges, link state, replication offset and
// how far each replica lags behind its master.
#include "CliCommand.h"
#include "CliContext.h"
#include "RedisOptions.h"
#include "SnapshotText.h"
#include "redis/topology/RedisTopology.h"
#include "redis/topology/TopologyReport.h"

#include <QJsonArray>
#include <QJsonObject>

namespace semscope::cli {

namespace {

QJsonObject nodeToJson(const redis::topology::NodeReport &n) {
    QJsonObject o{{QStringLiteral("address"), n.address},
                  {QStringLiteral("role"), n.role},
                  {QStringLiteral("link"), n.link}};
    if (!n.master.isEmpty())
        o.insert(QStringLiteral("master"), n.master);
    if (!n.slotRanges.isEmpty())
        o.insert(QStringLiteral("slots"), n.slotRanges);
    if (n.replicationOffset >= 0)
        o.insert(QStringLiteral("replication_offset"), double(n.replicationOffset));
    if (n.lagBytes)
        o.insert(QStringLiteral("lag_bytes"), double(*n.lagBytes));
    if (n.lagSeconds)
        o.insert(QStringLiteral("lag_seconds"), double(*n.lagSeconds));
    if (!n.error.isEmpty())
        o.insert(QStringLiteral("error"), n.error);
    return o;
}

class TopologyCommand : public CliCommand {
public:
    QString name() const override { return QStringLiteral("topology"); }
    QString summary() const override {
        return QStringLiteral(
            "List every Redis node (masters, replicas, Cluster slots) and each replica's lag.");
    }

    void start(CliContext &ctx) override {
        if (!ctx.args().isEmpty()) {
            ctx.fail(ExitUsage, {}, QStringLiteral("usage: semscope-cli topology"));
            return;
        }
        QString error;
        auto settings = redisSettingsFromOptions(ctx, &error);
        if (!settings) {
            ctx.fail(ExitUsage, {}, error);
            return;
        }
        settings->autoReconnect = false; // one attempt per node: report it rather than wait it out
        m_topology = std::make_unique<redis::topology::RedisTopology>(*settings);
        m_topology->open();
        const QString endpoint = m_topology->entry().endpoint();
        redis::topology::readTopology(
            *m_topology, [&ctx, endpoint](const redis::topology::TopologyReport &r) {
                if (!r.error.isEmpty()) {
                    ctx.fail(ExitUsage, endpoint, r.error);
                    return;
                }
                if (ctx.json()) {
                    QJsonArray nodes;
                    for (const auto &n : r.nodes)
                        nodes.append(nodeToJson(n));
                    ctx.printJson(QJsonObject{{QStringLiteral("mode"), r.mode},
                                              {QStringLiteral("summary"), r.summary()},
                                              {QStringLiteral("nodes"), nodes}});
                    ctx.finish(ExitOk);
                    return;
                }
                QList<QStringList> rows;
                for (const auto &n : r.nodes) {
                    rows << QStringList{
                        n.address,
                        n.role,
                        n.master.isEmpty() ? QStringLiteral("-") : n.master,
                        n.slotRanges.isEmpty() ? QStringLiteral("-") : n.slotRanges,
                        n.error.isEmpty() ? n.link : n.error,
                        n.replicationOffset >= 0 ? QString::number(n.replicationOffset) : QStringLiteral("-"),
                        n.lagBytes ? redis::topology::byteSize(*n.lagBytes) : QStringLiteral("-")};
                }
                ctx.out() << r.summary() << '\n'
                          << alignedTable({QStringLiteral("NODE"), QStringLiteral("ROLE"),
                                           QStringLiteral("MASTER"), QStringLiteral("SLOTS"),
                                           QStringLiteral("LINK"), QStringLiteral("OFFSET"),
                                           QStringLiteral("LAG")},
                                          rows);
                for (const auto &n : r.nodes) {
                    if (n.lagBytes && *n.lagBytes > 0)
                        ctx.out() << redis::topology::replicaLagSentence(n) << '\n';
                }
                ctx.finish(ExitOk);
            });
    }

private:
    std::unique_ptr<redis::topology::RedisTopology> m_topology;
};

} // namespace

std::unique_ptr<CliCommand> makeTopologyCommand() {
    return std::make_unique<TopologyCommand>();
}

} // namespace semscope::cli
