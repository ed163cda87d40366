#include "ConnectionSettings.h"

#include "core/Redaction.h"
#include "transport/Logging.h"
#include "transport/ReplyReader.h"

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

QString shownHost(const QString &host) {
    return host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host;
}

// redis+sentinel://[user[:password]@]host[:port][,host[:port]...]/MASTER[/db]. QUrl takes one host
// only, so the authority is split by hand; each address is then checked by QUrl.
std::optional<ConnectionSettings> fromSentinelUrl(const QString &text, const QString &scheme,
                                                  QString *error) {
    ConnectionSettings s;
    s.transport = scheme.startsWith(QLatin1String("rediss")) ? ConnectionSettings::Transport::Tls
                                                             : ConnectionSettings::Transport::Tcp;
    const QString usage =
        QStringLiteral("expected %1://[user[:password]@]host[:port][,host[:port]...]/MASTER[/db]")
            .arg(scheme);
    QString rest = text.mid(scheme.size() + 3);
    if (rest.contains(QLatin1Char('?')) || rest.contains(QLatin1Char('#'))) {
        fail(error, text, QStringLiteral("no '?' or '#' part is understood; ") + usage);
        return std::nullopt;
    }
    const qsizetype slash = rest.indexOf(QLatin1Char('/'));
    QString authority = slash < 0 ? rest : rest.left(slash);
    const QString path = slash < 0 ? QString() : rest.mid(slash + 1);
    const qsizetype at = authority.lastIndexOf(QLatin1Char('@'));
    if (at >= 0) {
        const QString userInfo = authority.left(at);
        authority = authority.mid(at + 1);
        const qsizetype colon = userInfo.indexOf(QLatin1Char(':'));
        s.user = QUrl::fromPercentEncoding((colon < 0 ? userInfo : userInfo.left(colon)).toUtf8());
        if (colon >= 0)
            s.password = QUrl::fromPercentEncoding(userInfo.mid(colon + 1).toUtf8());
    }
    if (authority.isEmpty()) {
        fail(error, text, QStringLiteral("no sentinel address; ") + usage);
        return std::nullopt;
    }
    for (const QString &address : authority.split(QLatin1Char(','))) {
        const QUrl one(QStringLiteral("redis://") + address, QUrl::StrictMode);
        if (address.isEmpty() || !one.isValid() || one.host().isEmpty() || !one.userInfo().isEmpty() ||
            !(one.path().isEmpty())) {
            fail(error, text, QStringLiteral("'%1' is not a sentinel address (host[:port])").arg(address));
            return std::nullopt;
        }
        const int port = one.port(26379);
        if (port <= 0 || port > 65535) {
            fail(error, text, QStringLiteral("port must be 1-65535"));
            return std::nullopt;
        }
        s.sentinels.append({one.host(), quint16(port)});
    }
    const QStringList parts = path.split(QLatin1Char('/'));
    if (path.isEmpty() || parts.constFirst().isEmpty()) {
        fail(error, text, QStringLiteral("no master name; ") + usage);
        return std::nullopt;
    }
    s.sentinelMaster = QUrl::fromPercentEncoding(parts.constFirst().toUtf8());
    if (parts.size() > 2 || (parts.size() == 2 && !parseDb(parts.at(1)))) {
        fail(error, text, QStringLiteral("after the master name only a database number may follow, e.g. /0"));
        return std::nullopt;
    }
    if (parts.size() == 2)
        s.db = *parseDb(parts.at(1));
    // Until the sentinels are asked: the first sentinel's host (where the master usually lives too).
    s.host = s.sentinels.constFirst().host;
    s.port = 0;
    s.sentinelPassword = qEnvironmentVariable("SEMSCOPE_SENTINEL_AUTH");
    if (s.password.isEmpty())
        s.password = qEnvironmentVariable("REDISCLI_AUTH");
    return s;
}

} // namespace

std::optional<ConnectionSettings> ConnectionSettings::fromUrl(const QString &urlText, QString *error) {
    const QString trimmed = urlText.trimmed();
    if (trimmed.isEmpty()) {
        fail(error, trimmed, QStringLiteral("empty"));
        return std::nullopt;
    }
    for (const char *scheme : {"redis+sentinel", "rediss+sentinel"}) {
        const QString name = QString::fromLatin1(scheme);
        if (trimmed.startsWith(name + QStringLiteral("://"), Qt::CaseInsensitive))
            return fromSentinelUrl(trimmed, name, error);
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
                 ? QStringLiteral("no scheme (use redis://, rediss://, redis+sentinel:// or unix://)")
                 : QStringLiteral("unknown scheme '%1' (use redis://, rediss://, redis+sentinel://, "
                                  "rediss+sentinel:// or unix://)")
                       .arg(scheme));
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
            return ReplyReader::kDefaultMaxReplyBytes;
        bool ok = false;
        const qint64 mib = text.toLongLong(&ok);
        if (!ok || mib < 1 || mib > 1024 * 1024) {
            qCWarning(lcRedisTransport).noquote()
                << QStringLiteral("SEMSCOPE_MAX_REPLY_MB must be a whole number of MiB from 1 to 1048576; "
                                  "using %1")
                       .arg(ReplyReader::kDefaultMaxReplyBytes / kMiB);
            return ReplyReader::kDefaultMaxReplyBytes;
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
    const QString scheme = transport == Transport::Tls ? QStringLiteral("rediss") : QStringLiteral("redis");
    if (usesSentinel()) {
        QStringList addresses;
        for (const SentinelAddress &a : sentinels)
            addresses << shownHost(a.host) + QLatin1Char(':') + QString::number(a.port);
        return scheme + QStringLiteral("+sentinel://") + addresses.join(QLatin1Char(',')) + QLatin1Char('/') +
               sentinelMaster + QLatin1Char('/') + QString::number(db);
    }
    return scheme + QStringLiteral("://") + shownHost(host) + QLatin1Char(':') + QString::number(port) +
           QLatin1Char('/') + QString::number(db);
}

QString ConnectionSettings::nodeAddress() const {
    if (transport == Transport::Unix)
        return socketPath;
    return shownHost(host) + QLatin1Char(':') + QString::number(port);
}

} // namespace semscope::redis
