// The raw view's Consul reads against the Consul API double: every KV entry under the semaphore's
// prefix with its flags, session and indices, `.lock` pretty-printed, other values as they are,
// escaped; no neighbour prefix leaks in; many entries are bounded; an agent error is said with
// the reason. Through ConsulSemaphoreStore's core::RawKeySource, as the GUI reads it.
#include "ConsulTestTarget.h"
#include "TestMain.h"
#include "TestWait.h"
#include "consul/ConsulSemaphoreStore.h"
#include "consul/RawKvReader.h"

#include <QRegularExpression>
#include <QtTest>

using namespace semscope;
using namespace semscope::consul;

class TestConsulRawKv : public QObject {
    Q_OBJECT

    std::unique_ptr<ConsulDouble> m_double;
    std::unique_ptr<ConsulClient> m_raw;
    std::unique_ptr<ConsulSemaphoreStore> m_store;

    HttpResult http(const QByteArray &method, const QString &target, const QByteArray &body = QByteArray()) {
        return syncRequest(*m_raw, method, target, body);
    }

    core::RawKeys read(const QString &prefix) {
        core::SemaphoreRef ref;
        ref.kind = core::Kind::Consul;
        ref.name = prefix;
        core::RawKeySource *source = m_store.get();
        return semscope::test::awaitCall<core::RawKeys>(
                   [&](std::function<void(core::RawKeys)> cb) { source->readRawKeys(ref, cb); })
            .value_or(core::RawKeys{});
    }

    const core::RawKey *find(const core::RawKeys &keys, const QString &name) {
        for (const core::RawKey &k : keys.keys)
            if (k.name == name)
                return &k;
        return nullptr;
    }

    QString meta(const core::RawKey &k, const QString &name) {
        for (const auto &[n, v] : k.meta)
            if (n == name)
                return v;
        return {};
    }

private Q_SLOTS:
    void init() {
        m_double = std::make_unique<ConsulDouble>();
        QVERIFY(m_double->listen());
        ConsulConfig config;
        config.address = m_double->url();
        m_raw = std::make_unique<ConsulClient>(config);
        m_store = std::make_unique<ConsulSemaphoreStore>(config);
    }

    void cleanup() {
        m_store.reset();
        m_raw.reset();
        m_double.reset();
    }

    void readsEveryEntryWithItsProperties() {
        const HttpResult created =
            http("PUT", QStringLiteral("/v1/session/create"), "{\"Name\":\"worker-17\"}");
        const QString sid = QRegularExpression(QStringLiteral("\"ID\":\"([^\"]+)\""))
                                .match(QString::fromUtf8(created.body))
                                .captured(1);
        QVERIFY(!sid.isEmpty());
        QCOMPARE(http("PUT",
                      QStringLiteral("/v1/kv/svc/jobs/%1?acquire=%1&flags=16210313421097356768").arg(sid), "")
                     .body,
                 QByteArray("true"));
        const QByteArray lock = "{\"Limit\":3,\"Holders\":{\"" + sid.toUtf8() + "\":true}}";
        QCOMPARE(http("PUT", QStringLiteral("/v1/kv/svc/jobs/.lock?flags=16210313421097356768"), lock).body,
                 QByteArray("true"));
        http("PUT", QStringLiteral("/v1/kv/svc/jobs/note"), "plain\x1b[31m text");
        http("PUT", QStringLiteral("/v1/kv/svc/jobs2/.lock"), "{\"Limit\":1}"); // a neighbour: not read

        const core::RawKeys r = read(QStringLiteral("svc/jobs"));
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.keys.size(), 3);
        const core::RawKey *l = find(r, QStringLiteral("svc/jobs/.lock"));
        QVERIFY(l);
        QCOMPARE(l->type, QStringLiteral("kv"));
        QCOMPARE(l->length, qint64(lock.size()));
        // JSON is shown indented, one member a line, as stored otherwise.
        QVERIFY2(l->value.contains(QLatin1String("\n")) && l->value.contains(QLatin1String("\"Limit\": 3")),
                 qPrintable(l->value));
        QVERIFY(l->value.contains(sid));
        QCOMPARE(meta(*l, QStringLiteral("Flags")),
                 QStringLiteral("16210313421097356768")); // exact, not a double
        QCOMPARE(meta(*l, QStringLiteral("Session")), QStringLiteral("—"));
        QVERIFY(meta(*l, QStringLiteral("ModifyIndex")).toULongLong() > 0);
        const core::RawKey *c = find(r, QStringLiteral("svc/jobs/") + sid);
        QVERIFY(c);
        QCOMPARE(meta(*c, QStringLiteral("Session")), sid);
        QCOMPARE(meta(*c, QStringLiteral("LockIndex")), QStringLiteral("1"));
        const core::RawKey *n = find(r, QStringLiteral("svc/jobs/note"));
        QVERIFY(n);
        QCOMPARE(n->value, QStringLiteral("plain\\e[31m text"));
        QVERIFY(!find(r, QStringLiteral("svc/jobs2/.lock")));
    }

    void manyEntriesAreBounded() {
        for (int i = 0; i < core::kRawMaxKeys + 20; ++i)
            http("PUT", QStringLiteral("/v1/kv/big/sem/k%1").arg(i, 4, 10, QLatin1Char('0')), "v");
        const core::RawKeys r = read(QStringLiteral("big/sem"));
        QVERIFY(r.ok);
        QCOMPARE(r.keys.size(), core::kRawMaxKeys);
        QCOMPARE(r.error, QStringLiteral("first 100 of 120 entries shown"));
    }

    void emptyPrefixIsNoKeys() {
        const core::RawKeys r = read(QStringLiteral("nothing/here"));
        QVERIFY2(r.ok, qPrintable(r.error));
        QVERIFY(r.keys.isEmpty());
    }

    void agentErrorIsSaid() {
        m_double.reset(); // nobody listens any more
        const core::RawKeys r = read(QStringLiteral("svc/jobs"));
        QVERIFY(!r.ok);
        QVERIFY2(r.error.startsWith(QLatin1String("reading the KV entries failed: ")), qPrintable(r.error));
    }

    void hugeValueIsCut() {
        http("PUT", QStringLiteral("/v1/kv/huge/sem/v"), QByteArray(100 * 1024, 'x'));
        const core::RawKeys r = read(QStringLiteral("huge/sem"));
        QVERIFY(r.ok);
        QCOMPARE(r.keys.size(), 1);
        QVERIFY(r.keys.first().value.size() < core::kRawMaxValueChars + 200);
        QVERIFY(r.keys.first().value.contains(QLatin1String("cut")));
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestConsulRawKv)
#include "tst_consul_rawkv.moc"
