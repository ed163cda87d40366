#include "Redaction.h"

namespace semscope::core {

QString redactedUrl(const QString &url) {
    const qsizetype schemeEnd = url.indexOf(QStringLiteral("://"));
    const qsizetype userStart = schemeEnd < 0 ? 0 : schemeEnd + 3;
    // The last '@' ends the user info: a password may hold '/', '?', '#' and even '@' unencoded,
    // so no character after the scheme can be trusted to end the authority first.
    const qsizetype at = url.lastIndexOf(QLatin1Char('@'));
    if (at < userStart)
        return url;
    const qsizetype colon = url.indexOf(QLatin1Char(':'), userStart);
    if (colon < 0 || colon > at)
        return url; // a user name alone is not a secret
    return url.left(colon + 1) + QStringLiteral("***") + url.mid(at);
}

} // namespace semscope::core
