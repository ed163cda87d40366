#pragma once

#include "core/audit/AuditLog.h"
#include "ui/loadtest/PrivateRedisServer.h"

#include <QObject>
#include <QString>

namespace semscope::ui {

class ConsulSessionsWindow;
class HolderSearchWindow;
class LoadTestWindow;
class MainWindow;
class TopologyWindow;

// The Tools menu's windows, opened on the main window's current connection: each is a child of the
// main window, one per connection (one in all for the holder search); asking again brings the open
// one back. Without a fitting connection the status bar says what to select instead.
class ToolWindows : public QObject {
    Q_OBJECT
public:
    // `settingsFile`: where the load-test window keeps its values (empty: the application's).
    // `privateRedis`: where training runs get their private redis-server.
    ToolWindows(MainWindow *window, const QString &settingsFile, core::AuditLog *audit,
                PrivateRedisLauncher privateRedis);

    LoadTestWindow *openLoadTest(bool training);
    ConsulSessionsWindow *openConsulSessions();
    TopologyWindow *openTopology();
    HolderSearchWindow *openHolderSearch();

private:
    MainWindow *m_window = nullptr;
    QString m_settingsFile;
    core::AuditLog *m_audit = nullptr;
    PrivateRedisLauncher m_privateRedis;
};

} // namespace semscope::ui
