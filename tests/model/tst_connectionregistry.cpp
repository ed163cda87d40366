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
};

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

QTEST_MAIN(TestConnectionRegistry)
#include "tst_connectionregistry.moc"
