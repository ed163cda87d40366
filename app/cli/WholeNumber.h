#pragma once

#include <QString>
#include <limits>
#include <optional>

namespace semscope::cli {

class CliContext;

// Every count an operator types (set-limit's N, --limit, --clients, --ops, --replicas...) is read
// here, so that a wrong one is said the same way everywhere, naming what was meant and what was
// typed: "--clients must be a whole number from 1 to 100000, not -2".

// `text` as a whole number from `min` to `max`; nullopt when it is not one or out of range.
std::optional<qint64> parseWholeNumber(const QString &text, qint64 min, qint64 max);
// "<what> must be a whole number of at least <min>, not <text>" (or "from <min> to <max>").
QString wholeNumberError(const QString &what, const QString &text, qint64 min,
                         qint64 max = std::numeric_limits<qint64>::max());

// `text` read as parseWholeNumber() does; when it is not one, fails the command with a usage error
// (wholeNumberError) and returns nullopt.
std::optional<qint64> wholeNumberArgument(CliContext &ctx, const QString &what, const QString &text,
                                          qint64 min, qint64 max = std::numeric_limits<qint64>::max());
// The value of --`option` read as wholeNumberArgument() does, or `fallback` when it is not given.
std::optional<qint64> wholeNumberOption(CliContext &ctx, const QString &option, qint64 fallback, qint64 min,
                                        qint64 max = std::numeric_limits<qint64>::max());

} // namespace semscope::cli
