#include "MatchOption.h"

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

} // namespace semscope::cli
