// A Consul session holder's node health (GET /v1/health/node/<node>): bodies as the health API
// documents them, what each says about the holder, and the request against the API double.
#include "ConsulTestTarget.h"
#include "TestMain.h"
#include "consul/NodeHealth.h"

#include <QtTest>

using namespace semscope;
using namespace semscope::consul;
using State = core::ClientLiveness::State;

namespace {
QByteArray check(const char *id, const char *status, const char *output, const char *service = "") {
    return QByteArray("{\"Node\":\"worker-3\",\"CheckID\":\"") + id + "\",\"Name\":\"" + id +
           "\",\"Status\":\"" + status + "\",\"Notes\":\"\",\"Output\":\"" + output + "\",\"ServiceID\":\"" +
           service + "\",\"ServiceName\":\"" + service + "\",\"ServiceTags\":[],\"Namespace\":\"default\"}";
}
} // namespace

class TestNodeHealth : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void livenessFromChecks_data() {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QStringList>("sessionChecks");
        QTest::addColumn<int>("state");
        QTest::addColumn<QString>("says");
        const QStringList serf{QStringLiteral("serfHealth")};
        QTest::newRow("serfHealth passing")
            << "[" + check("serfHealth", "passing", "Agent alive and reachable") + "]" << serf
            << int(State::Connected) << "node worker-3: serfHealth passing";
        QTest::newRow("bound check critical")
            << "[" + check("serfHealth", "critical", "Agent not live or unreachable") + "]" << serf
            << int(State::Gone)
            << "serfHealth critical: Agent not live or unreachable — the session is bound";
        QTest::newRow("critical check the session is not bound to")
            << "[" + check("serfHealth", "passing", "") + "," +
                   check("service:web", "critical", "HTTP 503", "web") + "]"
            << serf << int(State::Gone) << "service:web critical: HTTP 503 — the session is not bound to it";
        QTest::newRow("warning only")
            << "[" + check("serfHealth", "passing", "") + "," + check("disk", "warning", "85% full") + "]"
            << serf << int(State::Connected) << "disk warning: 85% full";
        QTest::newRow("no checks: unknown node") << QByteArray("[]") << serf << int(State::Unknown)
                                                 << "Consul lists no health checks for node worker-3";
        QTest::newRow("not an array")
            << QByteArray("{\"error\":1}") << serf << int(State::Unknown) << "not a JSON array";
    }
    void livenessFromChecks() {
        QFETCH(QByteArray, body);
        QFETCH(QStringList, sessionChecks);
        QFETCH(int, state);
        QFETCH(QString, says);
        NodeHealth h;
        h.node = QStringLiteral("worker-3");
        if (auto checks = parseNodeChecks(body, &h.error))
            h.checks = *checks;
        const core::ClientLiveness l = livenessFromNodeHealth(h, sessionChecks);
        QCOMPARE(int(l.state), state);
        QVERIFY2(l.evidence.contains(says), qPrintable(l.evidence));
        QCOMPARE(l.source, core::ClientLiveness::Source::ConsulNodeChecks);
    }

    // Against the API double: its node's serfHealth, passing and then critical.
    void readsTheNodeFromTheAgent() {
        ConsulTestTarget target;
        QVERIFY(target.open(false).isEmpty());
        ConsulClient client(target.config);
        auto readOnce = [&client](const QString &node) {
            std::optional<NodeHealth> out;
            readNodeHealth(client, node, [&out](NodeHealth h) { out = h; });
            (void)QTest::qWaitFor([&out] { return out.has_value(); }, 10000); // an empty answer fails below
            return out.value_or(NodeHealth{});
        };
        NodeHealth h = readOnce(target.fake->nodeName());
        QVERIFY2(h.ok(), qPrintable(h.error));
        QCOMPARE(h.checks.size(), 1);
        QCOMPARE(h.checks.first().checkId, QStringLiteral("serfHealth"));
        QCOMPARE(h.checks.first().status, QStringLiteral("passing"));
        target.fake->setSerfHealthCritical(true);
        h = readOnce(target.fake->nodeName());
        QCOMPARE(h.checks.first().status, QStringLiteral("critical"));
        QCOMPARE(livenessFromNodeHealth(h, {QStringLiteral("serfHealth")}).state, State::Gone);
        QVERIFY(readOnce(QStringLiteral("no-such-node")).checks.isEmpty());
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestNodeHealth)
#include "tst_nodehealth.moc"
