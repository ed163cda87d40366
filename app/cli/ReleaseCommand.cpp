#include "SemaphoreCommand.h"

#include <QJsonObject>

namespace semscope::cli {

namespace {

// `release NAME HOLDER`: the holder's own release (compare-and-delete on its token or slot).
class ReleaseCommand : public SemaphoreCommand {
public:
    QString name() const override { return QStringLiteral("release"); }
    QString summary() const override {
        return QStringLiteral("Release a holder's slot; exits 1 if it was not held.");
    }
    QString usage() const override { return QStringLiteral("NAME HOLDER [--kind K]"); }
    QList<QCommandLineOption> options() const override { return {kindOption()}; }

protected:
    int argumentCount() const override { return 2; }

    void run(CliContext &ctx, core::SemaphoreStore &store, const core::SemaphoreRef &ref) override {
        const QString holderId = ctx.args().at(1);
        store.snapshot(ref, [&ctx, &store, holderId](const core::Snapshot &snap) {
            const core::Holder *h = findHolder(snap, holderId);
            if (!h) {
                report(ctx, store, QStringLiteral("not-held"), notHeldText(snap, holderId));
                return;
            }
            store.release(grantFor(snap, *h), [&ctx, &store, holderId](const core::ReleaseResult &r) {
                switch (r.status) {
                case core::ReleaseResult::Status::Ok:
                    if (ctx.json())
                        ctx.printJson(QJsonObject{{QStringLiteral("status"), QStringLiteral("released")},
                                                  {QStringLiteral("holder"), holderId}});
                    else
                        ctx.out() << QStringLiteral("released %1\n").arg(holderId);
                    ctx.finish(ExitOk);
                    return;
                case core::ReleaseResult::Status::NotHeld:
                    report(ctx, store, QStringLiteral("not-held"),
                           QStringLiteral("%1: %2").arg(holderId, r.error));
                    return;
                case core::ReleaseResult::Status::Error:
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
};

} // namespace

std::unique_ptr<CliCommand> makeReleaseCommand() {
    return std::make_unique<ReleaseCommand>();
}

} // namespace semscope::cli
