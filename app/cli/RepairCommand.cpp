#include "SemaphoreCommand.h"
#include "SnapshotJson.h"

namespace semscope::cli {

namespace {

// `repair NAME`: puts a semaphore's keys back into a consistent state (re-pushes leaked `slots`,
// drops duplicates, removes orphan records), as one atomic script.
class RepairCommand : public SemaphoreCommand {
public:
    QString name() const override { return QStringLiteral("repair"); }
    QString summary() const override {
        return QStringLiteral(
            "Make a semaphore's keys consistent again (leaked or duplicated slots, orphan records).");
    }
    QString usage() const override { return QStringLiteral("NAME [--kind K] [--limit N]"); }
    QList<QCommandLineOption> options() const override { return {kindOption(), limitOption()}; }

protected:
    void run(CliContext &ctx, core::SemaphoreStore &store, const core::SemaphoreRef &ref) override {
        store.repair(ref, [&ctx, &store](const core::MaintenanceResult &r) {
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

std::unique_ptr<CliCommand> makeRepairCommand() {
    return std::make_unique<RepairCommand>();
}

} // namespace semscope::cli
