#include "FailoverScenario.h"

#include "CliCommand.h"
#include "training/FailoverLostLock.h"

namespace semscope::cli {

void runFailoverLostLock(CliContext &ctx) {
    const QString scenario = redis::FailoverLostLock::scenarioName();
    if (ctx.args().size() != 1)
        return ctx.fail(ExitUsage, {},
                        QStringLiteral("usage: semscope-cli loadtest NAME --scenario %1").arg(scenario));
    // Its servers are its own: a --redis would suggest it touches that one.
    for (const QString &option : {QStringLiteral("redis"), QStringLiteral("consul"), QStringLiteral("kind"),
                                  QStringLiteral("replicas")}) {
        if (ctx.isSet(option))
            return ctx.fail(ExitUsage, {},
                            QStringLiteral("--scenario %1 starts its own master, replica and sentinel and "
                                           "runs both sides itself: drop --%2")
                                .arg(scenario, option));
    }
    const bool json = ctx.json();
    const auto progress = [&ctx, json](const QString &line) {
        if (json)
            return;
        ctx.err() << line << '\n';
        ctx.err().flush();
    };
    const redis::FailoverLostLock::Report report =
        redis::FailoverLostLock::run(ctx.args().constFirst(), progress);
    if (json) {
        ctx.printJson(report.toJson());
    } else {
        ctx.out() << redis::FailoverLostLock::title() << "\n\n"
                  << redis::FailoverLostLock::explanation() << "\n\n"
                  << "naive (grants trusted on asynchronous replication)\n"
                  << report.naive.summaryText() << "replica-acknowledged (--replicas 1)\n"
                  << report.safe.summaryText();
    }
    for (const auto *side : {&report.naive, &report.safe}) {
        if (!side->ok())
            return ctx.fail(
                ExitFailed, {},
                QStringLiteral("scenario %1, %2 side: %3").arg(scenario, side->label, side->error));
    }
    if (report.safe.overAdmissions > 0 || report.safe.tokenViolations > 0)
        return ctx.fail(
            ExitFailed, {},
            QStringLiteral("scenario %1: the replica-acknowledged side over-admitted").arg(scenario));
    ctx.finish(ExitOk);
}

} // namespace semscope::cli
