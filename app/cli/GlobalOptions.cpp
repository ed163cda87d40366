#include "GlobalOptions.h"

namespace semscope::cli {

QList<QCommandLineOption> globalOptions() {
    return {
        {QStringLiteral("redis"),
         QStringLiteral("Redis to use: redis://[user[:password]@]host[:port][/db], rediss://... (TLS), "
                        "unix:///path.sock[?db=N] or redis+sentinel://host:port[,host:port...]/MASTER[/db] "
                        "(rediss+sentinel:// for TLS). Password also from REDISCLI_AUTH."),
         QStringLiteral("URL")},
        {QStringLiteral("sentinel-password"),
         QStringLiteral("Password of the sentinels themselves (redis+sentinel:// only; the URL's password is "
                        "the data nodes'). Also from SEMSCOPE_SENTINEL_AUTH, which keeps it out of the "
                        "process list."),
         QStringLiteral("PASSWORD")},
        {QStringLiteral("consul"),
         QStringLiteral("Consul HTTP API to use, e.g. http://127.0.0.1:8500 (default from CONSUL_HTTP_ADDR). "
                        "ACL token from CONSUL_HTTP_TOKEN."),
         QStringLiteral("URL")},
        {QStringLiteral("tls-ca"), QStringLiteral("CA certificate (PEM) to verify the server with."),
         QStringLiteral("FILE")},
        {QStringLiteral("tls-cert"), QStringLiteral("Client certificate (PEM)."), QStringLiteral("FILE")},
        {QStringLiteral("tls-key"), QStringLiteral("Client private key (PEM)."), QStringLiteral("FILE")},
        {QStringLiteral("tls-insecure"), QStringLiteral("Do not verify the server certificate (warns).")},
        {QStringLiteral("from-replicas"),
         QStringLiteral(
             "Redis Cluster: find and read semaphores on each master's replica (READONLY) to spare "
             "the masters; a master without a replica that answers is read itself. Writes always "
             "go to the master. Ignored (with a note) elsewhere.")},
        {QStringLiteral("json"), QStringLiteral("Print machine-readable JSON on stdout.")},
    };
}

} // namespace semscope::cli
