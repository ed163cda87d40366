// Both secrets of a connection in the secret store (a memory double of the keyring): the data
// password under the id, the Sentinel password under its own key; read back together, asked for
// when missing, removed with the connection, and a Sentinel password dropped when the URL no longer
// goes through sentinels.
#include "TestMain.h"
#include "TestWait.h"
#include "model/ConnectionSecrets.h"

#include <QTest>

using namespace semscope;
using model::ConnectionConfig;

namespace {

struct Read {
    bool done = false;
    std::optional<QString> data;
    std::optional<QString> sentinel;
};

Read readBoth(model::SecretStore &store, const ConnectionConfig &c) {
    Read r;
    model::readConnectionSecrets(store, c,
                                 [&r](std::optional<QString> data, std::optional<QString> sentinel) {
                                     r.done = true;
                                     r.data = data;
                                     r.sentinel = sentinel;
                                 });
    // The store answers from the event loop, like the keyring.
    test::waitFor([&r] { return r.done; }, 5000);
    return r;
}

ConnectionConfig sentinelConnection() {
    ConnectionConfig c = ConnectionConfig::create(core::Backend::Redis);
    c.url = QStringLiteral("redis+sentinel://127.0.0.1:26379/mymaster");
    c.secret = QStringLiteral("data-pw");
    c.hasSecret = true;
    c.sentinelSecret = QStringLiteral("sentinel-pw");
    c.hasSentinelSecret = true;
    return c;
}

// A keyring: secrets outlive the process, so they are written only when the operator asks.
class PersistentDouble : public model::MemorySecretStore {
public:
    bool isPersistent() const override { return true; }
};

} // namespace

class TestConnectionSecrets : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void keptAndReadBackApart() {
        model::MemorySecretStore store;
        const ConnectionConfig c = sentinelConnection();
        model::keepConnectionSecrets(store, c, false); // no keyring: kept for the session anyway
        Read r = readBoth(store, c);
        QVERIFY(r.done);
        QCOMPARE(r.data, std::optional<QString>(QStringLiteral("data-pw")));
        QCOMPARE(r.sentinel, std::optional<QString>(QStringLiteral("sentinel-pw")));
        QCOMPARE(ConnectionConfig::sentinelSecretKey(c.id), c.id + QStringLiteral("/sentinel"));
    }

    void keyringOnlyWhenAsked() {
        PersistentDouble store;
        const ConnectionConfig c = sentinelConnection();
        model::keepConnectionSecrets(store, c, false);
        Read r = readBoth(store, c);
        QVERIFY(!r.data); // missing: the app asks for them at connect time
        QVERIFY(!r.sentinel);
        model::keepConnectionSecrets(store, c, true);
        r = readBoth(store, c);
        QCOMPARE(r.sentinel, std::optional<QString>(QStringLiteral("sentinel-pw")));
    }

    void onlyWhatTheConnectionNeedsIsRead() {
        model::MemorySecretStore store;
        ConnectionConfig plain = ConnectionConfig::create(core::Backend::Redis);
        plain.url = QStringLiteral("redis://127.0.0.1:6379");
        plain.hasSentinelSecret = true; // left over: a plain URL has no sentinels to ask
        Read r = readBoth(store, plain);
        QCOMPARE(r.data, std::optional<QString>(QString()));
        QCOMPARE(r.sentinel, std::optional<QString>(QString()));
    }

    void sentinelSecretGoesWithTheSentinelUrl() {
        model::MemorySecretStore store;
        const ConnectionConfig before = sentinelConnection();
        model::keepConnectionSecrets(store, before, true);
        ConnectionConfig after = before;
        after.url = QStringLiteral("redis://127.0.0.1:6379");
        after.hasSentinelSecret = false;
        after.sentinelSecret.clear();
        model::keepConnectionSecrets(store, after, true, &before);
        Read r = readBoth(store, before); // asked as if it still were a Sentinel connection
        QVERIFY(!r.sentinel);
        QCOMPARE(r.data, std::optional<QString>(QStringLiteral("data-pw")));
    }

    void forgottenWithTheConnection() {
        model::MemorySecretStore store;
        const ConnectionConfig c = sentinelConnection();
        model::keepConnectionSecrets(store, c, true);
        model::forgetConnectionSecrets(store, c.id);
        Read r = readBoth(store, c);
        QVERIFY(!r.data);
        QVERIFY(!r.sentinel);
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestConnectionSecrets)
#include "tst_connectionsecrets.moc"
