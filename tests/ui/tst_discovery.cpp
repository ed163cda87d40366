// Discovery in the main window against a server that is stuck (CLIENT PAUSE): the progress bar
// shows at once, and Cancel gives the operator control back at once — it does not wait for the
// server — keeping what was found; the scan's late answer changes nothing.

#include "RedisServer.h"
#include "TestMain.h"
#include "core/audit/AuditLog.h"
#include "model/ConnectionRegistry.h"
#include "model/ConnectionSession.h"
#include "model/ConnectionStores.h"
#include "model/SecretStore.h"
#include "ui/MainWindow.h"

#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>

using namespace semscope;

namespace {
// A main window whose connections, secrets, audit log, profiles and window state live in a
// temporary folder.
struct WindowFixture {
    QTemporaryDir dir;
    model::ConnectionRegistry registry{dir.path() + QStringLiteral("/connections.ini")};
    core::AuditLog audit{dir.path() + QStringLiteral("/audit.jsonl")};
    model::MemorySecretStore secrets;
    QSettings profileSettings{dir.path() + QStringLiteral("/profiles.ini"), QSettings::IniFormat};
    core::ProfileStore profiles{&profileSettings};
    ui::MainWindow window{services()};

    ui::MainWindowServices services() {
        ui::MainWindowServices s;
        s.registry = &registry;
        s.secrets = &secrets;
        s.audit = &audit;
        s.profiles = &profiles;
        s.storeFactory = [](const model::ConnectionConfig &c) { return model::storeFactoryFor(c); };
        s.settingsFile = dir.path() + QStringLiteral("/window.ini");
        return s;
    }
};
// A Redis connection on `port` saved, opened and selected in the fixture's window; its session.
model::ConnectionSession *openSelected(WindowFixture &f, const QString &name, quint16 port,
                                       const QString &discoverMatch = {}) {
    auto config = model::ConnectionConfig::create(core::Backend::Redis);
    config.name = name;
    config.port = port;
    config.discoverMatch = discoverMatch;
    f.registry.upsert(config);
    f.window.openConnection(config.id);
    f.window.selectConnection(config.id);
    return f.window.session(config.id);
}
} // namespace

class TestDiscovery : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cancelWhileTheServerIsStuck();
    void theScanBarShowsTheSelectedConnectionsOwnScan();
    void listsSemaphoresKnownOnlyByTheirProfile();
    void newLockIsListedWithinTheListsRefresh();
    void scanBarCountsKeysInTheSingular();
    void scanWithAGlobCountsTheKeysThatMatched();
};

void TestDiscovery::cancelWhileTheServerIsStuck() {
    test::RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    WindowFixture f;
    ui::MainWindow &window = f.window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    // Every command of every client waits for 4 s from now.
    QVERIFY(!server.command({"CLIENT", "PAUSE", "4000", "ALL"}).isError());
    auto config = model::ConnectionConfig::create(core::Backend::Redis);
    config.name = QStringLiteral("stuck redis");
    config.port = server.port();
    f.registry.upsert(config);
    window.openConnection(config.id);
    model::ConnectionSession *session = window.session(config.id);
    QVERIFY(session);
    QVERIFY(session->isDiscovering());
    auto *progress = window.findChild<QProgressBar *>(QStringLiteral("discoveryProgress"));
    auto *cancel = window.findChild<QPushButton *>(QStringLiteral("discoveryCancel"));
    QVERIFY(progress && cancel);
    QVERIFY(progress->isVisible());
    QVERIFY(cancel->isVisible());

    QSignalSpy finished(session, &model::ConnectionSession::discoveryFinished);
    QTest::mouseClick(cancel, Qt::LeftButton);
    // At once, not when the server wakes up.
    QCOMPARE(finished.size(), 1);
    QCOMPARE(finished.first().at(1).toBool(), true);
    QVERIFY(!session->isDiscovering());
    QVERIFY(!progress->isVisible());
    QVERIFY(window.statusBar()->currentMessage().contains(QLatin1String("cancelled")));

    // When the server answers after all, the cancelled scan reports nothing more, and a new
    // discovery works normally.
    QVERIFY(!server.command({"SET", "unrelated", "1"}).isError()); // waits out the pause
    QSignalSpy again(session, &model::ConnectionSession::discoveryFinished);
    session->discover();
    QVERIFY(again.wait(30000));
    QCOMPARE(again.size(), 1);
    QCOMPARE(again.first().at(0).toBool(), true);
    QCOMPARE(again.first().at(1).toBool(), false);
    QCOMPARE(finished.size(), 2); // the new round only; the stuck one stayed silent
}

// The discovery bar is one for all connections: selecting a connection whose scan is still waiting
// showed the count of the connection scanned before it.
void TestDiscovery::theScanBarShowsTheSelectedConnectionsOwnScan() {
    test::RedisServer stuck, quick;
    QVERIFY2(stuck.start(), qPrintable(stuck.errorString()));
    QVERIFY2(quick.start(), qPrintable(quick.errorString()));
    QVERIFY(!quick.command({"SET", "lock:deploy", "worker-1"}).isError());
    WindowFixture f;
    ui::MainWindow &window = f.window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto *label = window.findChild<QLabel *>(QStringLiteral("discoveryLabel"));
    QVERIFY(label);

    QVERIFY(!stuck.command({"CLIENT", "PAUSE", "8000", "ALL"}).isError());
    auto waiting = model::ConnectionConfig::create(core::Backend::Redis);
    waiting.name = QStringLiteral("stuck redis");
    waiting.port = stuck.port();
    f.registry.upsert(waiting);
    window.openConnection(waiting.id);
    model::ConnectionSession *stuckSession = window.session(waiting.id);
    QVERIFY(stuckSession && stuckSession->isDiscovering());

    auto answering = model::ConnectionConfig::create(core::Backend::Redis);
    answering.name = QStringLiteral("quick redis");
    answering.port = quick.port();
    f.registry.upsert(answering);
    window.openConnection(answering.id);
    window.selectConnection(answering.id);
    model::ConnectionSession *quickSession = window.session(answering.id);
    QVERIFY(quickSession);
    QSignalSpy progress(quickSession, &model::ConnectionSession::discoveryProgress);
    QSignalSpy done(quickSession, &model::ConnectionSession::discoveryFinished);
    QVERIFY(done.wait(30000));
    QVERIFY(!progress.isEmpty()); // the quick scan did report a count

    window.selectConnection(waiting.id);
    QVERIFY(stuckSession->isDiscovering()); // still waiting for the paused server
    QVERIFY(label->isVisibleTo(&window));
    QCOMPARE(label->text(), QStringLiteral("Scanning…"));
    stuckSession->cancelDiscovery();
}

// A keyspace of one key is "Scanning: 1 key", not "1 keys".
void TestDiscovery::scanBarCountsKeysInTheSingular() {
    test::RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    QVERIFY(!server.command({"SET", "lock:deploy", "worker-1"}).isError());
    WindowFixture f;
    f.window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&f.window));
    auto *label = f.window.findChild<QLabel *>(QStringLiteral("discoveryLabel"));
    QVERIFY(label);
    model::ConnectionSession *session = openSelected(f, QStringLiteral("one key"), server.port());
    QVERIFY(session);
    // Read as each count arrives: the bar is hidden again once the scan is done.
    QStringList shown;
    connect(session, &model::ConnectionSession::discoveryProgress, label, [&] { shown << label->text(); });
    QSignalSpy done(session, &model::ConnectionSession::discoveryFinished);
    QVERIFY(done.wait(30000));
    const bool singular = std::any_of(shown.cbegin(), shown.cend(), [](const QString &text) {
        return text.startsWith(QLatin1String("Scanning: 1 key, "));
    });
    QVERIFY2(singular, qPrintable(shown.join(QStringLiteral(" | "))));
}

// With a Discover keys glob, Redis' SCAN MATCH hands back only the keys that matched: 3 of 2,000 here.
// The bar measured them against the whole keyspace ("Scanning: 3 keys" at 0 % for the whole walk); it
// says what they are, and shows how far the walk is from the scan's cursor.
void TestDiscovery::scanWithAGlobCountsTheKeysThatMatched() {
    test::RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    QList<QByteArray> mset{"MSET"};
    for (int i = 0; i < 2000; ++i)
        mset << "cache:" + QByteArray::number(i) << "x";
    QVERIFY(!server.command(mset).isError());
    for (const char *lock : {"lock:deploy", "lock:backup", "lock:report"})
        QVERIFY(!server.command({"SET", lock, "worker-1"}).isError());
    WindowFixture f;
    f.window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&f.window));
    auto *label = f.window.findChild<QLabel *>(QStringLiteral("discoveryLabel"));
    auto *bar = f.window.findChild<QProgressBar *>(QStringLiteral("discoveryProgress"));
    QVERIFY(label && bar);
    model::ConnectionSession *session =
        openSelected(f, QStringLiteral("locks only"), server.port(), QStringLiteral("lock:*"));
    QVERIFY(session);
    QStringList shown;
    QList<int> maxima;
    QList<int> values;
    connect(session, &model::ConnectionSession::discoveryProgress, label, [&] {
        shown << label->text();
        maxima << bar->maximum();
        values << bar->value();
    });
    QSignalSpy done(session, &model::ConnectionSession::discoveryFinished);
    QVERIFY(done.wait(30000));
    QVERIFY(!shown.isEmpty());
    QVERIFY2(shown.constLast().startsWith(QLatin1String("Scanning: 3 keys matched, ")),
             qPrintable(shown.join(QStringLiteral(" | "))));
    QCOMPARE(maxima.constLast(), 1000);
    QVERIFY(std::is_sorted(values.cbegin(), values.cend()));
    QCOMPARE(values.constLast(), 1000); // the whole keyspace walked, 3 keys of it matched
    const QString finished = done.constFirst().at(2).toString();
    QVERIFY2(finished.contains(QLatin1String("3 keys matched")), qPrintable(finished));
}

// An idle Redisson RSemaphore is a bare integer string: only the profile the operator saved (here
// or with semscope-cli set-limit) says it is a semaphore, so discovery must be given the profiles.
void TestDiscovery::listsSemaphoresKnownOnlyByTheirProfile() {
    test::RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    QVERIFY(!server.command({"SET", "report-permits", "3"}).isError());
    WindowFixture f;
    auto config = model::ConnectionConfig::create(core::Backend::Redis);
    config.name = QStringLiteral("redisson app");
    config.port = server.port();
    f.registry.upsert(config);
    core::SemaphoreProfile profile;
    profile.limit = 3;
    f.profiles.save(config.endpoint(), core::Kind::RedissonSemaphore, QStringLiteral("report-permits"),
                    profile);

    f.window.openConnection(config.id);
    model::ConnectionSession *session = f.window.session(config.id);
    QVERIFY(session);
    QSignalSpy finished(session, &model::ConnectionSession::discoveryFinished);
    QVERIFY(finished.wait(30000));
    QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(2).toString()));
    const QList<core::SemaphoreRef> refs = session->list.refs();
    const bool listed = std::any_of(refs.cbegin(), refs.cend(), [](const core::SemaphoreRef &r) {
        return r.kind == core::Kind::RedissonSemaphore && r.name == QLatin1String("report-permits");
    });
    QVERIFY(listed);
}

// A lock taken after the connection was opened is listed as soon as the list refreshes on a small
// keyspace (a scan costs the server far less than its budget), not a minute later; the connection's
// tooltip says how often new semaphores are looked for and why.
void TestDiscovery::newLockIsListedWithinTheListsRefresh() {
    test::RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    WindowFixture f;
    auto config = model::ConnectionConfig::create(core::Backend::Redis);
    config.name = QStringLiteral("plain redis");
    config.port = server.port();
    f.registry.upsert(config);
    f.window.openConnection(config.id);
    model::ConnectionSession *session = f.window.session(config.id);
    QVERIFY(session);
    QSignalSpy scheduled(session, &model::ConnectionSession::discoveryScheduled);
    QVERIFY(scheduled.wait(30000));
    const QString note = scheduled.first().at(1).toString();
    QVERIFY2(note.startsWith(QLatin1String("looking for new semaphores every 3.0 s")), qPrintable(note));
    QCOMPARE(session->discoveryNote(), note);
    auto *connections = f.window.findChild<QListWidget *>();
    QVERIFY(connections);
    bool inTooltip = false;
    for (int i = 0; i < connections->count(); ++i)
        inTooltip = inTooltip || connections->item(i)->toolTip().contains(note);
    QVERIFY(inTooltip);

    QCOMPARE(server.command({"SET", "locks:nightly", "worker-9", "NX", "PX", "600000"}).str,
             QByteArray("OK"));
    const auto listed = [session] {
        const QList<core::SemaphoreRef> refs = session->list.refs();
        return std::any_of(refs.cbegin(), refs.cend(), [](const core::SemaphoreRef &r) {
            return r.name == QLatin1String("locks:nightly");
        });
    };
    // A few list refreshes, far less than the minute the periodic scan used to wait.
    QTRY_VERIFY_WITH_TIMEOUT(listed(), 15000);
}

SEMSCOPE_TEST_MAIN(TestDiscovery)
#include "tst_discovery.moc"
