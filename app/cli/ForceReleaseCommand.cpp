#include "SemaphoreCommand.h"
#include "SnapshotJson.h"
#include "SnapshotText.h"

#include "monitor/HistoryStore.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonObject>
#include <QSysInfo>
#include <QTextStream>
#include <cstdio>
#include <unistd.h>

namespace semscope::cli {

namespace {

// `force-release NAME HOLDER`: the operator's override, always compare-and-act. The holder is read
// first; --expect-token / --expect-slot pin what the operator saw earlier (if the holder has moved
// on since, nothing is done and the answer is "changed"). Without --yes it asks on a terminal.
class ForceReleaseCommand : public SemaphoreCommand {
public:
    QString name() const override { return QStringLiteral("force-release"); }
    QString summary() const override {
        return QStringLiteral(
            "Remove a holder only if it is still the one you saw (exit 1 if it changed or is gone).");
    }
    QString usage() const override {
        return QStringLiteral("NAME HOLDER [--kind K] [--expect-token T | --expect-slot S] [--yes]");
    }
    QList<QCommandLineOption> options() const override {
        return {kindOption(),
                {QStringLiteral("expect-token"), QStringLiteral("Only if the holder still has this token."),
                 QStringLiteral("T")},
                {QStringLiteral("expect-slot"), QStringLiteral("Only if the holder still has this slot."),
                 QStringLiteral("S")},
                {QStringLiteral("yes"), QStringLiteral("Do not ask for confirmation.")}};
    }

protected:
    int argumentCount() const override { return 2; }

    bool validate(CliContext &ctx) override {
        const bool token = ctx.isSet(QStringLiteral("expect-token"));
        const bool slot = ctx.isSet(QStringLiteral("expect-slot"));
        if (token && slot) {
            ctx.fail(ExitUsage, {}, QStringLiteral("give --expect-token or --expect-slot, not both"));
            return false;
        }
        for (const QString &option : {QStringLiteral("expect-token"), QStringLiteral("expect-slot")}) {
            if (!ctx.isSet(option))
                continue;
            bool ok = false;
            const qint64 v = ctx.value(option).toLongLong(&ok);
            if (!ok) {
                ctx.fail(ExitUsage, {},
                         QStringLiteral("--%1: '%2' is not an integer").arg(option, ctx.value(option)));
                return false;
            }
            (option == QLatin1String("expect-token") ? m_expectToken : m_expectSlot) = v;
        }
        if (!ctx.isSet(QStringLiteral("yes")) && !isatty(STDIN_FILENO)) {
            ctx.fail(ExitUsage, {}, QStringLiteral("force-release needs --yes when stdin is not a terminal"));
            return false;
        }
        return true;
    }

    void run(CliContext &ctx, core::SemaphoreStore &store, const core::SemaphoreRef &ref) override {
        const QString holderId = ctx.args().at(1);
        store.snapshot(ref, [this, &ctx, &store, holderId](const core::Snapshot &snap) {
            const core::Holder *seen = findHolder(snap, holderId);
            if (!seen) {
                report(ctx, store, core::ForceReleaseResult::Status::Gone,
                       notHeldText(snap, holderId) + QStringLiteral("; nothing was done"), nullptr, 0);
                return;
            }
            if ((m_expectToken && !seen->token) || (m_expectSlot && !seen->slot)) {
                // Only a layout that records acquisitions can pin one (for slots: those semscope
                // created), and only one that numbers its slots a slot; saying "changed" here would
                // be a guess, and the option cannot be honoured: refused, with what can be pinned.
                const QString what = m_expectToken ? QStringLiteral("token") : QStringLiteral("slot number");
                const QString instead = seen->token  ? QStringLiteral("use --expect-token")
                                        : seen->slot ? QStringLiteral("use --expect-slot")
                                                     : QStringLiteral("it can only be named by its id");
                report(ctx, store, core::ForceReleaseResult::Status::Error,
                       QStringLiteral(
                           "%1 has no %2 in %3 (its layout records none for it); %4; nothing was done")
                           .arg(holderId, what, snap.ref.name, instead),
                       seen, snap.serverNowMs);
                return;
            }
            if ((m_expectToken && seen->token != m_expectToken) ||
                (m_expectSlot && seen->slot != m_expectSlot)) {
                report(ctx, store, core::ForceReleaseResult::Status::Changed,
                       QStringLiteral("%1 no longer has the expected %2; nothing was done")
                           .arg(holderId, m_expectToken ? QStringLiteral("token") : QStringLiteral("slot")),
                       seen, snap.serverNowMs);
                return;
            }
            if (!ctx.isSet(QStringLiteral("yes")) && !confirm(ctx, snap, *seen)) {
                ctx.fail(ExitFailed, store.endpoint(), QStringLiteral("not confirmed; nothing was done"));
                return;
            }
            const core::Holder observed = *seen;
            const qint64 now = snap.serverNowMs;
            // Marked in the shared history before the write, so a `watch` or the app seeing the holder
            // gone calls it force-released (and by whom); the mark goes again if nothing was removed.
            auto history = std::make_shared<monitor::HistoryStore>();
            const auto mark = history->markForceRelease(store.endpoint(), snap.ref, observed.id, origin(),
                                                        QDateTime::currentMSecsSinceEpoch());
            store.forceRelease(
                snap.ref, observed, snap.version,
                [&ctx, &store, observed, now, history, mark](const core::ForceReleaseResult &r) {
                    const QString unmarked = history->settleForceRelease(
                        mark, r.status == core::ForceReleaseResult::Status::Released);
                    if (!unmarked.isEmpty())
                        ctx.warn({unmarked});
                    report(ctx, store, r.status, r.message, &observed, now);
                });
        });
    }

private:
    static QString origin() {
        return monitor::HistoryStore::originOfThisProcess(QStringLiteral("semscope-cli"));
    }

    static bool confirm(CliContext &ctx, const core::Snapshot &snap, const core::Holder &holder) {
        ctx.err() << holdersTable({holder}, snap.serverNowMs)
                  << QStringLiteral("Force-release %1 from %2? Type yes: ").arg(holder.id, snap.ref.name);
        ctx.err().flush();
        QTextStream in(stdin);
        const QString answer = in.readLine().trimmed().toLower();
        return answer == QLatin1String("yes") || answer == QLatin1String("y");
    }

    static void report(CliContext &ctx, core::SemaphoreStore &store, core::ForceReleaseResult::Status status,
                       const QString &message, const core::Holder *observed, qint64 now) {
        if (ctx.json()) {
            QJsonObject o{{QStringLiteral("status"), core::forceReleaseStatusName(status)},
                          {QStringLiteral("message"), message}};
            if (observed)
                o.insert(QStringLiteral("observed"), holderToJson(*observed, now));
            ctx.printJson(o);
        }
        if (status == core::ForceReleaseResult::Status::Released) {
            if (!ctx.json())
                ctx.out() << message << '\n';
            ctx.finish(ExitOk);
            return;
        }
        ctx.failOperation(store.endpoint(),
                          QStringLiteral("%1: %2").arg(core::forceReleaseStatusName(status), message));
    }

    std::optional<qint64> m_expectToken;
    std::optional<qint64> m_expectSlot;
};

} // namespace

std::unique_ptr<CliCommand> makeForceReleaseCommand() {
    return std::make_unique<ForceReleaseCommand>();
}

} // namespace semscope::cli
