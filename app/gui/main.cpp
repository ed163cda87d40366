// semscope: the desktop app. Connections and semaphores on the left, the selected semaphore live on
// the right. `semscope --demo` starts a private redis-server and a Consul sandbox and opens both.

#include "QuitOnSignal.h"
#include "app/demo/DemoSandbox.h"
#include "app/privateredis/LocalPrivateRedisServer.h"
#include "core/ProfileStore.h"
#include "core/audit/AuditLog.h"
#include "model/ConnectionRegistry.h"
#include "model/ConnectionStores.h"
#include "model/SecretStore.h"
#include "resources/icons/ApplicationIcon.h"
#include "ui/MainWindow.h"
#include "ui/SemaphorePage.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QMessageBox>
#include <QStatusBar>
#include <QTimer>

using namespace semscope;

int main(int argc, char *argv[]) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("semscope"));
    QApplication::setApplicationName(QStringLiteral("semscope"));
    QApplication::setApplicationVersion(QStringLiteral(SEMSCOPE_VERSION));
    // Wayland ties the window to its desktop file (and icon) by this id.
    QGuiApplication::setDesktopFileName(QString::fromLatin1(resources::kApplicationId));
    QApplication::setWindowIcon(resources::applicationIcon());

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Find, watch and steer the distributed semaphores kept in Redis and Consul."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption demo(
        QStringLiteral("demo"),
        QStringLiteral("Start a private redis-server and a Consul sandbox filled with one "
                       "semaphore of every kind, and open both. Both stop on quit."));
    const QCommandLineOption cluster(
        QStringLiteral("cluster"),
        QStringLiteral("With --demo: a private Redis Cluster (3 masters, 3 replicas, free loopback ports) "
                       "instead of the one redis-server, with semaphores on every master. Stops on quit."));
    const QCommandLineOption connect(QStringList{QStringLiteral("c"), QStringLiteral("connect")},
                                     QStringLiteral("Open the saved connection called <name> at start-up."),
                                     QStringLiteral("name"));
    const QCommandLineOption noKeyring(
        QStringLiteral("no-keyring"),
        QStringLiteral("Do not use the system keyring: ask for passwords and tokens at "
                       "connect time (never saved)."));
    const QCommandLineOption interval(QStringLiteral("refresh"),
                                      QStringLiteral("Auto-refresh interval in seconds (default 1)."),
                                      QStringLiteral("seconds"));
    parser.addOption(demo);
    parser.addOption(cluster);
    parser.addOption(connect);
    parser.addOption(noKeyring);
    parser.addOption(interval);
    parser.process(app);

    if (parser.isSet(cluster) && !parser.isSet(demo)) {
        QMessageBox::critical(nullptr, QStringLiteral("semscope"),
                              QStringLiteral("--cluster goes with --demo (semscope --demo --cluster)"));
        return 2;
    }

    app::QuitOnSignal quitOnSignal;
    if (parser.isSet(noKeyring))
        qputenv("SEMSCOPE_NO_KEYRING", "1");

    // The demo keeps its connections, profiles and audit log in its own temporary folder, so
    // trying it leaves nothing behind in the operator's real settings.
    std::unique_ptr<app::DemoSandbox> sandbox;
    std::unique_ptr<model::ConnectionRegistry> registry;
    std::unique_ptr<core::AuditLog> audit;
    std::unique_ptr<core::ProfileStore> ownProfiles;
    std::unique_ptr<model::SecretStore> secrets;
    core::ProfileStore *profiles = nullptr;
    if (parser.isSet(demo)) {
        sandbox = std::make_unique<app::DemoSandbox>();
        sandbox->setCluster(parser.isSet(cluster));
        registry = std::make_unique<model::ConnectionRegistry>(sandbox->settingsFile());
        audit = std::make_unique<core::AuditLog>(sandbox->dataDir() + QStringLiteral("/audit.jsonl"));
        profiles = sandbox->profiles();
        secrets = std::make_unique<model::MemorySecretStore>();
    } else {
        registry = std::make_unique<model::ConnectionRegistry>();
        audit = std::make_unique<core::AuditLog>();
        ownProfiles = std::make_unique<core::ProfileStore>();
        profiles = ownProfiles.get();
        secrets = model::SecretStore::createDefault();
    }

    ui::MainWindowServices services;
    services.registry = registry.get();
    services.secrets = secrets.get();
    services.audit = audit.get();
    services.profiles = profiles;
    services.storeFactory = [](const model::ConnectionConfig &c) { return model::storeFactoryFor(c); };
    services.changeHints = model::changeHintsFor;
    services.privateRedis = app::localPrivateRedisLauncher();
    auto window = std::make_unique<ui::MainWindow>(services);
    if (parser.isSet(interval)) {
        bool ok = false;
        const int seconds = parser.value(interval).toInt(&ok);
        if (!ok || seconds < 1) {
            QMessageBox::critical(nullptr, QStringLiteral("semscope"),
                                  QStringLiteral("--refresh wants a whole number of seconds, got \"%1\"")
                                      .arg(parser.value(interval)));
            return 2;
        }
        window->semaphorePage()->setIntervalMs(seconds * 1000);
    }
    window->show();
    quitOnSignal.setHandler([w = window.get()] {
        if (w->isVisible())
            w->quitStoppingRuns();
        else
            QCoreApplication::quit();
    });

    if (sandbox) {
        auto *w = window.get();
        QObject::connect(sandbox.get(), &app::DemoSandbox::progress, w,
                         [w](const QString &m) { w->statusBar()->showMessage(m, 20000); });
        QObject::connect(sandbox.get(), &app::DemoSandbox::failed, w, [w](const QString &m) {
            QMessageBox::critical(w, QStringLiteral("semscope --demo"),
                                  QStringLiteral("The demo sandbox could not start: %1").arg(m));
            QApplication::exit(2);
        });
        auto *sb = sandbox.get();
        QObject::connect(sandbox.get(), &app::DemoSandbox::ready, w, [w, sb, reg = registry.get()] {
            reg->upsert(sb->redisConnection());
            reg->upsert(sb->consulConnection());
            w->openConnection(sb->consulConnection().id);
            w->openConnection(sb->redisConnection().id);
        });
        sandbox->start();
    } else if (parser.isSet(connect)) {
        const QString name = parser.value(connect);
        bool found = false;
        for (const auto &c : registry->connections()) {
            if (c.name == name || c.id == name) {
                window->openConnection(c.id);
                found = true;
                break;
            }
        }
        if (!found)
            window->statusBar()->showMessage(QStringLiteral("No saved connection called \"%1\"").arg(name),
                                             15000);
    }

    const int rc = app.exec();
    // The window (and its connections) go before the servers they talk to.
    window.reset();
    sandbox.reset();
    return rc;
}
