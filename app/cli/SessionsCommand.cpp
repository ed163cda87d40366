// `semscope-cli sessions`: every Consul session in the datacenter (Consul's UI lists them only per
// node), with what an operator needs to judge it: name, node, TTL, behaviour, lock-delay, checks.
#include "CliCommand.h"
#include "CliContext.h"
#include "ConsulOptions.h"
#include "consul/ConsulSemaphoreStore.h"

#include <QJsonArray>
#include <QJsonObject>

namespace semscope::cli {

namespace {

class SessionsCommand : public CliCommand {
public:
    QString name() const override { return QStringLiteral("sessions"); }
    QString summary() const override {
        return QStringLiteral("List every Consul session in the datacenter (--consul only).");
    }

    void start(CliContext &ctx) override {
        if (!ctx.args().isEmpty())
            return ctx.fail(ExitUsage, {}, QStringLiteral("sessions takes no arguments"));
        QString error;
        m_store = openConsulOnlyStore(ctx, &error);
        if (!m_store)
            return ctx.fail(ExitUsage, {}, error);
        ctx.watchConnection(*m_store);
        const QString endpoint = m_store->endpoint();
        m_store->listSessions([&ctx, endpoint](consul::ConsulSemaphoreStore::SessionsOutcome r) {
            if (!r.ok)
                return ctx.failOperation(endpoint,
                                         QStringLiteral("listing sessions failed: %1").arg(r.error));
            if (ctx.json()) {
                QJsonArray list;
                for (const auto &s : r.sessions) {
                    list.append(QJsonObject{{QStringLiteral("id"), s.id},
                                            {QStringLiteral("name"), s.name},
                                            {QStringLiteral("node"), s.node},
                                            {QStringLiteral("ttl"), s.ttl},
                                            {QStringLiteral("behavior"), s.behavior},
                                            {QStringLiteral("lockDelayMs"), s.lockDelayNs / 1'000'000},
                                            {QStringLiteral("checks"),
                                             QJsonArray::fromStringList(s.nodeChecks + s.serviceChecks)},
                                            {QStringLiteral("createIndex"), QString::number(s.createIndex)}});
                }
                ctx.printJson(list);
                return ctx.finish(ExitOk);
            }
            if (r.sessions.isEmpty()) {
                ctx.out() << "no sessions\n";
                return ctx.finish(ExitOk);
            }
            ctx.out() << QStringLiteral("%1  %2  %3  %4  %5  %6  %7\n")
                             .arg(QStringLiteral("ID").leftJustified(36),
                                  QStringLiteral("NODE").leftJustified(16),
                                  QStringLiteral("TTL").leftJustified(6),
                                  QStringLiteral("BEHAVIOR").leftJustified(8),
                                  QStringLiteral("DELAY").leftJustified(6),
                                  QStringLiteral("CHECKS").leftJustified(12), QStringLiteral("NAME"));
            for (const auto &s : r.sessions) {
                ctx.out()
                    << QStringLiteral("%1  %2  %3  %4  %5  %6  %7\n")
                           .arg(s.id.leftJustified(36), s.node.leftJustified(16),
                                (s.ttl.isEmpty() ? QStringLiteral("-") : s.ttl).leftJustified(6),
                                s.behavior.leftJustified(8),
                                QStringLiteral("%1s").arg(s.lockDelayNs / 1'000'000'000).leftJustified(6),
                                (s.nodeChecks + s.serviceChecks).join(QLatin1Char(',')).leftJustified(12),
                                s.name);
            }
            ctx.finish(ExitOk);
        });
    }

private:
    std::unique_ptr<consul::ConsulSemaphoreStore> m_store;
};

} // namespace

std::unique_ptr<CliCommand> makeSessionsCommand() {
    return std::make_unique<SessionsCommand>();
}

} // namespace semscope::cli
