#pragma once

#include "ConnectionDialog.h"
#include "core/ProfileStore.h"
#include "core/audit/AuditLog.h"
#include "model/ConnectionRegistry.h"
#include "model/SecretStore.h"

#include <QHash>
#include <QWidget>

class QAction;
class QListWidget;

namespace semscope::monitor {
class HistoryWorker;
}

namespace semscope::model {
class ConnectionSession;
}
namespace semscope::ui {

using model::ConnectionSession;

// The connections on the left of the main window: the list with each one's state, and what is done
// to a connection: add, edit, remove (with its secrets), connect (asking for a password the keyring
// does not have) and disconnect. It owns the open sessions; the window shows the selected one and
// hears about each session that starts or closes.
class ConnectionPane : public QWidget {
    Q_OBJECT
public:
    ConnectionPane(model::ConnectionRegistry *registry, model::SecretStore *secrets, core::AuditLog *audit,
                   core::ProfileStore *profiles, StoreFactoryProvider storeFactory,
                   QWidget *parent = nullptr);
    ~ConnectionPane() override;

    // Lists the registry's connections again (it does so on every change), closing the sessions of
    // removed ones, and keeps the selection.
    void reload();
    QListWidget *list() const { return m_connections; }
    // "Connections" and the Add… button, for the window to put above the list's splitter.
    QWidget *header() const { return m_header; }
    QString currentId() const;
    void select(const QString &id);
    ConnectionSession *session(const QString &id) const;
    ConnectionSession *currentSession() const;
    QList<ConnectionSession *> sessions() const { return m_sessions.values(); }

    // Connects (asking for the secret when needed) and starts discovery.
    void openConnection(const QString &id);
    void closeConnection(const QString &id);
    // Deletes every session without telling anyone: the window is going away.
    void dropSessions();

    // Opens the dialog to add a connection; returns the dialog (deleted on close), for tests.
    ConnectionDialog *addConnection();
    // Opens the dialog on the selected connection (nullptr when none); deleted on close. When the
    // connection fails, the dialog says why, where it is fixed.
    ConnectionDialog *editConnection();
    // Asks first; the saved password/token goes too.
    void removeConnection();
    // Scans the selected connection again.
    void rediscover();

    // What every session gets when it starts (and the open ones now): the shared history of seen
    // semaphores, and how long an empty semaphore stays listed.
    void setHistory(monitor::HistoryWorker *history) { m_history = history; }
    void setEmptyRetentionMs(qint64 ms);

    // File → Add/Edit/Remove connection and View → Rediscover, enabled for the selection; the
    // list's context menu offers them too.
    QAction *addAction() const { return m_addAction; }
    QAction *editAction() const { return m_editAction; }
    QAction *removeAction() const { return m_removeAction; }
    QAction *rediscoverAction() const { return m_rediscoverAction; }

Q_SIGNALS:
    // The selected connection changed, or its session started.
    void currentChanged();
    // A session was made and set up; it opens right after.
    void sessionStarted(ConnectionSession *session);
    // About to be deleted: let go of it.
    void sessionClosing(ConnectionSession *session);
    void sessionClosed(const QString &id);

protected:
    void changeEvent(QEvent *event) override;

private:
    void updateItem(const QString &id);
    void currentConnectionChanged();
    void saveConnection(ConnectionDialog *dialog, bool isNew);
    void startSession(model::ConnectionConfig config);
    void showContextMenu(const QPoint &pos);

    model::ConnectionRegistry *m_registry = nullptr;
    model::SecretStore *m_secrets = nullptr;
    core::AuditLog *m_audit = nullptr;
    core::ProfileStore *m_profiles = nullptr;
    StoreFactoryProvider m_storeFactory;
    monitor::HistoryWorker *m_history = nullptr;
    qint64 m_emptyRetentionMs = 0;

    QHash<QString, ConnectionSession *> m_sessions;
    QWidget *m_header = nullptr;
    QListWidget *m_connections = nullptr;
    QAction *m_addAction = nullptr;
    QAction *m_editAction = nullptr;
    QAction *m_removeAction = nullptr;
    QAction *m_rediscoverAction = nullptr;
};

} // namespace semscope::ui
