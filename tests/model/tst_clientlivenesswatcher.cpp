// The holder card's answer to "is that process still alive?", kept over time: a real redis-server,
// holders taken by semscope-cli processes, one that exited before anyone looked and one killed
// while watched, and a Consul node whose health check turns critical (the API double).
#include "RedisServer.h"
#include "TestMain.h"
#include "consuldouble/ConsulDouble.h"
#include "model/ClientLivenessWatcher.h"
#include "model/ConnectionController.h"
#include "model/ConnectionStores.h"

#include <QDateTime>
#include <QProcess>
#include <QSignalSpy>
#include <QtTest>
#include <memory>

using namespace semscope;
using State = core::ClientLiveness::State;

class TestClientLivenessWatcher : public QObject {
    Q_OBJECT

    test::RedisServer m_server;
    std::unique_ptr<model::ConnectionController> m_controller;

    static core::SemaphoreRef leased(const QString &name, qint64 limit) {
        core::SemaphoreRef r;
        r.kind = core::Kind::Leased;
        r.name = name;
        r.profile.limit = limit;
        return r;
    }

    QList<core::Holder> holders(const core::SemaphoreRef &ref) {
        std::optional<core::Snapshot> out;
        m_controller->snapshot(ref, this, [&out](core::Snapshot s) { out = s; });
        if (!QTest::qWaitFor([&out] { return out.has_value(); }, 15000))
            return {};
        return out->holders;
    }

    QStringList cliArgs(const QStringList &rest) const {
        return QStringList{QStringLiteral("--redis"), m_server.url()} + rest;
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        model::ConnectionConfig c = model::ConnectionConfig::create(core::Backend::Redis);
        c.name = QStringLiteral("liveness");
        c.url = m_server.url();
        m_controller = std::make_unique<model::ConnectionController>(c, model::storeFactoryFor(c));
        m_controller->open();
    }
    void cleanupTestCase() { m_controller.reset(); }

    // `semscope-cli acquire` exits as soon as it holds the slot: its client is gone already when the
    // card first looks, and the card says that this is only when it looked.
    void exitedBeforeFirstLook() {
        QProcess cli;
        cli.start(qEnvironmentVariable("SEMSCOPE_CLI"),
                  cliArgs({QStringLiteral("acquire"), QStringLiteral("nightly"), QStringLiteral("--kind"),
                           QStringLiteral("leased"), QStringLiteral("--limit"), QStringLiteral("2"),
                           QStringLiteral("--ttl"), QStringLiteral("60s")}));
        QVERIFY(cli.waitForFinished(30000));
        QCOMPARE(cli.exitCode(), 0);
        const QList<core::Holder> hs = holders(leased(QStringLiteral("nightly"), 2));
        QCOMPARE(hs.size(), 1);

        model::ClientLivenessWatcher watcher;
        watcher.setController(m_controller.get());
        watcher.setIntervalMs(200);
        const qint64 before = QDateTime::currentMSecsSinceEpoch();
        watcher.setHolders(hs);
        watcher.start();
        QTRY_VERIFY_WITH_TIMEOUT(watcher.livenessOf(hs.first().id).has_value(), 10000);
        const core::ClientLiveness l = *watcher.livenessOf(hs.first().id);
        QCOMPARE(l.state, State::Gone);
        QVERIFY(l.goneSinceMs && *l.goneSinceMs >= before);
        QVERIFY(l.sinceFirstLook);
        const QString text = core::livenessSummary(l, *l.goneSinceMs + 4000);
        QVERIFY2(text.startsWith(QStringLiteral("client gone (already when semscope first looked")),
                 qPrintable(text));
    }

    // A waiter queued by a running `semscope-cli acquire --wait`: connected while it runs; killed,
    // gone since the first read that missed it — and that time stays put at later reads.
    void killedWhileWatched() {
        const core::SemaphoreRef ref = leased(QStringLiteral("single"), 1);
        QProcess first;
        first.start(qEnvironmentVariable("SEMSCOPE_CLI"),
                    cliArgs({QStringLiteral("acquire"), ref.name, QStringLiteral("--kind"),
                             QStringLiteral("leased"), QStringLiteral("--limit"), QStringLiteral("1"),
                             QStringLiteral("--ttl"), QStringLiteral("60s")}));
        QVERIFY(first.waitForFinished(30000));
        QProcess waiter;
        waiter.start(qEnvironmentVariable("SEMSCOPE_CLI"),
                     cliArgs({QStringLiteral("acquire"), ref.name, QStringLiteral("--kind"),
                              QStringLiteral("leased"), QStringLiteral("--limit"), QStringLiteral("1"),
                              QStringLiteral("--wait"), QStringLiteral("120s")}));
        QVERIFY(waiter.waitForStarted());
        QList<core::Holder> hs;
        QString waiterId;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                hs = holders(ref);
                for (const core::Holder &h : hs)
                    if (h.state == core::HolderState::Waiting)
                        waiterId = h.id;
                return !waiterId.isEmpty();
            }(),
            20000);

        model::ClientLivenessWatcher watcher;
        watcher.setController(m_controller.get());
        watcher.setIntervalMs(200);
        watcher.setHolders(hs);
        watcher.start();
        QTRY_VERIFY_WITH_TIMEOUT(watcher.livenessOf(waiterId).has_value(), 10000);
        QCOMPARE(watcher.livenessOf(waiterId)->state, State::Connected);

        const qint64 killedAt = QDateTime::currentMSecsSinceEpoch();
        waiter.kill();
        QVERIFY(waiter.waitForFinished());
        QTRY_COMPARE_WITH_TIMEOUT(watcher.livenessOf(waiterId)->state, State::Gone, 10000);
        const core::ClientLiveness gone = *watcher.livenessOf(waiterId);
        QVERIFY(gone.goneSinceMs && *gone.goneSinceMs >= killedAt);
        QVERIFY(!gone.sinceFirstLook);
        QVERIFY2(core::livenessSummary(gone, *gone.goneSinceMs + 1000)
                     .startsWith(QStringLiteral("client gone since ")),
                 qPrintable(core::livenessSummary(gone, *gone.goneSinceMs + 1000)));
        // Later reads keep the first time it was missed.
        const int reads = watcher.readsCompleted();
        QTRY_VERIFY_WITH_TIMEOUT(watcher.readsCompleted() >= reads + 2, 10000);
        QCOMPARE(watcher.livenessOf(waiterId)->goneSinceMs, gone.goneSinceMs);
        // The first holder's client (exited) is gone as well; the holder that left the table
        // loses its answer.
        watcher.setHolders({});
        QVERIFY(!watcher.livenessOf(waiterId).has_value());
    }

    // Consul: a session not bound to its node's serfHealth keeps its slot when that check turns
    // critical; the card says the checks fail, and since when.
    void consulNodeChecksFailing() {
        consul::ConsulDouble agent;
        QVERIFY2(agent.listen(), qPrintable(agent.errorString()));
        model::ConnectionConfig c = model::ConnectionConfig::create(core::Backend::Consul);
        c.name = QStringLiteral("consul");
        c.address = agent.url().toString();
        model::ConnectionController controller(c, model::storeFactoryFor(c));
        controller.open();
        core::Holder h;
        h.id = QStringLiteral("deployer (fcd91948)");
        h.rawId = h.id.toUtf8();
        h.details.insert(QStringLiteral("node"), agent.nodeName());
        h.details.insert(QStringLiteral("checks"), QStringList());

        model::ClientLivenessWatcher watcher;
        watcher.setController(&controller);
        watcher.setIntervalMs(200);
        watcher.setHolders({h});
        watcher.start();
        QTRY_VERIFY_WITH_TIMEOUT(watcher.livenessOf(h.id).has_value(), 10000);
        QCOMPARE(watcher.livenessOf(h.id)->state, State::Connected);
        QCOMPARE(core::livenessSummary(*watcher.livenessOf(h.id), 0),
                 QStringLiteral("node's checks passing"));

        agent.setSerfHealthCritical(true);
        QTRY_COMPARE_WITH_TIMEOUT(watcher.livenessOf(h.id)->state, State::Gone, 10000);
        const core::ClientLiveness l = *watcher.livenessOf(h.id);
        QVERIFY2(l.evidence.contains(QStringLiteral("serfHealth critical")) &&
                     l.evidence.contains(QStringLiteral("not bound to it")),
                 qPrintable(l.evidence));
        QVERIFY(core::livenessSummary(l, *l.goneSinceMs).startsWith(QStringLiteral("checks failing since ")));

        // A node Consul does not know: it cannot tell.
        h.details.insert(QStringLiteral("node"), QStringLiteral("no-such-node"));
        watcher.setHolders({});
        watcher.setHolders({h});
        QTRY_VERIFY_WITH_TIMEOUT(watcher.livenessOf(h.id).has_value(), 10000);
        QCOMPARE(watcher.livenessOf(h.id)->state, State::Unknown);
        QVERIFY2(watcher.livenessOf(h.id)->evidence.contains(QStringLiteral("no health checks")),
                 qPrintable(watcher.livenessOf(h.id)->evidence));
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestClientLivenessWatcher)
#include "tst_clientlivenesswatcher.moc"
