// Connection settings from URLs: what is accepted, what is refused and how, and that a password
// never shows up where it could be printed.
#include "TestMain.h"
#include "redis/ConnectionSettings.h"

#include <QTest>

using semscope::redis::ConnectionSettings;
using Transport = semscope::redis::ConnectionSettings::Transport;

Q_DECLARE_METATYPE(semscope::redis::ConnectionSettings::Transport)

class TestConnectionSettings : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() { qunsetenv("REDISCLI_AUTH"); }
    void cleanup() { qunsetenv("REDISCLI_AUTH"); }

    void validUrls_data();
    void validUrls();
    void malformedUrls_data();
    void malformedUrls();
    void passwordFromEnvironment();
    void urlPasswordWinsOverEnvironment();
    void endpointNeverShowsThePassword();
    void defaults();
    void clusterSeedNodes_data();
    void clusterSeedNodes();
    void sentinelUrls_data();
    void sentinelUrls();
    void malformedSentinelUrls_data();
    void malformedSentinelUrls();
    void sentinelPasswordFromEnvironmentOnly();
};

void TestConnectionSettings::validUrls_data() {
    QTest::addColumn<QString>("url");
    QTest::addColumn<Transport>("transport");
    QTest::addColumn<QString>("host");
    QTest::addColumn<int>("port");
    QTest::addColumn<QString>("socketPath");
    QTest::addColumn<int>("db");
    QTest::addColumn<QString>("user");
    QTest::addColumn<QString>("password");
    QTest::addColumn<QString>("endpoint");

    QTest::newRow("host only") << "redis://localhost" << Transport::Tcp << "localhost" << 6379 << "" << 0
                               << ""
                               << ""
                               << "redis://localhost:6379/0";
    QTest::newRow("port and db") << "redis://127.0.0.1:6380/2" << Transport::Tcp << "127.0.0.1" << 6380 << ""
                                 << 2 << ""
                                 << ""
                                 << "redis://127.0.0.1:6380/2";
    QTest::newRow("trailing slash") << "redis://127.0.0.1:6380/" << Transport::Tcp << "127.0.0.1" << 6380
                                    << "" << 0 << ""
                                    << ""
                                    << "redis://127.0.0.1:6380/0";
    QTest::newRow("user and password") << "redis://alice:s3cret@db.example:7000/15" << Transport::Tcp
                                       << "db.example" << 7000 << "" << 15 << "alice"
                                       << "s3cret"
                                       << "redis://db.example:7000/15";
    QTest::newRow("password only") << "redis://:s3cret@host" << Transport::Tcp << "host" << 6379 << "" << 0
                                   << ""
                                   << "s3cret"
                                   << "redis://host:6379/0";
    QTest::newRow("encoded password")
        << "redis://bob:p%40ss%3Aw%2Fd@host" << Transport::Tcp << "host" << 6379 << "" << 0 << "bob"
        << "p@ss:w/d"
        << "redis://host:6379/0";
    QTest::newRow("tls") << "rediss://cache.internal:6380/1" << Transport::Tls << "cache.internal" << 6380
                         << "" << 1 << ""
                         << ""
                         << "rediss://cache.internal:6380/1";
    QTest::newRow("upper-case scheme") << "REDIS://h:1" << Transport::Tcp << "h" << 1 << "" << 0 << ""
                                       << ""
                                       << "redis://h:1/0";
    QTest::newRow("ipv6") << "redis://[::1]:7001/3" << Transport::Tcp << "::1" << 7001 << "" << 3 << ""
                          << ""
                          << "redis://[::1]:7001/3";
    QTest::newRow("db as query") << "redis://h?db=4" << Transport::Tcp << "h" << 6379 << "" << 4 << ""
                                 << ""
                                 << "redis://h:6379/4";
    QTest::newRow("unix") << "unix:///run/redis/redis.sock" << Transport::Unix << "" << 0
                          << "/run/redis/redis.sock" << 0 << ""
                          << ""
                          << "unix:///run/redis/redis.sock";
    QTest::newRow("unix with db") << "unix:///tmp/r.sock?db=5" << Transport::Unix << "" << 0 << "/tmp/r.sock"
                                  << 5 << ""
                                  << ""
                                  << "unix:///tmp/r.sock?db=5";
    QTest::newRow("surrounding spaces") << "  redis://h:2  " << Transport::Tcp << "h" << 2 << "" << 0 << ""
                                        << ""
                                        << "redis://h:2/0";
}

void TestConnectionSettings::validUrls() {
    QFETCH(QString, url);
    QFETCH(Transport, transport);
    QFETCH(QString, host);
    QFETCH(int, port);
    QFETCH(QString, socketPath);
    QFETCH(int, db);
    QFETCH(QString, user);
    QFETCH(QString, password);
    QFETCH(QString, endpoint);

    QString error;
    const auto s = ConnectionSettings::fromUrl(url, &error);
    QVERIFY2(s.has_value(), qPrintable(error));
    QVERIFY(error.isEmpty());
    QCOMPARE(s->transport, transport);
    if (transport != Transport::Unix) {
        QCOMPARE(s->host, host);
        QCOMPARE(int(s->port), port);
    }
    QCOMPARE(s->socketPath, socketPath);
    QCOMPARE(s->db, db);
    QCOMPARE(s->user, user);
    QCOMPARE(s->password, password);
    QCOMPARE(s->endpoint(), endpoint);
    // What endpoint() prints is itself a URL that reads back to the same place.
    const auto again = ConnectionSettings::fromUrl(s->endpoint());
    QVERIFY(again.has_value());
    QCOMPARE(again->endpoint(), s->endpoint());
}

void TestConnectionSettings::malformedUrls_data() {
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("expected"); // part of the message

    QTest::newRow("empty") << ""
                           << "empty";
    QTest::newRow("blank") << "   "
                           << "empty";
    QTest::newRow("no scheme") << "localhost:6379"
                               << "scheme";
    QTest::newRow("http") << "http://localhost:6379"
                          << "unknown scheme 'http'";
    QTest::newRow("no host") << "redis://"
                             << "no host";
    QTest::newRow("no host but port") << "redis://:6379"
                                      << "no host";
    QTest::newRow("port zero") << "redis://h:0"
                               << "port";
    QTest::newRow("port too big") << "redis://h:99999"
                                  << "valid URL";
    QTest::newRow("port not a number") << "redis://h:abc"
                                       << "valid URL";
    QTest::newRow("db not a number") << "redis://h/abc"
                                     << "database number";
    QTest::newRow("db negative") << "redis://h/-1"
                                 << "database number";
    QTest::newRow("db path with more") << "redis://h/1/2"
                                       << "database number";
    QTest::newRow("db twice") << "redis://h/1?db=2"
                              << "db given twice";
    QTest::newRow("bad db query") << "unix:///tmp/s?db=x"
                                  << "db must be";
    QTest::newRow("unknown parameter") << "redis://h?timeout=5"
                                       << "unknown parameter 'timeout'";
    QTest::newRow("fragment") << "redis://h#x"
                              << "'#'";
    QTest::newRow("unix relative") << "unix://relative.sock"
                                   << "absolute path";
    QTest::newRow("unix no path") << "unix://"
                                  << "absolute path";
    QTest::newRow("unix directory") << "unix:///"
                                    << "absolute path";
    QTest::newRow("spaces in host") << "redis://my host:1"
                                    << "valid URL";
    QTest::newRow("seed without host") << "redis://h:1,:2"
                                       << "seed nodes are host:port";
    QTest::newRow("seed with bad port") << "redis://h:1,g:x"
                                        << "seed nodes are host:port";
}

void TestConnectionSettings::malformedUrls() {
    QFETCH(QString, url);
    QFETCH(QString, expected);
    QString error;
    const auto s = ConnectionSettings::fromUrl(url, &error);
    QVERIFY(!s.has_value());
    QVERIFY2(error.startsWith(QStringLiteral("malformed Redis URL")), qPrintable(error));
    QVERIFY2(error.contains(expected), qPrintable(error));
    QVERIFY(!error.contains(QLatin1Char('\n')));
    // Refused without a place to put the message is fine too.
    QVERIFY(!ConnectionSettings::fromUrl(url).has_value());
}

void TestConnectionSettings::passwordFromEnvironment() {
    qputenv("REDISCLI_AUTH", "from-env");
    const auto tcp = ConnectionSettings::fromUrl(QStringLiteral("redis://alice@h"));
    QVERIFY(tcp.has_value());
    QCOMPARE(tcp->user, QStringLiteral("alice"));
    QCOMPARE(tcp->password, QStringLiteral("from-env"));
    const auto socket = ConnectionSettings::fromUrl(QStringLiteral("unix:///tmp/r.sock"));
    QVERIFY(socket.has_value());
    QCOMPARE(socket->password, QStringLiteral("from-env"));
    QVERIFY(!tcp->endpoint().contains(QStringLiteral("from-env")));
}

void TestConnectionSettings::urlPasswordWinsOverEnvironment() {
    qputenv("REDISCLI_AUTH", "from-env");
    const auto s = ConnectionSettings::fromUrl(QStringLiteral("redis://:from-url@h"));
    QVERIFY(s.has_value());
    QCOMPARE(s->password, QStringLiteral("from-url"));
}

void TestConnectionSettings::endpointNeverShowsThePassword() {
    const QStringList withPassword = {QStringLiteral("redis://alice:hunter2@h:1/2"),
                                      QStringLiteral("rediss://:hunter2@h"),
                                      QStringLiteral("redis://u:hunter2@[::1]:5/0")};
    for (const QString &url : withPassword) {
        const auto s = ConnectionSettings::fromUrl(url);
        QVERIFY2(s.has_value(), qPrintable(url));
        QCOMPARE(s->password, QStringLiteral("hunter2"));
        QVERIFY2(!s->endpoint().contains(QStringLiteral("hunter2")), qPrintable(s->endpoint()));
    }
    // A malformed URL may still carry a password: the message must not repeat it.
    const QStringList malformed = {
        QStringLiteral("redis://alice:hunter2@h:notaport"), QStringLiteral("redis://alice:hunter2@h/notadb"),
        QStringLiteral("http://alice:hunter2@h"), QStringLiteral("redis://:hunter2@")};
    for (const QString &url : malformed) {
        QString error;
        QVERIFY2(!ConnectionSettings::fromUrl(url, &error).has_value(), qPrintable(url));
        QVERIFY2(!error.isEmpty(), qPrintable(url));
        QVERIFY2(!error.contains(QStringLiteral("hunter2")), qPrintable(error));
    }
}

void TestConnectionSettings::defaults() {
    const ConnectionSettings s;
    QCOMPARE(s.transport, Transport::Tcp);
    QCOMPARE(s.endpoint(), QStringLiteral("redis://127.0.0.1:6379/0"));
    QVERIFY(s.connectTimeoutMs > 0);
    QVERIFY(s.commandTimeoutMs > 0);
    QVERIFY(s.autoReconnect);
}

// Further Cluster nodes after the first, comma-separated: the first is the entry node, the others
// are asked for the slot map when it does not answer; user, password, TLS and db apply to all.
void TestConnectionSettings::clusterSeedNodes_data() {
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("host");
    QTest::addColumn<int>("port");
    QTest::addColumn<QStringList>("seeds");
    QTest::addColumn<QString>("password");
    QTest::addColumn<int>("db");
    QTest::newRow("one node") << "redis://h:7000"
                              << "h" << 7000 << QStringList() << "" << 0;
    QTest::newRow("three nodes") << "redis://a:7000,b:7001,c/2"
                                 << "a" << 7000
                                 << QStringList{QStringLiteral("b:7001"), QStringLiteral("c:6379")} << ""
                                 << 2;
    QTest::newRow("credentials apply to all")
        << "rediss://u:p%40ss@a:1,b:2"
        << "a" << 1 << QStringList{QStringLiteral("b:2")} << "p@ss" << 0;
    QTest::newRow("ipv6 seed") << "redis://a:1,[::1]:7002"
                               << "a" << 1 << QStringList{QStringLiteral("::1:7002")} << "" << 0;
}

void TestConnectionSettings::clusterSeedNodes() {
    QFETCH(QString, url);
    QFETCH(QString, host);
    QFETCH(int, port);
    QFETCH(QStringList, seeds);
    QFETCH(QString, password);
    QFETCH(int, db);
    QString error;
    const auto s = ConnectionSettings::fromUrl(url, &error);
    QVERIFY2(s.has_value(), qPrintable(error));
    QCOMPARE(s->host, host);
    QCOMPARE(int(s->port), port);
    QCOMPARE(s->seedNodes, seeds);
    QCOMPARE(s->password, password);
    QCOMPARE(s->db, db);
    QVERIFY(!s->endpoint().contains(QLatin1Char(',')));
}

void TestConnectionSettings::sentinelUrls_data() {
    QTest::addColumn<QString>("url");
    QTest::addColumn<Transport>("transport");
    QTest::addColumn<QStringList>("sentinels"); // host:port each
    QTest::addColumn<QString>("master");
    QTest::addColumn<int>("db");
    QTest::addColumn<QString>("user");
    QTest::addColumn<QString>("password");
    QTest::addColumn<QString>("endpoint");

    QTest::newRow("one sentinel") << "redis+sentinel://127.0.0.1:26379/mymaster" << Transport::Tcp
                                  << QStringList{"127.0.0.1:26379"} << "mymaster" << 0 << ""
                                  << ""
                                  << "redis+sentinel://127.0.0.1:26379/mymaster/0";
    QTest::newRow("default port, three, db")
        << "redis+sentinel://s1,s2:26380,[::1]:26381/cache/3" << Transport::Tcp
        << QStringList{"s1:26379", "s2:26380", "::1:26381"} << "cache" << 3 << ""
        << ""
        << "redis+sentinel://s1:26379,s2:26380,[::1]:26381/cache/3";
    QTest::newRow("data credentials")
        << "redis+sentinel://app:p%40ss@h:1/m" << Transport::Tcp << QStringList{"h:1"} << "m" << 0 << "app"
        << "p@ss"
        << "redis+sentinel://h:1/m/0";
    QTest::newRow("tls") << "rediss+sentinel://h:2/m/1" << Transport::Tls << QStringList{"h:2"} << "m" << 1
                         << ""
                         << ""
                         << "rediss+sentinel://h:2/m/1";
    QTest::newRow("upper-case scheme")
        << "REDIS+SENTINEL://h:2/m" << Transport::Tcp << QStringList{"h:2"} << "m" << 0 << ""
        << ""
        << "redis+sentinel://h:2/m/0";
}

void TestConnectionSettings::sentinelUrls() {
    QFETCH(QString, url);
    QFETCH(Transport, transport);
    QFETCH(QStringList, sentinels);
    QFETCH(QString, master);
    QFETCH(int, db);
    QFETCH(QString, user);
    QFETCH(QString, password);
    QFETCH(QString, endpoint);
    QString error;
    const auto s = ConnectionSettings::fromUrl(url, &error);
    QVERIFY2(s.has_value(), qPrintable(error));
    QVERIFY(s->usesSentinel());
    QCOMPARE(s->transport, transport);
    QStringList got;
    for (const auto &a : s->sentinels)
        got << a.host + QLatin1Char(':') + QString::number(a.port);
    QCOMPARE(got, sentinels);
    QCOMPARE(s->sentinelMaster, master);
    QCOMPARE(s->db, db);
    QCOMPARE(s->user, user);
    QCOMPARE(s->password, password);
    QCOMPARE(s->endpoint(), endpoint);
    // The endpoint reads back as the same group.
    const auto again = ConnectionSettings::fromUrl(s->endpoint());
    QVERIFY(again.has_value());
    QCOMPARE(again->endpoint(), endpoint);
}

void TestConnectionSettings::malformedSentinelUrls_data() {
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("expected");
    QTest::newRow("no master") << "redis+sentinel://h:1"
                               << "no master name";
    QTest::newRow("empty master") << "redis+sentinel://h:1/"
                                  << "no master name";
    QTest::newRow("no sentinel") << "redis+sentinel:///m"
                                 << "no sentinel address";
    QTest::newRow("empty address in list") << "redis+sentinel://h:1,,h:2/m"
                                           << "not a sentinel address";
    QTest::newRow("bad port") << "redis+sentinel://h:abc/m"
                              << "not a sentinel address";
    QTest::newRow("port zero") << "redis+sentinel://h:0/m"
                               << "port";
    QTest::newRow("bad db") << "redis+sentinel://h:1/m/x"
                            << "database number";
    QTest::newRow("too much path") << "redis+sentinel://h:1/m/1/2"
                                   << "database number";
    QTest::newRow("query") << "redis+sentinel://h:1/m?db=1"
                           << "'?'";
    QTest::newRow("password kept out") << "redis+sentinel://u:hunter2@h:x/m"
                                       << "not a sentinel address";
}

void TestConnectionSettings::malformedSentinelUrls() {
    QFETCH(QString, url);
    QFETCH(QString, expected);
    QString error;
    QVERIFY(!ConnectionSettings::fromUrl(url, &error).has_value());
    QVERIFY2(error.startsWith(QStringLiteral("malformed Redis URL")), qPrintable(error));
    QVERIFY2(error.contains(expected), qPrintable(error));
    QVERIFY2(!error.contains(QStringLiteral("hunter2")), qPrintable(error));
}

void TestConnectionSettings::sentinelPasswordFromEnvironmentOnly() {
    // The sentinels' password never comes from the URL (that one is the data nodes'), and the
    // data password never goes to the sentinels.
    qputenv("SEMSCOPE_SENTINEL_AUTH", "sentinel-secret");
    const auto s = ConnectionSettings::fromUrl(QStringLiteral("redis+sentinel://:data-secret@h:1/m"));
    qunsetenv("SEMSCOPE_SENTINEL_AUTH");
    QVERIFY(s.has_value());
    QCOMPARE(s->sentinelPassword, QStringLiteral("sentinel-secret"));
    QCOMPARE(s->password, QStringLiteral("data-secret"));
    QVERIFY(!s->endpoint().contains(QStringLiteral("secret")));
    const auto plain = ConnectionSettings::fromUrl(QStringLiteral("redis+sentinel://h:1/m"));
    QVERIFY(plain->sentinelPassword.isEmpty());
}

SEMSCOPE_TEST_GUILESS_MAIN(TestConnectionSettings)
#include "tst_connectionsettings.moc"
