#pragma once

#include "ConnectionDialog.h"
#include "MainWindowState.h"
#include "QuitGuard.h"
#include "core/ProfileStore.h"
#include "core/audit/AuditLog.h"
#include "model/ConnectionRegistry.h"
#include "model/ConnectionStores.h"
#include "model/SecretStore.h"
#include "ui/loadtest/PrivateRedisServer.h"

#include <QHash>
#include <QMainWindow>
#include <QMessageBox>
#include <QPointer>
#include <QTimer>
#include <memory>

class QCheckBox;
class QComboBox;
class QDockWidget;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSplitter;
class QTableView;

namespace semscope::model {
class ConnectionSession;
}
namespace semscope::ui {

class AuditPanel;
class ConnectionFailurePanel;
class ConnectionPane;
using model::ConnectionSession;
class DesktopMonitoring;
class ConsulSessionsWindow;
class HolderSearchWindow;
class LoadTestWindow;
class OpenKeyDialog;
class PinnedKeys;
class SemaphoreListPane;
class SemaphorePage;
class ToolWindows;
class TopologyWindow;
class ViewZoom;

// What the window works with; main() passes the real ones, tests pass temporary files and fakes.
struct MainWindowServices {
    model::ConnectionRegistry *registry = nullptr;
    model::SecretStore *secrets = nullptr;
    core::AuditLog *audit = nullptr;
    core::ProfileStore *profiles = nullptr;
    StoreFactoryProvider storeFactory;
    model::ChangeHintsProvider changeHints; // empty: watched semaphores are re-read on the interval only
    QString settingsFile;                   // window state; empty: default QSettings
    // Training runs' private redis-server (app/privateredis); empty: they can run on a connection only.
    PrivateRedisLauncher privateRedis;
};

// Connections and the semaphores found on the selected one on the left, the selected semaphore on
// the right, the audit log below, the connection state always in the status bar.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(MainWindowServices services, QWidget *parent = nullptr);
    ~MainWindow() override;

    // Connects (asking for the secret when needed) and starts discovery.
    void openConnection(const QString &id);
    void closeConnection(const QString &id);
    ConnectionSession *session(const QString &id) const;
    ConnectionSession *currentSession() const;
    void selectConnection(const QString &id);
    // Opens the semaphore on the page (the connection must be open).
    bool openSemaphore(const QString &connectionId, const core::SemaphoreRef &ref);
    // Watched semaphores, their notifications and the shared history (issue 19).
    DesktopMonitoring *monitoring() const { return m_monitoring; }

    SemaphorePage *semaphorePage() const { return m_page; }
    QTableView *semaphoreView() const;
    SemaphoreListPane *semaphoreListPane() const { return m_semaphoreList; }
    ViewZoom *zoom() const { return m_zoom; }
    QListWidget *connectionList() const;
    ConnectionPane *connectionPane() const { return m_connectionPane; }
    AuditPanel *auditPanel() const { return m_audit; }
    QDockWidget *auditDock() const { return m_auditDock; }
    QLabel *connectionStateLabel() const { return m_stateLabel; }
    // Shown next to the state when the server refused the password/token.
    QPushButton *editCredentialsButton() const { return m_editCredentials; }
    // Why the selected connection does not work, in the main area (hidden while it works).
    ConnectionFailurePanel *connectionFailurePanel() const { return m_failurePanel; }
    QLineEdit *filterEdit() const;
    QCheckBox *staleOnlyBox() const;
    QComboBox *kindFilter() const;

    // Tools → Load test… / Training…: the load-test window of the current connection (one per
    // connection), with the selected semaphore filled in. nullptr when no connection is open.
    LoadTestWindow *openLoadTest(bool training = false);
    // Tools → Consul sessions… (Ctrl+Shift+S): every session of the current Consul connection, one
    // window per connection. nullptr (and a status-bar hint) unless a Consul connection is open.
    ConsulSessionsWindow *openConsulSessions();
    // Tools → Topology… (Ctrl+Shift+T): every node of the current Redis connection, live, one window
    // per connection. nullptr (and a status-bar hint) unless a Redis connection is open.
    TopologyWindow *openTopology();
    // Tools → Find holder… (Ctrl+Shift+F): searches a holder id across every connected connection;
    // a result opens its semaphore here. One window, kept while the main window lives.
    HolderSearchWindow *openHolderSearch();

    // Quits without asking: asks running load tests to stop, closes once they have (or after
    // kStopRunsDeadlineMs, tearing down what is left). File → Quit asks first when a run is on.
    // Both done by the QuitGuard.
    void quitStoppingRuns();
    static constexpr int kStopRunsDeadlineMs = QuitGuard::kStopRunsDeadlineMs;
    // The "stop the load test and quit?" question while it is open, for tests.
    QMessageBox *stopRunsQuestion() const;

    // Opens the dialog to add a connection; returns the dialog (deleted on close), for tests.
    ConnectionDialog *addConnection();
    // Opens the dialog on the selected connection (nullptr when none); deleted on close.
    ConnectionDialog *editConnection();
    // File → Open key… (Ctrl+O): a key of the current Redis connection by name, its kind guessed
    // and confirmed; kept in the connection's profile and listed from then on. nullptr (and a
    // status-bar hint) unless a Redis connection is open. Deleted on close.
    OpenKeyDialog *openKey();
    // Right-click → Forget on a pinned or empty row: unpinned, off the list and out of the history's
    // seen semaphores.
    void forgetSemaphore(const QString &connectionId, const core::SemaphoreRef &ref);
    // View → Keep empty semaphores listed…: hours an empty semaphore stays listed (QSettings
    // list/keepEmptyHours, default 24; 0 drops it at the first scan that misses it).
    void setKeepEmptyHours(int hours);
    int keepEmptyHours() const;
    // Help → About: version, Qt version, the audit log's path and the application icon.
    QMessageBox *showAbout();
    // The semaphore list's context menu for the row at `proxyIndex` (nullptr: separator).
    QList<QAction *> semaphoreContextActions(const QModelIndex &proxyIndex);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void buildLeft(QSplitter *splitter);
    void updateStatus();
    void updateFailurePanel();
    void updateOpenKeyAction(); // File → Open key… is offered on an open Redis connection only
    void currentConnectionChanged();
    void semaphoreActivated(const QModelIndex &proxyIndex);
    // Puts `ref` of `s` on the page and remembers it as that connection's shown semaphore.
    void showSemaphore(ConnectionSession *s, const core::SemaphoreRef &ref);
    // The page follows the selected connection: its last shown semaphore, or nothing.
    void showPageOf(ConnectionSession *s);
    // The window's part of a session that starts (status, list, scan bar, watched semaphores) and
    // of one that closes (the page and the list let go of it).
    void attachSession(ConnectionSession *s);
    void detachSession(ConnectionSession *s);
    MainWindowParts layoutParts(); // what restoreMainWindowState/saveMainWindowState keep
    QString currentConnectionId() const;

    MainWindowServices m_services;

    ConnectionPane *m_connectionPane = nullptr;
    SemaphoreListPane *m_semaphoreList = nullptr;
    SemaphorePage *m_page = nullptr;
    ConnectionFailurePanel *m_failurePanel = nullptr;
    DesktopMonitoring *m_monitoring = nullptr;
    AuditPanel *m_audit = nullptr;
    QDockWidget *m_auditDock = nullptr;
    QSplitter *m_splitter = nullptr;
    QSplitter *m_leftSplitter = nullptr;
    QLabel *m_stateLabel = nullptr;
    QLabel *m_busyLabel = nullptr;
    QPushButton *m_editCredentials = nullptr;
    QAction *m_openKeyAction = nullptr;
    ViewZoom *m_zoom = nullptr;
    QuitGuard *m_quitGuard = nullptr;
    ToolWindows *m_toolWindows = nullptr;
    PinnedKeys *m_pinnedKeys = nullptr;
};

} // namespace semscope::ui
