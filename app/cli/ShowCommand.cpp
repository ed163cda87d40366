#include "SemaphoreCommand.h"
#include "SnapshotJson.h"
#include "SnapshotText.h"
#include "monitor/HistoryStore.h"
#include "monitor/SeenHolders.h"

#include <QDateTime>

namespace semscope::cli {

namespace {

// `show NAME`: one consistent read of a semaphore, holders with slot/rank/token/TTL/state.
class ShowCommand : public SemaphoreCommand {
public:
    QString name() const override { return QStringLiteral("show"); }
    QString summary() const override {
        return QStringLiteral("Show a semaphore's limit, holders, TTLs and warnings.");
    }
    QString usage() const override { return QStringLiteral("NAME [--kind K] [--limit N] [--timeout DUR]"); }
    QList<QCommandLineOption> options() const override {
        return {kindOption(), limitOption(), timeoutOption()};
    }

protected:
    void run(CliContext &ctx, core::SemaphoreStore &store, const core::SemaphoreRef &ref) override {
        store.snapshot(ref, [&ctx, &store](core::Snapshot snap) {
            if (snap.serverNowMs <= 0 && !snap.warnings.isEmpty() && snap.holders.isEmpty()) {
                ctx.failOperation(store.endpoint(), snap.warnings.constFirst());
                return;
            }
            // What was seen goes into the shared history: a lease-less holder's age counts from the
            // first time any semscope process saw it, so `show` flags a stuck one too.
            monitor::HistoryStore history;
            if (!history.isAvailable())
                ctx.err() << QStringLiteral("semscope-cli: %1\n").arg(history.warning());
            monitor::stampFromHistory(history, store.endpoint(), snap, QDateTime::currentMSecsSinceEpoch());
            // Whether each holder's client is still there: the first question about a stuck slot.
            store.readClientLiveness(snap.holders, {},
                                     [&ctx, snap](const QHash<QString, core::HolderClientLiveness> &clients) {
                                         if (ctx.json()) {
                                             ctx.printJson(snapshotToJson(snap, clients));
                                         } else {
                                             ctx.out() << snapshotText(snap, clients);
                                         }
                                         ctx.finish(ExitOk);
                                     });
        });
    }
};

} // namespace

std::unique_ptr<CliCommand> makeShowCommand() {
    return std::make_unique<ShowCommand>();
}

} // namespace semscope::cli
