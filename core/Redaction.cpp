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
    // "user:password@": the user name stays, it helps to tell connections apart. User info without
    // a ':' may be a token or a password given alone (redis://s3cret@host): all of it goes.
    const qsizetype colon = url.indexOf(QLatin1Char(':'), userStart);
    const qsizetype secretStart = colon >= 0 && colon < at ? colon + 1 : userStart;
    return url.left(secretStart) + QStringLiteral("***") + url.mid(at);
}

} // namespace semscope::core
