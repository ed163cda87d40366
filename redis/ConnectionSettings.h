#pragma once

#include <QString>
#include <QStringList>
#include <optional>

namespace semscope::redis {

// Everything needed to reach one Redis server. Built from a URL or from the connection dialog.
// The password is kept here but never printed: endpoint() and describe() leave it out.
struct ConnectionSettings {
    enum class Transport { Tcp, Tls, Unix };

    Transport transport = Transport::Tcp;
    QString host = QStringLiteral("127.0.0.1");
    quint16 port = 6379;
    QString socketPath; // Unix
    // Further Cluster nodes ("host:port") given after the first one, comma-separated, in the URL:
    // asked for the slot map when the first one does not answer. Same credentials and TLS.
    QStringList seedNodes;
    int db = 0;
    QString user;     // ACL user; empty means "default"
    QString password; // empty: no AUTH (REDISCLI_AUTH is consulted by fromUrl)

    // TLS
    QString caFile;
    QString certFile;
    QString keyFile;
    bool tlsInsecure = false; // skip certificate verification (warns every time it connects)
    QString sniHost;          // empty: the host name

    QString clientName = QStringLiteral("semscope");
    int connectTimeoutMs = 5000;
    int commandTimeoutMs = 10000; // 0: none (blocking commands manage their own)
    bool autoReconnect = true;
    // The largest reply accepted; a bigger one (or one claiming to be bigger) fails the connection
    // with a protocol error before it is read whole. See defaultMaxReplyBytes().
    qint64 maxReplyBytes = defaultMaxReplyBytes();

    // 512 MiB, or SEMSCOPE_MAX_REPLY_MB from the environment (a whole number of MiB, at least 1).
    static qint64 defaultMaxReplyBytes();

    // redis://[user[:password]@]host[:port][,host[:port]...][/db], rediss://... (TLS),
    // unix:///path.sock[?db=N]
    static std::optional<ConnectionSettings> fromUrl(const QString &url, QString *error = nullptr);
    // "redis://host:port/db", "rediss://...", "unix:///path": safe to show and log.
    QString endpoint() const;
};

} // namespace semscope::redis
