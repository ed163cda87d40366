// The Consul API double answers like Consul: request/response pairs as Consul's HTTP API documents
// them (developer.hashicorp.com/consul/api-docs: kv, session, txn, features/blocking),
// run in order against the in-process double, and against a real agent when CONSUL_HTTP_ADDR is set.
#include "ConsulApiSteps.h"
#include "ConsulTestTarget.h"

#include "TestMain.h"
#include "TlsMaterial.h"

#include <QFile>
#include <QRegularExpression>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslKey>
#include <QTemporaryDir>
#include <QTest>

using namespace semscope::consul;

class TestConsulApi : public QObject {
    Q_OBJECT

    ConsulTestTarget m_target;
    std::unique_ptr<ConsulClient> m_client;
    QHash<QString, QString> m_vars;
    bool m_ready = false;

    QString subst(QString text, bool forRegex) const {
        for (auto it = m_vars.cbegin(); it != m_vars.cend(); ++it)
            text.replace(QLatin1Char('{') + it.key() + QLatin1Char('}'),
                         forRegex ? QRegularExpression::escape(it.value()) : it.value());
        return text;
    }

    void setUpTarget(bool realAgent) {
        const QString error = m_target.open(realAgent);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        m_client = std::make_unique<ConsulClient>(m_target.config);
        m_vars.clear();
        m_vars.insert(QStringLiteral("p"), m_target.prefix);
        m_ready = true;
    }

    void runSteps() {
        int checked = 0;
        for (const Step &step : kSteps) {
            QByteArray body = step.body ? QByteArray(step.body) : QByteArray();
            if (body == "{600k}") {
                body = QByteArray(600 * 1024, 'x');
            } else if (body == "{ops65}") {
                QStringList ops;
                for (int i = 0; i < 65; ++i)
                    ops << QStringLiteral(R"~({"KV":{"Verb":"get","Key":"%1/t1"}})~").arg(m_target.prefix);
                body = ('[' + ops.join(QLatin1Char(',')) + ']').toUtf8();
            } else if (!body.isNull()) {
                body = subst(QString::fromUtf8(body), false).toUtf8();
            }
            const QString target = subst(QString::fromUtf8(step.target), false);
            const HttpResult r = syncRequest(*m_client, step.method, target, body);
            const QByteArray where = QByteArray(step.name) + ": " + step.method + ' ' + target.toUtf8();
            QVERIFY2(r.status != 0, QByteArray(where + " -> " + r.error.toUtf8()).constData());
            QVERIFY2(r.status == step.status,
                     QByteArray(where + " -> status " + QByteArray::number(r.status) + ", expected " +
                                QByteArray::number(step.status) + "; body: " + r.body.left(300))
                         .constData());
            QString expect = QString::fromUtf8(step.expect);
            if (expect == QLatin1String("re:"))
                expect = QStringLiteral("re:") + QString::fromLatin1(kKvEntry);
            if (expect.startsWith(QLatin1String("re:"))) {
                const QRegularExpression re(QStringLiteral("\\A(?:") + subst(expect.mid(3), true) +
                                            QStringLiteral(")\\z"));
                QVERIFY2(re.isValid(), qPrintable(re.errorString()));
                const auto m = re.match(QString::fromUtf8(r.body));
                QVERIFY2(m.hasMatch(),
                         QByteArray(where + " -> body did not match: " + r.body.left(600)).constData());
                for (const QString &name : re.namedCaptureGroups()) {
                    if (!name.isEmpty() && !m.captured(name).isEmpty())
                        m_vars.insert(name, m.captured(name));
                }
            } else {
                QVERIFY2(r.body == subst(expect, false).toUtf8(),
                         QByteArray(where + " -> body " + r.body.left(300) + ", expected " +
                                    subst(expect, false).toUtf8())
                             .constData());
            }
            const QString headers = subst(QString::fromUtf8(step.headers), false);
            for (const QString &h : headers.split(QLatin1Char('|'), Qt::SkipEmptyParts)) {
                const qsizetype tilde = h.indexOf(QLatin1Char('~'));
                const qsizetype colon = h.indexOf(QStringLiteral(": "));
                const bool regex = tilde >= 0 && (colon < 0 || tilde < colon);
                const QString name = regex ? h.left(tilde) : h.left(colon);
                const QString want = regex ? h.mid(tilde + 1) : h.mid(colon + 2);
                const QString got = QString::fromUtf8(r.header(name.toUtf8()));
                if (regex)
                    QVERIFY2(
                        QRegularExpression(want).match(got).hasMatch(),
                        QByteArray(where + " -> header " + name.toUtf8() + ": " + got.toUtf8()).constData());
                else
                    QVERIFY2(got.startsWith(want), QByteArray(where + " -> header " + name.toUtf8() + ": '" +
                                                              got.toUtf8() + "', expected " + want.toUtf8())
                                                       .constData());
            }
            ++checked;
        }
        QVERIFY(checked >= 40);
    }

private Q_SLOTS:
    void init() { m_ready = false; }
    void cleanup() {
        m_client.reset();
        m_target = ConsulTestTarget{};
    }

    void tableAgainstDouble() {
        setUpTarget(false);
        runSteps();
    }

    void tableAgainstRealAgent() {
        if (!ConsulTestTarget::realAgentConfigured())
            QSKIP("CONSUL_HTTP_ADDR is not set: no real agent to compare with");
        setUpTarget(true);
        runSteps();
    }

    void blockingQueryWaitsForAChange() {
        setUpTarget(false);
        QCOMPARE(syncRequest(*m_client, "PUT", QStringLiteral("/v1/kv/%1/w").arg(m_target.prefix), "1").body,
                 QByteArray("true"));
        const HttpResult first =
            syncRequest(*m_client, "GET", QStringLiteral("/v1/kv/%1/w").arg(m_target.prefix), {});
        const quint64 index = first.meta.index;
        QVERIFY(index > 0);
        // An older index returns at once.
        const HttpResult old = syncRequest(
            *m_client, "GET",
            QStringLiteral("/v1/kv/%1/w?index=%2&wait=30s").arg(m_target.prefix).arg(index - 1), {});
        QCOMPARE(old.status, 200);
        // The current index blocks until the key changes.
        HttpResult woken;
        bool done = false;
        m_client->request("GET", QStringLiteral("/v1/kv/%1/w").arg(m_target.prefix),
                          QStringLiteral("index=%1&wait=60s").arg(index), {}, [&](HttpResult r) {
                              woken = r;
                              done = true;
                          });
        QTRY_COMPARE_WITH_TIMEOUT(m_target.fake->openBlockingQueries(), 1, 20000);
        QVERIFY(!done);
        QCOMPARE(syncRequest(*m_client, "PUT", QStringLiteral("/v1/kv/%1/w").arg(m_target.prefix), "2").body,
                 QByteArray("true"));
        QTRY_VERIFY_WITH_TIMEOUT(done, 20000);
        QCOMPARE(woken.status, 200);
        QVERIFY(woken.meta.index > index);
        QVERIFY(woken.body.contains("\"Value\":\"Mg==\""));
    }

    void blockingQueryTimesOutWithTheSameIndex() {
        setUpTarget(false);
        syncRequest(*m_client, "PUT", QStringLiteral("/v1/kv/%1/w").arg(m_target.prefix), "1");
        const quint64 index =
            syncRequest(*m_client, "GET", QStringLiteral("/v1/kv/%1/w").arg(m_target.prefix), {}).meta.index;
        const HttpResult r = syncRequest(
            *m_client, "GET",
            QStringLiteral("/v1/kv/%1/w?index=%2&wait=200ms").arg(m_target.prefix).arg(index), {});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.meta.index, index);
        QCOMPARE(m_target.fake->blockingTimeouts(), qint64(1));
    }

    void httpsWithACaFile() {
        QTemporaryDir dir;
        semscope::test::TlsMaterial pki;
        QString error;
        QVERIFY2(pki.generate(dir.path(), &error), qPrintable(error));
        QFile certFile(pki.serverCertFile());
        QFile keyFile(pki.serverKeyFile());
        QVERIFY(certFile.open(QIODevice::ReadOnly) && keyFile.open(QIODevice::ReadOnly));
        QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
        tls.setLocalCertificate(QSslCertificate(certFile.readAll(), QSsl::Pem));
        tls.setPrivateKey(QSslKey(keyFile.readAll(), QSsl::Ec, QSsl::Pem)); // TlsMaterial makes EC keys
        ConsulDouble fake;
        QVERIFY(fake.listenTls(tls));
        QCOMPARE(fake.url().scheme(), QStringLiteral("https"));

        ConsulConfig trusted;
        trusted.address = fake.url();
        trusted.caFile = pki.caFile();
        ConsulClient client(trusted);
        const HttpResult put = syncRequest(client, "PUT", QStringLiteral("/v1/kv/tls/k"), "v");
        QVERIFY2(put.ok(), qPrintable(put.error));
        QCOMPARE(put.body, QByteArray("true"));
        QCOMPARE(syncRequest(client, "GET", QStringLiteral("/v1/kv/tls/k?raw"), {}).body, QByteArray("v"));

        ConsulConfig untrusted;
        untrusted.address = fake.url();
        ConsulClient stranger(untrusted);
        const HttpResult refused = syncRequest(stranger, "GET", QStringLiteral("/v1/kv/tls/k?raw"), {});
        QCOMPARE(refused.status, 0);
        QVERIFY2(!refused.error.isEmpty(), "an unknown CA must not be accepted");
    }

    void aclTokenIsRequiredWhenAclsAreOn() {
        setUpTarget(false);
        m_target.fake->setAclToken(QStringLiteral("s3cret"));
        HttpResult r = syncRequest(*m_client, "GET", QStringLiteral("/v1/kv/%1/x").arg(m_target.prefix), {});
        QCOMPARE(r.status, 403);
        QCOMPARE(r.body, QByteArray("Permission denied"));
        QCOMPARE(r.header("X-Consul-Default-ACL-Policy"), QByteArray("deny"));
        ConsulConfig wrong = m_target.config;
        wrong.token = QStringLiteral("nope");
        ConsulClient wrongClient(wrong);
        r = syncRequest(wrongClient, "GET", QStringLiteral("/v1/kv/%1/x").arg(m_target.prefix), {});
        QCOMPARE(r.status, 403);
        QCOMPARE(r.body, QByteArray("ACL not found"));
        ConsulConfig right = m_target.config;
        right.token = QStringLiteral("s3cret");
        ConsulClient rightClient(right);
        r = syncRequest(rightClient, "GET", QStringLiteral("/v1/kv/%1/x").arg(m_target.prefix), {});
        QCOMPARE(r.status, 404); // allowed; the key just does not exist
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestConsulApi)
#include "tst_consul_api.moc"
