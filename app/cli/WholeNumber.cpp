#include "WholeNumber.h"

#include "CliContext.h"

#include <QRegularExpression>

namespace semscope::cli {

std::optional<qint64> parseWholeNumber(const QString &text, qint64 min, qint64 max) {
    bool ok = false;
    const qint64 value = text.toLongLong(&ok);
    if (!ok || value < min || value > max)
        return std::nullopt;
    return value;
}

QString wholeNumberError(const QString &what, const QString &text, qint64 min, qint64 max) {
    const QString range = max == std::numeric_limits<qint64>::max()
                              ? QStringLiteral("of at least %1").arg(min)
                              : QStringLiteral("from %1 to %2").arg(min).arg(max);
    // A number is said as typed ("not -1"); anything else is quoted, so that an empty or
    // blank value still shows.
    static const QRegularExpression number(QStringLiteral("^[-+]?[0-9]+([.,][0-9]+)?$"));
    const QString typed = number.match(text).hasMatch() ? text : QStringLiteral("'%1'").arg(text);
    return QStringLiteral("%1 must be a whole number %2, not %3").arg(what, range, typed);
}

std::optional<qint64> wholeNumberArgument(CliContext &ctx, const QString &what, const QString &text,
                                          qint64 min, qint64 max) {
    const std::optional<qint64> value = parseWholeNumber(text, min, max);
    if (!value)
        ctx.fail(ExitUsage, {}, wholeNumberError(what, text, min, max));
    return value;
}

std::optional<qint64> wholeNumberOption(CliContext &ctx, const QString &option, qint64 fallback, qint64 min,
                                        qint64 max) {
    if (!ctx.isSet(option))
        return fallback;
    return wholeNumberArgument(ctx, QStringLiteral("--") + option, ctx.value(option), min, max);
}

} // namespace semscope::cli
