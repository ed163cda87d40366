#include "SemaphoreCommand.h"
#include "SnapshotJson.h"
#include "core/Duration.h"

#include <QJsonObject>

namespace semscope::cli {

namespace {

// `refresh NAME HOLDER`: extends a lease that HOLDER still has. Never re-acquires: a holder that
// lost its slot is reported lost (exit 1).
class RefreshCommand : public SemaphoreCommand {
public:
    QString name() const override { return QStringLiteral("refresh"); }
    QString summary() const override {
        return QStringLiteral("Extend a holder's lease; exits 1 if it was lost.");
    }
    QString usage() const override { return QStringLiteral("NAME HOLDER [--kind K] [--ttl DUR]"); }
    QList<QCommandLineOption> options() const override { return {kindOption(), ttlOption()}; }

protected:
    int argumentCount() const override { return 2; }
    bool validate(CliContext &ctx) override {
        const std::optional<qint64> ttl = durationOption(ctx, QStringLiteral("ttl"), 30000);
        if (!ttl)
            return false;
        if (*ttl <= 0) {
            ctx.fail(ExitUsage, {}, QStringLiteral("--ttl must be positive"));
            return false;
        }
        m_ttlMs = *ttl;
        return true;
    }

    void run(CliContext &ctx, core::SemaphoreStore &store, const core::SemaphoreRef &ref) override {
        const QString holderId = ctx.args().at(1);
        const qint64 ttl = m_ttlMs;
        store.snapshot(ref, [&ctx, &store, holderId, ttl](const core::Snapshot &snap) {
            const core::Holder *h = findHolder(snap, holderId);
            if (!h) {
                report(ctx, store, QStringLiteral("lost"),
                       QStringLiteral("%1 does not hold %2").arg(holderId, snap.ref.name));
                return;
            }
            store.refresh(grantFor(snap, *h), ttl,
                          [&ctx, &store, holderId, ttl](const core::RefreshResult &r) {
                              switch (r.status) {
                              case core::RefreshResult::Status::Ok: {
                                  if (ctx.json()) {
                                      QJsonObject o{{QStringLiteral("status"), QStringLiteral("ok")},
                                                    {QStringLiteral("holder"), holderId}};
                                      if (r.expiresAtMs)
                                          o.insert(QStringLiteral("expires_at_ms"),
                                                   static_cast<double>(*r.expiresAtMs));
                                      ctx.printJson(o);
                                  } else {
                                      ctx.out() << QStringLiteral("refreshed %1 for %2\n")
                                                       .arg(holderId, core::formatDurationMs(ttl));
                                  }
                                  ctx.finish(ExitOk);
                                  return;
                              }
                              case core::RefreshResult::Status::Lost:
                                  report(ctx, store, QStringLiteral("lost"),
                                         QStringLiteral("%1 lost its slot: %2").arg(holderId, r.error));
                                  return;
                              case core::RefreshResult::Status::Error:
                                  report(ctx, store, QStringLiteral("error"), r.error);
                                  return;
                              }
                          });
        });
    }

private:
    static void report(CliContext &ctx, core::SemaphoreStore &store, const QString &status,
                       const QString &message) {
        if (ctx.json())
            ctx.printJson(
                QJsonObject{{QStringLiteral("status"), status}, {QStringLiteral("message"), message}});
        ctx.failOperation(store.endpoint(), message);
    }

    qint64 m_ttlMs = 30000;
};

} // namespace

std::unique_ptr<CliCommand> makeRefreshCommand() {
    return std::make_unique<RefreshCommand>();
}

} // namespace semscope::cli
