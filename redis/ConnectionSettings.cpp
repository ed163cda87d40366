#include "ConnectionSettings.h"

#include "core/Redaction.h"
#include "transport/Logging.h"
#include "transport/RespParser.h"

#include <QUrl>
#include <QUrlQuery>
#include <QtGlobal>
#include <algorithm>

namespace semscope::redis {

namespace {

bool fail(QString *error, const QString &url, const QString &what) {
    if (error)
        *error = QStringLiteral("malformed Redis URL '%1': %2").arg(core::redactedUrl(url), what);
    return false;
}

std::optional<int> parseDb(const QString &text) {
    bool ok = false;
    const int db = text.toInt(&ok);
    if (!ok || db < 0)
        return std::nullopt;
    return db;
}

// "redis://u:p@h1:1,h2:2,h3/0" -> "redis://u:p@h1:1/0" and seeds {"h2:2", "h3:6379"}: Cluster seed
// nodes, tried in turn when the first one does not answer. Empty when a seed is malformed.
std::optional<QString> splitSeedNodes(const QString &url, QStringList *seeds) {
    const qsizetype schemeEnd = url.indexOf(QLatin1String("://"));
    if (schemeEnd < 0)
        return url;
    const qsizetype hostStart = schemeEnd + 3;
    qsizetype authorityEnd = url.size();
    for (const QChar c : {QLatin1Char('/'), QLatin1Char('?'), QLatin1Char('#')}) {
        const qsizetype at = url.indexOf(c, hostStart);
        if (at >= 0)
            authorityEnd = std::min(authorityEnd, at);
    }
    const QString authority = url.mid(hostStart, authorityEnd - hostStart);
    const qsizetype at = authority.lastIndexOf(QLatin1Char('@'));
    const QString hosts = authority.mid(at + 1);
    if (!hosts.contains(QLatin1Char(',')))
        return url;
    const QStringList parts = hosts.split(QLatin1Char(','));
    for (qsizetype i = 1; i < parts.size(); ++i) {
        const QUrl seed(QStringLiteral("redis://") + parts.at(i), QUrl::StrictMode);
        if (!seed.isValid() || seed.host().isEmpty() || seed.port(6379) <= 0 || !seed.path().isEmpty())
            return std::nullopt;
        *seeds << seed.host() + QLatin1Char(':') + QString::number(seed.port(6379));
    }
    return url.left(hostStart) + authority.left(at + 1) + parts.first() + url.mid(authorityEnd);
}

} // namespace

std::optional<ConnectionSettings> ConnectionSettings::fromUrl(const QString &urlText, QString *error) {
    const QString trimmed = urlText.trimmed();
    if (trimmed.isEmpty()) {
        fail(error, trimmed, QStringLiteral("empty"));
        return std::nullopt;
    }
    QStringList seeds;
    const std::optional<QString> firstNode = trimmed.startsWith(QLatin1String("redis"), Qt::CaseInsensitive)
                                                 ? splitSeedNodes(trimmed, &seeds)
                                                 : std::optional<QString>(trimmed);
    if (!firstNode) {
        fail(error, trimmed, QStringLiteral("seed nodes are host:port, separated by commas"));
        return std::nullopt;
    }
    const QUrl url(*firstNode, QUrl::StrictMode);
    if (!url.isValid()) {
        fail(error, trimmed,
             QStringLiteral("not a valid URL (expected redis://[user[:password]@]host[:port][/db])"));
        return std::nullopt;
    }
    ConnectionSettings s;
    const QString scheme = url.scheme().toLower();
    const QUrlQuery query(url);
    for (const auto &item : query.queryItems()) {
        if (item.first != QLatin1String("db")) {
            fail(error, trimmed,
                 QStringLiteral("unknown parameter '%1' (only db=N is understood)").arg(item.first));
            return std::nullopt;
        }
    }
    if (query.hasQueryItem(QStringLiteral("db"))) {
        const auto db = parseDb(query.queryItemValue(QStringLiteral("db")));
        if (!db) {
            fail(error, trimmed, QStringLiteral("db must be a number >= 0"));
            return std::nullopt;
        }
        s.db = *db;
    }
    if (url.hasFragment()) {
        fail(error, trimmed, QStringLiteral("unexpected '#' part"));
        return std::nullopt;
    }

    if (scheme == QLatin1String("unix")) {
        s.transport = Transport::Unix;
        if (!url.host().isEmpty()) {
            fail(error, trimmed, QStringLiteral("a unix URL takes an absolute path: unix:///path/to.sock"));
            return std::nullopt;
        }
        s.socketPath = url.path();
        if (s.socketPath.isEmpty() || !s.socketPath.startsWith(QLatin1Char('/')) ||
            s.socketPath.endsWith(QLatin1Char('/'))) {
            fail(error, trimmed, QStringLiteral("a unix URL takes an absolute path: unix:///path/to.sock"));
            return std::nullopt;
        }
        s.host.clear();
        s.port = 0;
    } else if (scheme == QLatin1String("redis") || scheme == QLatin1String("rediss")) {
        s.transport = scheme == QLatin1String("rediss") ? Transport::Tls : Transport::Tcp;
        s.host = url.host();
        if (s.host.isEmpty()) {
            fail(error, trimmed, QStringLiteral("no host"));
            return std::nullopt;
        }
        const int port = url.port(6379);
        if (port <= 0 || port > 65535) {
            fail(error, trimmed, QStringLiteral("port must be 1-65535"));
            return std::nullopt;
        }
        s.port = quint16(port);
        QString path = url.path();
        if (path.startsWith(QLatin1Char('/')))
            path.remove(0, 1);
        if (!path.isEmpty()) {
            if (query.hasQueryItem(QStringLiteral("db"))) {
                fail(error, trimmed, QStringLiteral("db given twice"));
                return std::nullopt;
            }
            const auto db = parseDb(path);
            if (!db) {
                fail(error, trimmed, QStringLiteral("the path must be a database number, e.g. /0"));
                return std::nullopt;
            }
            s.db = *db;
        }
        s.seedNodes = seeds;
        s.user = url.userName(QUrl::FullyDecoded);
        s.password = url.password(QUrl::FullyDecoded);
    } else {
        fail(error, trimmed,
             scheme.isEmpty()
                 ? QStringLiteral("no scheme (use redis://, rediss:// or unix://)")
                 : QStringLiteral("unknown scheme '%1' (use redis://, rediss:// or unix://)").arg(scheme));
        return std::nullopt;
    }
    // Like redis-cli: a password in the environment keeps it out of the process list.
    if (s.password.isEmpty())
        s.password = qEnvironmentVariable("REDISCLI_AUTH");
    return s;
}

qint64 ConnectionSettings::defaultMaxReplyBytes() {
    // Read once: every connection of the process gets the same limit, and a bad value is
    // reported once.
    static const qint64 bytes = [] {
        constexpr qint64 kMiB = 1024 * 1024;
        const QByteArray text = qgetenv("SEMSCOPE_MAX_REPLY_MB");
        if (text.isEmpty())
            return RespParser::kDefaultMaxReplyBytes;
        bool ok = false;
        const qint64 mib = text.toLongLong(&ok);
        if (!ok || mib < 1 || mib > 1024 * 1024) {
            qCWarning(lcRedisTransport).noquote()
                << QStringLiteral("SEMSCOPE_MAX_REPLY_MB must be a whole number of MiB from 1 to 1048576; "
                                  "using %1")
                       .arg(RespParser::kDefaultMaxReplyBytes / kMiB);
            return RespParser::kDefaultMaxReplyBytes;
        }
        return mib * kMiB;
    }();
    return bytes;
}

QString ConnectionSettings::endpoint() const {
    switch (transport) {
    case Transport::Unix: {
        QString e = QStringLiteral("unix://") + socketPath;
        if (db != 0)
            e += QStringLiteral("?db=") + QString::number(db);
        return e;
    }
    case Transport::Tcp:
    case Transport::Tls:
        break;
    }
    const QString shownHost =
        host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host;
    return (transport == Transport::Tls ? QStringLiteral("rediss://") : QStringLiteral("redis://")) +
           shownHost + QLatin1Char(':') + QString::number(port) + QLatin1Char('/') + QString::number(db);
}

} // namespace semscope::redis
