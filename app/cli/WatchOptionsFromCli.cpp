#include "WatchOptionsFromCli.h"

#include "SemaphoreCommand.h"
#include "core/Kind.h"

#include <QRegularExpression>
#include <algorithm>

namespace semscope::cli {

std::optional<monitor::WatchOptions> watchOptionsFromCli(CliContext &ctx) {
    monitor::WatchOptions options;
    if (ctx.isSet(QStringLiteral("match"))) {
        const QString glob = ctx.value(QStringLiteral("match"));
        const QRegularExpression filter(QRegularExpression::wildcardToRegularExpression(glob));
        options.match = glob.startsWith(QLatin1Char('*')) ? glob : QString(QLatin1Char('*') + glob);
        if (!options.match.endsWith(QLatin1Char('*')))
            options.match += QLatin1Char('*');
        options.accept = [filter](const core::DiscoveredSemaphore &d) {
            return filter.match(d.ref.name).hasMatch() ||
                   std::any_of(d.keys.cbegin(), d.keys.cend(),
                               [&filter](const QString &k) { return filter.match(k).hasMatch(); });
        };
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
