#include "MatchOption.h"

#include "CliContext.h"

#include <algorithm>

namespace semscope::cli {

MatchOption::MatchOption(const QString &glob)
    : m_scan(core::GlobPattern::containing(glob))
    , m_glob(glob) {}

bool MatchOption::accepts(const core::DiscoveredSemaphore &found) const {
    return m_glob.matches(found.ref.name) ||
           std::any_of(found.keys.cbegin(), found.keys.cend(),
                       [this](const QString &key) { return m_glob.matches(key); });
}

bool matchOptionFromCli(CliContext &ctx, std::optional<MatchOption> *match) {
    match->reset();
    if (!ctx.isSet(QStringLiteral("match")))
        return true;
    const QString glob = ctx.value(QStringLiteral("match"));
    if (const QString problem = core::GlobPattern::problem(glob); !problem.isEmpty()) {
        ctx.fail(ExitUsage, {}, QStringLiteral("--match '%1': %2").arg(glob, problem));
        return false;
    }
    match->emplace(glob);
    return true;
}

} // namespace semscope::cli
