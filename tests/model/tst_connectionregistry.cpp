#include "TestMain.h"
#include "model/ConnectionRegistry.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace semscope;
using model::ConnectionConfig;
using model::ConnectionRegistry;

class TestConnectionRegistry : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void roundTripsEveryField();
    void neverWritesSecrets();
    void endpointsHideSecrets();
    void twoWritersKeepEachOthersConnections();
    void passwordInUrlGoesToTheSecret();
    void passwordInUrlIsNeverSaved_data();
    void passwordInUrlIsNeverSaved();
};

// A URL pasted with its password: the password becomes the connection's secret (for the keyring)
// and the URL keeps the rest.
void TestConnectionRegistry::passwordInUrlGoesToTheSecret() {
    ConnectionConfig c = ConnectionConfig::create(core::Backend::Redis);
    c.url = QStringLiteral("redis://ops:ab%2Fcd%2B%3D@10.0.0.5:6380/2");
    c.takeSecretFromUrl();
    QCOMPARE(c.secret, QStringLiteral("ab/cd+="));
    QVERIFY(c.hasSecret);
    QCOMPARE(c.user, QStringLiteral("ops"));
    QCOMPARE(c.url, QStringLiteral("redis://ops@10.0.0.5:6380/2"));
    QCOMPARE(c.redisSettings()->password, QStringLiteral("ab/cd+="));
}

// Whatever reaches the registry, its file never holds the password, parsed or not.
void TestConnectionRegistry::passwordInUrlIsNeverSaved_data() {
    QTest::addColumn<QString>("url");
    QTest::newRow("valid") << QStringLiteral("redis://:hunter2@127.0.0.1:6379");
    QTest::newRow("malformed") << QStringLiteral("redis://u:hunter2/x@127.0.0.1:port");
}
void TestConnectionRegistry::passwordInUrlIsNeverSaved() {
    QFETCH(QString, url);
    QTemporaryDir dir;
    const QString file = dir.path() + QStringLiteral("/c.ini");
    ConnectionConfig c = ConnectionConfig::create(core::Backend::Redis);
    c.url = url;
    ConnectionRegistry r(file);
    r.upsert(c);
    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray saved = f.readAll();
    QVERIFY2(!saved.contains("hunter2"), saved.constData());
    QVERIFY2(saved.contains("127.0.0.1"), saved.constData());
}

// Two windows (or the app and a second instance) each hold the list they read at start. Each change
// is a read-modify-write of the file under a lock, so neither overwrites what the other added.
void TestConnectionRegistry::twoWritersKeepEachOthersConnections() {
    QTemporaryDir dir;
    const QString file = dir.path() + QStringLiteral("/c.ini");
    ConnectionRegistry first(file);
    ConnectionRegistry second(file);
    ConnectionConfig a = ConnectionConfig::create(core::Backend::Redis);
    a.name = QStringLiteral("a");
    ConnectionConfig b = ConnectionConfig::create(core::Backend::Redis);
    b.name = QStringLiteral("b");
    first.upsert(a);
    second.upsert(b);
    QCOMPARE(second.connections().size(), 2); // it sees what the first one saved
    QCOMPARE(ConnectionRegistry(file).connections().size(), 2);
    first.remove(b.id);
    first.upsert(a);
    const ConnectionRegistry after(file);
    QCOMPARE(after.connections().size(), 1);
    QVERIFY(after.find(a.id));
}

void TestConnectionRegistry::roundTripsEveryField() {
    QTemporaryDir dir;
    const QString file = dir.path() + QStringLiteral("/c.ini");
    ConnectionConfig c = ConnectionConfig::create(core::Backend::Redis);
    c.name = QStringLiteral("payments");
    c.environment = model::Environment::Production;
    c.readOnly = true;
    c.host = QStringLiteral("10.1.2.3");
    c.port = 6380;
    c.db = 3;
    c.user = QStringLiteral("ops");
    c.tls = true;
    c.caFile = QStringLiteral("/etc/ca.pem");
    c.tlsInsecure = true;
    c.discoverMatch = QStringLiteral("sem:*");
    // Keys opened by name (File → Open key…), names with colons and spaces included.
    QVERIFY(c.pin({core::Kind::Lock, QStringLiteral("invoice-run"), {}}));
    QVERIFY(c.pin({core::Kind::Zset, QStringLiteral("a:b c"), {}}));
    QVERIFY(!c.pin({core::Kind::Lock, QStringLiteral("invoice-run"), {}}));
    ConnectionConfig k = ConnectionConfig::create(core::Backend::Consul);
    k.name = QStringLiteral("consul");
    k.address = QStringLiteral("http://127.0.0.1:8500");
    k.datacenter = QStringLiteral("dc2");
    {
        ConnectionRegistry r(file);
        QSignalSpy changed(&r, &ConnectionRegistry::changed);
        r.upsert(c);
        r.upsert(k);
        QCOMPARE(changed.count(), 2);
    }
    ConnectionRegistry r(file);
    QCOMPARE(r.connections().size(), 2);
    const auto back = *r.find(c.id);
    QCOMPARE(back.name, c.name);
    QCOMPARE(back.environment, model::Environment::Production);
    QVERIFY(back.readOnly);
    QCOMPARE(back.port, quint16(6380));
    QCOMPARE(back.db, 3);
    QCOMPARE(back.user, QStringLiteral("ops"));
    QVERIFY(back.tls && back.tlsInsecure);
    QCOMPARE(back.discoverMatch, QStringLiteral("sem:*"));
    QCOMPARE(back.pinned.size(), 2);
    QCOMPARE(back.pinned.at(0), (core::SemaphoreRef{core::Kind::Lock, QStringLiteral("invoice-run"), {}}));
    QCOMPARE(back.pinned.at(1), (core::SemaphoreRef{core::Kind::Zset, QStringLiteral("a:b c"), {}}));
    QVERIFY(r.find(k.id)->pinned.isEmpty());
    QCOMPARE(r.find(k.id)->backend, core::Backend::Consul);
    QCOMPARE(r.find(k.id)->datacenter, QStringLiteral("dc2"));
    r.remove(c.id);
    QCOMPARE(ConnectionRegistry(file).connections().size(), 1);
}

void TestConnectionRegistry::neverWritesSecrets() {
    QTemporaryDir dir;
    const QString file = dir.path() + QStringLiteral("/c.ini");
    ConnectionConfig c = ConnectionConfig::create(core::Backend::Redis);
    c.hasSecret = true;
    c.secret = QStringLiteral("hunter2-very-secret");
    ConnectionRegistry r(file);
    r.upsert(c);
    QVERIFY(r.find(c.id)->secret.isEmpty());
    QVERIFY(r.find(c.id)->hasSecret);
    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(!f.readAll().contains("hunter2"));
}

void TestConnectionRegistry::endpointsHideSecrets() {
    ConnectionConfig c = ConnectionConfig::create(core::Backend::Redis);
    c.host = QStringLiteral("127.0.0.1");
    c.port = 7000;
    c.hasSecret = true;
    c.secret = QStringLiteral("pw");
    QVERIFY(!c.endpoint().contains(QLatin1String("pw")));
    QVERIFY(c.endpoint().contains(QLatin1String("7000")));
    const auto settings = c.redisSettings();
    QVERIFY(settings);
    QCOMPARE(settings->password, QStringLiteral("pw"));
    c.url = QStringLiteral("http://not-redis:80");
    QString error;
    QVERIFY(!c.redisSettings(&error));
}

SEMSCOPE_TEST_MAIN(TestConnectionRegistry)
#include "tst_connectionregistry.moc"
