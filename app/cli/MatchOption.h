#pragma once

#include "core/GlobPattern.h"
#include "core/SemaphoreStore.h"

#include <optional>

namespace semscope::cli {

class CliContext;

// `--match GLOB` of list, watch and serve (core::GlobPattern's syntax). GLOB names semaphores
// (`orders*`) or keys (`{orders}:*`): the store scans for every key that contains a match, and a
// semaphore found is kept when its name or one of its keys matches the whole glob.
class MatchOption {
public:
    explicit MatchOption(const QString &glob);

    // The pattern handed to the store's discovery.
    const QString &scanPattern() const { return m_scan; }
    bool accepts(const core::DiscoveredSemaphore &found) const;

private:
    QString m_scan;
    core::GlobPattern m_glob;
};

// The --match of `ctx` into `match` (left empty when not given). A glob that cannot mean what was
// typed (core::GlobPattern::problem: `--match '['` would silently find nothing) fails the command
// with a usage error and returns false.
bool matchOptionFromCli(CliContext &ctx, std::optional<MatchOption> *match);

} // namespace semscope::cli
