#include "WatchOptionsFromCli.h"

#include "MatchOption.h"
#include "SemaphoreCommand.h"
#include "core/Kind.h"

namespace semscope::cli {

std::optional<monitor::WatchOptions> watchOptionsFromCli(CliContext &ctx) {
    monitor::WatchOptions options;
    std::optional<MatchOption> match;
    if (!matchOptionFromCli(ctx, &match))
        return std::nullopt;
    if (match) {
        options.match = match->scanPattern();
        options.accept = [m = *match](const core::DiscoveredSemaphore &d) { return m.accepts(d); };
    }
    if (ctx.isSet(QStringLiteral("kind"))) {
        options.kind = core::kindFromName(ctx.value(QStringLiteral("kind")));
        if (!options.kind) {
            ctx.fail(ExitUsage, {},
                     QStringLiteral("--kind: unknown kind '%1'").arg(ctx.value(QStringLiteral("kind"))));
            return std::nullopt;
        }
    }
    const auto interval = durationOption(ctx, QStringLiteral("interval"), 1000);
    if (!interval)
        return std::nullopt;
    if (*interval < 50) {
        ctx.fail(ExitUsage, {}, QStringLiteral("--interval: at least 50ms"));
        return std::nullopt;
    }
    options.intervalMs = *interval;
    return options;
}

} // namespace semscope::cli
