#include "SentinelResolver.h"

#include "redis/RedisConnection.h"
#include "redis/transport/Logging.h"

#include <QStringList>
#include <QTimer>

namespace semscope::redis {

namespace {
constexpr int kSentinelConnectTimeoutMs = 2000;
constexpr int kSentinelCommandTimeoutMs = 3000;
} // namespace

QString SentinelResolver::Address::text() const {
    const QString shown = host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host;
    return shown + QLatin1Char(':') + QString::number(port);
}

struct SentinelResolver::Lookup {
    std::function<void(const Result &)> done;
    int asked = 0;
    QStringList failures;
    // A child of the resolver: going with it drops its callback (and this lookup) uncalled.
    QPointer<RedisConnection> connection;
};

SentinelResolver::SentinelResolver(const ConnectionSettings &settings, QObject *parent)
    : QObject(parent)
    , m_settings(settings) {}

SentinelResolver::~SentinelResolver() {
    *m_alive = false;
}

ConnectionSettings SentinelResolver::sentinelSettings(int index) const {
    const auto &address = m_settings.sentinels.at(index % m_settings.sentinels.size());
    ConnectionSettings s = m_settings;
    s.sentinels.clear(); // a sentinel is a plain node: no resolution for it
    s.host = address.host;
    s.port = address.port;
    s.db = 0;
    s.user.clear();
    s.password = m_settings.sentinelPassword;
    s.clientName = m_settings.clientName + QStringLiteral("-sentinel");
    s.connectTimeoutMs = m_settings.connectTimeoutMs > 0
                             ? qMin(m_settings.connectTimeoutMs, kSentinelConnectTimeoutMs)
                             : kSentinelConnectTimeoutMs;
    s.commandTimeoutMs = kSentinelCommandTimeoutMs;
    s.autoReconnect = false;
    return s;
}

void SentinelResolver::resolve(std::function<void(const Result &)> done) {
    auto lookup = std::make_shared<Lookup>();
    lookup->done = std::move(done);
    askNext(lookup);
}

void SentinelResolver::askNext(std::shared_ptr<Lookup> lookup) {
    const int count = int(m_settings.sentinels.size());
    if (lookup->asked >= count) {
        if (lookup->connection)
            lookup->connection->deleteLater();
        Result r;
        r.error = QStringLiteral("no sentinel named the master '%1': %2")
                      .arg(m_settings.sentinelMaster, lookup->failures.join(QStringLiteral("; ")));
        // Not from inside the failed connection's callback: the caller may start over at once.
        QTimer::singleShot(0, this, [lookup, r] { lookup->done(r); });
        return;
    }
    const int index = (m_preferred + lookup->asked) % count;
    ++lookup->asked;
    const ConnectionSettings s = sentinelSettings(index);
    const QString where = s.nodeAddress();
    // The connection of the previous attempt may be the one calling us: let it unwind first.
    if (lookup->connection)
        lookup->connection->deleteLater();
    lookup->connection = new RedisConnection(s, this);
    lookup->connection->open();
    const auto alive = m_alive;
    lookup->connection->command(
        {QByteArrayLiteral("SENTINEL"), QByteArrayLiteral("GET-MASTER-ADDR-BY-NAME"),
         m_settings.sentinelMaster.toUtf8()},
        [this, alive, lookup, index, where](const RedisReply &reply) {
            if (!*alive)
                return;
            QString failure;
            if (reply.isError()) {
                failure = reply.isTransportError() ? reply.errorMessage()
                                                   : where + QStringLiteral(": ") + reply.errorMessage();
            } else if (reply.isNil()) {
                failure =
                    where +
                    QStringLiteral(": does not monitor a master called '%1'").arg(m_settings.sentinelMaster);
            } else if (!reply.isArray() || reply.elements.size() != 2) {
                failure = where + QStringLiteral(": unexpected answer %1").arg(reply.describe().left(80));
            } else {
                bool portOk = false;
                const uint port = reply.elements.at(1).str.toUInt(&portOk);
                if (!portOk || port == 0 || port > 65535) {
                    failure = where + QStringLiteral(": answered a port that is none: %1")
                                          .arg(QString::fromUtf8(reply.elements.at(1).str.left(20)));
                } else {
                    m_preferred = index % int(m_settings.sentinels.size());
                    Result r;
                    r.ok = true;
                    r.master.host = QString::fromUtf8(reply.elements.at(0).str);
                    r.master.port = quint16(port);
                    r.sentinel = where;
                    lookup->connection->deleteLater();
                    lookup->connection = nullptr;
                    lookup->done(r);
                    return;
                }
            }
            qCInfo(lcRedisTransport).noquote() << "sentinel lookup:" << failure;
            lookup->failures << failure;
            askNext(lookup);
        });
}

void SentinelResolver::watch() {
    if (m_watching)
        return;
    m_watching = true;
    m_watchIndex = m_preferred;
    openWatch();
}

void SentinelResolver::stopWatching() {
    m_watching = false;
    if (m_watch)
        m_watch.release()->deleteLater();
}

bool SentinelResolver::isWatching() const {
    return m_watching;
}

void SentinelResolver::openWatch() {
    if (!m_watching)
        return;
    if (m_watch)
        m_watch.release()->deleteLater();
    ConnectionSettings s = sentinelSettings(m_watchIndex);
    s.commandTimeoutMs = 0; // a subscriber waits for messages as long as it takes
    m_watch = std::make_unique<RedisConnection>(s);
    RedisConnection *connection = m_watch.get();
    // When this sentinel goes, listen to the next one (after a short pause, so that a group that is
    // entirely down is not hammered).
    connect(connection, &RedisConnection::connectionLost, this, [this, connection](const QString &reason) {
        if (m_watch.get() != connection)
            return;
        qCInfo(lcRedisTransport).noquote() << "sentinel watch lost:" << reason;
        ++m_watchIndex;
        QTimer::singleShot(250, this, [this, connection] {
            if (m_watch.get() == connection)
                openWatch();
        });
    });
    const QString master = m_settings.sentinelMaster;
    connection->subscribe(
        QByteArrayLiteral("+switch-master"),
        [this, master](const QByteArray &message) {
            // "<name> <old ip> <old port> <new ip> <new port>"
            const QList<QByteArray> parts = message.split(' ');
            if (parts.size() != 5 || QString::fromUtf8(parts.at(0)) != master)
                return;
            Address from{QString::fromUtf8(parts.at(1)), quint16(parts.at(2).toUInt())};
            Address to{QString::fromUtf8(parts.at(3)), quint16(parts.at(4).toUInt())};
            Q_EMIT masterSwitched(from, to);
        },
        [this] { Q_EMIT subscribed(); });
    // "slave <ip>:<port> <ip> <port> @ <name> <master ip> <master port>"
    connection->subscribe(
        QByteArrayLiteral("+failover-state-send-slaveof-noone"), [this, master](const QByteArray &message) {
            const QList<QByteArray> parts = message.split(' ');
            const qsizetype at = parts.indexOf(QByteArrayLiteral("@"));
            if (at >= 0 && at + 1 < parts.size() && QString::fromUtf8(parts.at(at + 1)) == master)
                Q_EMIT failoverStarted();
        });
    // "master <name> <ip> <port>": the ways a started failover ends without a switch.
    for (const QByteArray &abort : {QByteArrayLiteral("-failover-abort-slave-timeout"),
                                    QByteArrayLiteral("-failover-abort-no-good-slave"),
                                    QByteArrayLiteral("-failover-abort-not-elected")}) {
        connection->subscribe(abort, [this, master, abort](const QByteArray &message) {
            const QList<QByteArray> parts = message.split(' ');
            if (parts.size() >= 2 && parts.at(0) == "master" && QString::fromUtf8(parts.at(1)) == master)
                Q_EMIT failoverAborted(QString::fromUtf8(abort));
        });
    }
    connection->open();
}

} // namespace semscope::redis
