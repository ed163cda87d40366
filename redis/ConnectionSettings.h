#pragma once

#include <QList>
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

    // Cluster: discovery reads each master's replicas (READONLY) instead of the master, to spare
    // the masters on a busy service. What it finds can lag the master by the replica's offset; every
    // write still goes to the master.
    bool discoverFromReplicas = false;
    // Sends READONLY in the handshake (every reconnect too). Set by the Cluster topology on its
    // connections to replicas only: a replica then answers reads of its master's slots instead of
    // redirecting them. Never set from a URL.
    bool clusterReadOnly = false;

    // 512 MiB, or SEMSCOPE_MAX_REPLY_MB from the environment (a whole number of MiB, at least 1).
    static qint64 defaultMaxReplyBytes();

    // Sentinel (redis+sentinel://, rediss+sentinel://): the server is the master that these
    // sentinels name; host and port above are only where it was last found. The sentinels are
    // reached with the same transport and TLS files, but with their own password (user info in the
    // URL is for the data nodes).
    struct SentinelAddress {
        QString host;
        quint16 port = 26379;
    };
    QList<SentinelAddress> sentinels;
    QString sentinelMaster;   // the name the sentinels monitor
    QString sentinelPassword; // the sentinels' own requirepass; empty: none
    bool usesSentinel() const { return !sentinels.isEmpty(); }

    // redis://[user[:password]@]host[:port][,host[:port]...][/db] (Cluster seed nodes after the
    // first), rediss://... (TLS), unix:///path.sock[?db=N],
    // redis+sentinel://[user[:password]@]host[:port][,host[:port]...]/MASTER[/db] (rediss+sentinel
    // for TLS; sentinel port default 26379; the sentinel password from SEMSCOPE_SENTINEL_AUTH).
    static std::optional<ConnectionSettings> fromUrl(const QString &url, QString *error = nullptr);
    // "redis://host:port/db", "rediss://...", "unix:///path", "redis+sentinel://h:p,h:p/MASTER/db":
    // safe to show and log; for Sentinel it names the group, not the master of the moment.
    QString endpoint() const;
    // The data node as "host:port" (for Sentinel: where the master was last found).
    QString nodeAddress() const;
};

} // namespace semscope::redis
