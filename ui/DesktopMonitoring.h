#pragma once

#include "core/SemaphoreTypes.h"
#include "model/WatchController.h"

#include <QObject>
#include <memory>

class QAction;
class QSystemTrayIcon;

namespace semscope::monitor {
class HistoryWorker;
}
namespace semscope::core {
class ProfileStore;
}

namespace semscope::model {
class ConnectionSession;
}
namespace semscope::ui {

using model::ConnectionSession;

// The app's side of monitoring (issue 19): the shared history, the background watcher of starred
// semaphores (model::WatchController) and the system notifications. The tray icon shows only while
// something is watched; clicking a notification asks to open the semaphore it is about.
class DesktopMonitoring : public QObject {
    Q_OBJECT
public:
    explicit DesktopMonitoring(core::ProfileStore *profiles, QObject *parent = nullptr);
    ~DesktopMonitoring() override;

    monitor::HistoryWorker *history() const { return m_history.get(); }
    // The history is written on its own thread; a force-release waits for its mark there, at most
    // this long for another process (events that could not be written wait in memory for the next
    // write).
    static constexpr int kGuiBusyTimeoutMs = 250;
    model::WatchController *watch() const { return m_watch.get(); }
    QSystemTrayIcon *tray() const { return m_tray; }

    // A session's starred semaphores are watched from now on; its force-releases are marked in the
    // history. detach() before the session goes.
    void attach(ConnectionSession *session);
    void detach(const QString &connectionId);

    // "Watch" / "Stop watching" for the semaphore list's context menu (parented to `parent`).
    QAction *makeWatchAction(const QString &connectionId, const core::SemaphoreRef &ref, QObject *parent);

    // The notification last shown (what a click on it opens).
    const std::optional<model::WatchNotification> &lastNotification() const { return m_last; }

Q_SIGNALS:
    void openRequested(const QString &connectionId, const semscope::core::SemaphoreRef &ref);
    // Also emitted where the platform shows no tray (tests, some desktops).
    void notified(const semscope::model::WatchNotification &notification);

private:
    void updateTray();
    void show(const model::WatchNotification &notification);

    std::unique_ptr<monitor::HistoryWorker> m_history;
    std::unique_ptr<model::WatchController> m_watch;
    QSystemTrayIcon *m_tray = nullptr;
    std::optional<model::WatchNotification> m_last;
};

} // namespace semscope::ui
