#pragma once

// A main window on one connection to a real redis-server, with its connections, profiles, window
// state and secrets in a temporary folder; open() makes the window again on the same settings, as
// the app would after a restart (what it remembers must survive that).

#include "RedisServer.h"
#include "app/privateredis/LocalPrivateRedisServer.h"
#include "core/ProfileStore.h"
#include "core/audit/AuditLog.h"
#include "model/ConnectionRegistry.h"
#include "model/ConnectionSession.h"
#include "model/ConnectionStores.h"
#include "model/SecretStore.h"
#include "ui/MainWindow.h"

#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

namespace semscope::test {

struct RestartableWindow {
    RedisServer server;
    QTemporaryDir dir;
    std::unique_ptr<model::ConnectionRegistry> registry;
    std::unique_ptr<core::AuditLog> audit;
    std::unique_ptr<model::MemorySecretStore> secrets;
    std::unique_ptr<QSettings> profileSettings;
    std::unique_ptr<core::ProfileStore> profiles;
    std::unique_ptr<ui::MainWindow> window;
    model::ConnectionConfig config;

    // Starts the server and saves a connection named `name` to it; false when the server did not start.
    bool start(const QString &name) {
        if (!server.start())
            return false;
        registry = std::make_unique<model::ConnectionRegistry>(dir.filePath(QStringLiteral("c.ini")));
        audit = std::make_unique<core::AuditLog>(dir.filePath(QStringLiteral("audit.jsonl")));
        secrets = std::make_unique<model::MemorySecretStore>();
        profileSettings =
            std::make_unique<QSettings>(dir.filePath(QStringLiteral("profiles.ini")), QSettings::IniFormat);
        profiles = std::make_unique<core::ProfileStore>(profileSettings.get());
        config = model::ConnectionConfig::create(core::Backend::Redis);
        config.name = name;
        config.url = server.url();
        registry->upsert(config);
        return true;
    }

    // (Re)makes the window at 1280×720, opens the connection and waits for its first scan; nullptr
    // when the window or the scan did not come.
    model::ConnectionSession *open() {
        window.reset(); // the old one saves its state and closes its history first
        ui::MainWindowServices s;
        s.registry = registry.get();
        s.secrets = secrets.get();
        s.audit = audit.get();
        s.profiles = profiles.get();
        s.storeFactory = [](const model::ConnectionConfig &c) { return model::storeFactoryFor(c); };
        s.privateRedis = app::localPrivateRedisLauncher(); // as app/gui/main.cpp wires it
        s.settingsFile = dir.filePath(QStringLiteral("window.ini"));
        window = std::make_unique<ui::MainWindow>(s);
        window->resize(1280, 720);
        window->show();
        if (!QTest::qWaitForWindowExposed(window.get()))
            return nullptr;
        window->openConnection(config.id);
        auto *session = window->session(config.id);
        if (!session)
            return nullptr;
        QSignalSpy done(session, &model::ConnectionSession::discoveryFinished);
        if (session->isDiscovering() && !done.wait(30000))
            return nullptr;
        window->selectConnection(config.id);
        return session;
    }
};

} // namespace semscope::test
