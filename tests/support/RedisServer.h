#pragma once

#include "redis/ConnectionSettings.h"
#include "redis/RedisReply.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>
#include <memory>

namespace semscope::redis {
class RedisConnection;
}

namespace semscope::test {

class TlsMaterial;

// A real redis-server for tests: started on a free loopback port in its own temporary directory,
// without persistence, and always stopped by PID (never by name, so parallel test runs do not hurt
// each other). The process itself is a redis::LocalRedisProcess (the launcher the demo and the
// training scenarios use); this class adds TLS material, Unix socket, ACL and a synchronous
// command helper.
//
// Options:
// - tls: only the TLS port listens (`--port 0 --tls-port P`); a CA, a server certificate (SAN
//   127.0.0.1, ::1, localhost) and a client certificate are made with openssl at start. The server
//   requires client certificates (Redis' default), settings() carries them.
// - unixSocket: the server also listens on <dir>/redis.sock; url() and settings() use it.
// - aclUser/aclPassword: an ACL user with every permission is created and the `default` user is
//   switched off, so an unauthenticated connection gets NOAUTH. settings() carries the credentials.
// - extraArgs: appended to the redis-server command line (e.g. "--maxmemory", "10mb").
//
// DEBUG is enabled for local connections (`--enable-debug-command local`) so tests can make the
// server slow (DEBUG SLEEP).
class RedisServer {
public:
    struct Options {
        bool tls = false;
        bool unixSocket = false;
        QString aclUser;
        QString aclPassword;
        QStringList extraArgs;
        // A Redis Cluster node: --cluster-enabled yes, its nodes.conf in its directory, a port of
        // at most 55535 whose bus port (port + 10000) is free too. With tls, the bus and
        // replication use TLS as well.
        bool cluster = false;
        // With tls: use the CA and certificates already made in this directory (by another
        // server's start) instead of a new PKI, so that servers and clients trust each other.
        QString tlsMaterialDir;
    };

    RedisServer();
    ~RedisServer(); // stops the server (by PID)
    RedisServer(const RedisServer &) = delete;
    RedisServer &operator=(const RedisServer &) = delete;

    // Picks a free loopback port, makes a temporary directory, starts redis-server and waits until
    // it answers PING. False (and errorString()) on failure.
    bool start(const Options &options);
    bool start(); // plain TCP, no ACL
    // Starts as a replica of `master` (--replicaof) and waits until the master's writes reach it. False (and
    // errorString()) if it did not start or did not come online.
    bool startReplicaOf(RedisServer &master);
    // Waits until this master's writes reach `replicas` replicas: a message published here (it
    // travels down the replication stream without touching the keyspace) is acknowledged by that
    // many (WAIT). A replica fresh from a diskless full sync says its link is up at once, but the
    // master starts streaming to it only at its next acknowledgement, up to a second later; a
    // failover in that second would lose every write made in it.
    bool waitForReplicaStream(int replicas, int timeoutMs = 15000);
    // SIGTERM by PID and wait; SIGKILL if it does not go.
    void stop();
    // SIGKILL by PID (a crash); the directory and port stay for restart().
    void kill();
    // SIGSTOP: the process stays but reads and answers nothing (a hung server), until resume(),
    // kill() or stop(). Commands sent meanwhile are in flight for certain, however soon the client
    // writes them.
    void suspend();
    void resume();
    // Starts again on the same port with the same options (and TLS material).
    bool restart();
    bool isRunning() const;
    qint64 pid() const;

    quint16 port() const;
    QString host() const; // "127.0.0.1"
    QString unixSocketPath() const;
    // redis://127.0.0.1:<port>, rediss://127.0.0.1:<port> with tls, unix://<path> with unixSocket.
    // Credentials are not part of it.
    QString url() const;
    // Ready-to-use settings: transport, TLS files, ACL user and password.
    redis::ConnectionSettings settings() const;

    QString caFile() const;
    QString certFile() const;
    QString keyFile() const;
    QString directory() const;
    // Where the TLS material (CA, certificates, keys) is; for other servers' tlsMaterialDir.
    QString tlsMaterialDirectory() const;
    QString errorString() const;
    // The last 64 KiB the server logged: for a test's failure message.
    QByteArray log() const;

    // Synchronous helper for test set-up and inspection only: runs one command on a private
    // connection with its own event loop (10 s timeout). Transport failures come back as
    // TransportError replies.
    redis::RedisReply command(const QList<QByteArray> &args);

private:
    bool answersPing();
    QStringList arguments() const;

    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace semscope::test
