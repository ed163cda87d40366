#include "SemaphoreCommand.h"
#include "SnapshotJson.h"

namespace semscope::cli {

namespace {

// `purge NAME`: removes holders whose lease ran out (and dead waiters) right now.
class PurgeCommand : public SemaphoreCommand {
public:
    QString name() const override { return QStringLiteral("purge"); }
    QString summary() const override { return QStringLiteral("Remove expired holders now."); }
    QString usage() const override { return QStringLiteral("NAME [--kind K] [--timeout DUR]"); }
    QList<QCommandLineOption> options() const override { return {kindOption(), timeoutOption()}; }

protected:
    void run(CliContext &ctx, core::SemaphoreStore &store, const core::SemaphoreRef &ref) override {
        store.purgeExpired(ref, [&ctx, &store](const core::MaintenanceResult &r) {
            if (ctx.json())
                ctx.printJson(maintenanceToJson(r));
            if (!r.ok) {
                ctx.failOperation(store.endpoint(), r.message);
                return;
            }
            if (!ctx.json())
                ctx.out() << r.message << '\n';
            ctx.finish(ExitOk);
        });
    }
};

} // namespace

std::unique_ptr<CliCommand> makePurgeCommand() {
    return std::make_unique<PurgeCommand>();
}

} // namespace semscope::cli
