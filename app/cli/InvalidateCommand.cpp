// `semscope-cli invalidate SESSION`: destroys one Consul session, as Consul's UI "Invalidate
// Session" does. Its behaviour (release or delete) then runs on every key it holds, and holders of
// semaphores that session was in become stale.
#include "CliCommand.h"
#include "CliContext.h"
#include "ConsulOptions.h"
#include "consul/ConsulSemaphoreStore.h"
#include "core/audit/AuditLog.h"

#include <QJsonObject>

namespace semscope::cli {

namespace {

class InvalidateCommand : public CliCommand {
public:
    QString name() const override { return QStringLiteral("invalidate"); }
    QString summary() const override {
        return QStringLiteral("Invalidate (destroy) one Consul session: its locks are released or deleted.");
    }
    QString usage() const override { return QStringLiteral("SESSION"); }

    void start(CliContext &ctx) override {
        if (ctx.args().size() != 1)
            return ctx.fail(ExitUsage, {}, QStringLiteral("usage: invalidate SESSION"));
        QString error;
        m_store = openConsulOnlyStore(ctx, &error);
        if (!m_store)
            return ctx.fail(ExitUsage, {}, error);
        ctx.watchConnection(*m_store);
        const QString endpoint = m_store->endpoint();
        const QString sid = ctx.args().constFirst();
        m_store->invalidateSession(sid, [&ctx, endpoint, sid](core::MaintenanceResult r) {
            core::AuditEntry entry;
            entry.connection = endpoint;
            entry.action = QStringLiteral("invalidate-session");
            entry.observed.insert(QStringLiteral("session"), sid);
            entry.result = r.ok ? QStringLiteral("ok") : QStringLiteral("error");
            entry.message = r.message;
            ctx.audit(entry);
            if (!r.ok)
                return ctx.failOperation(endpoint, r.message);
            if (ctx.json())
                ctx.printJson(QJsonObject{{QStringLiteral("session"), sid},
                                          {QStringLiteral("invalidated"), true},
                                          {QStringLiteral("message"), r.message}});
            else
                ctx.out() << r.message << '\n';
            ctx.finish(ExitOk);
        });
    }

private:
    std::unique_ptr<consul::ConsulSemaphoreStore> m_store;
};

} // namespace

std::unique_ptr<CliCommand> makeInvalidateCommand() {
    return std::make_unique<InvalidateCommand>();
}

} // namespace semscope::cli
