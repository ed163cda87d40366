#pragma once

// Shared by the GUI tests: the demo sandbox (private redis-server + Consul double) and a MainWindow
// wired to it with temporary settings, an in-memory secret store and a temporary audit log.

#include "app/demo/DemoSandbox.h"
#include "app/privateredis/LocalPrivateRedisServer.h"
#include "core/audit/AuditLog.h"
#include "model/ConnectionRegistry.h"
#include "model/ConnectionSession.h"
#include "model/ConnectionStores.h"
#include "model/SecretStore.h"
#include "ui/MainWindow.h"
#include "ui/SemaphorePage.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

namespace semscope::test {

class DemoFixture {
public:
    // Starts the sandbox (with `cluster`, its Redis Cluster); false (with QWARN) when it cannot (no
    // redis-server).
    bool start(bool withLoad = false, bool cluster = false) {
        sandbox = std::make_unique<app::DemoSandbox>();
        sandbox->setCluster(cluster);
        QSignalSpy ready(sandbox.get(), &app::DemoSandbox::ready);
        QSignalSpy failed(sandbox.get(), &app::DemoSandbox::failed);
        sandbox->start();
        for (int i = 0; i < 600 && ready.isEmpty() && failed.isEmpty(); ++i)
            ready.wait(100);
        if (!failed.isEmpty()) {
            qWarning() << "demo sandbox failed:" << failed.first().first().toString();
            return false;
        }
        if (ready.isEmpty())
            return false;
        sandbox->setLoadRunning(withLoad);
        registry =
            std::make_unique<model::ConnectionRegistry>(dir.path() + QStringLiteral("/connections.ini"));
        audit = std::make_unique<core::AuditLog>(dir.path() + QStringLiteral("/audit.jsonl"));
        secrets = std::make_unique<model::MemorySecretStore>();
        window = std::make_unique<ui::MainWindow>(services(QStringLiteral("window.ini")));
        window->resize(1600, 940);
        return true;
    }

    // What a main window on the sandbox works with; its window state goes to `settingsName`.
    ui::MainWindowServices services(const QString &settingsName) const {
        ui::MainWindowServices s;
        s.registry = registry.get();
        s.secrets = secrets.get();
        s.audit = audit.get();
        s.profiles = sandbox->profiles();
        s.storeFactory = [](const model::ConnectionConfig &c) { return model::storeFactoryFor(c); };
        s.privateRedis = app::localPrivateRedisLauncher(); // as app/gui/main.cpp wires it
        s.settingsFile = dir.path() + QLatin1Char('/') + settingsName;
        return s;
    }

    // Adds and opens a demo connection, waits for discovery to finish.
    model::ConnectionSession *open(model::ConnectionConfig config) {
        registry->upsert(config);
        window->openConnection(config.id);
        auto *s = window->session(config.id);
        if (!s)
            return nullptr;
        QSignalSpy done(s, &model::ConnectionSession::discoveryFinished);
        if (s->isDiscovering() && !done.wait(60000))
            return nullptr;
        return s;
    }

    ~DemoFixture() {
        window.reset();
        sandbox.reset();
    }

    QTemporaryDir dir;
    std::unique_ptr<app::DemoSandbox> sandbox;
    std::unique_ptr<model::ConnectionRegistry> registry;
    std::unique_ptr<core::AuditLog> audit;
    std::unique_ptr<model::MemorySecretStore> secrets;
    std::unique_ptr<ui::MainWindow> window;
};

} // namespace semscope::test
