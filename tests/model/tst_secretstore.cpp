#include "TestMain.h"
#include "model/SecretStore.h"

#include <QtTest>

using namespace semscope;

class TestSecretStore : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void memoryStoreAnswersLater();
    void noKeyringMeansSessionOnly();
};

void TestSecretStore::memoryStoreAnswersLater() {
    model::MemorySecretStore store;
    QVERIFY(!store.isPersistent());
    store.write(QStringLiteral("id-1"), QStringLiteral("pw"));
    bool answered = false;
    bool found = false;
    QString secret;
    store.read(QStringLiteral("id-1"), [&](bool f, QString s) {
        answered = true;
        found = f;
        secret = s;
    });
    QVERIFY(!answered); // never synchronously, like the keyring
    QTRY_VERIFY(answered);
    QVERIFY(found);
    QCOMPARE(secret, QStringLiteral("pw"));
    store.remove(QStringLiteral("id-1"));
    answered = false;
    store.read(QStringLiteral("id-1"), [&](bool f, QString) {
        answered = true;
        found = f;
    });
    QTRY_VERIFY(answered);
    QVERIFY(!found);
}

void TestSecretStore::noKeyringMeansSessionOnly() {
    qputenv("SEMSCOPE_NO_KEYRING", "1");
    auto store = model::SecretStore::createDefault();
    QVERIFY(store);
    QVERIFY(!store->isPersistent());
    qunsetenv("SEMSCOPE_NO_KEYRING");
}

SEMSCOPE_TEST_MAIN(TestSecretStore)
#include "tst_secretstore.moc"
