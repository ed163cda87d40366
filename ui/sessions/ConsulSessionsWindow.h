#pragma once

#include "model/ConsulSessionModel.h"
#include "model/ConsulSessionReader.h"

#include <QPointer>
#include <QSortFilterProxyModel>
#include <QTimer>
#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace semscope::model {
class ConnectionSession;
}
namespace semscope::ui {

using model::ConnectionSession;
class InvalidateSessionDialog;

// Every Consul session of one connection (Consul's own UI lists them only per node): name, node,
// TTL, behavior, lock delay, checks and the semaphores each one holds or waits for, sortable and
// filterable, re-read on demand (F5) and every few seconds. Invalidate opens the same dialog as a
// holder's "Invalidate session…" (type-to-confirm on production, audited, refused read-only).
// Opened from Tools → Consul sessions; one window per connection, closed with its connection.
class ConsulSessionsWindow : public QWidget {
    Q_OBJECT
public:
    ConsulSessionsWindow(ConnectionSession *session, QWidget *parent = nullptr);

    static constexpr int kDefaultRefreshMs = 5000;
    void setRefreshInterval(int ms) { m_timer.setInterval(ms); }

    const QString &connectionId() const { return m_connectionId; }
    model::ConsulSessionModel *model() { return &m_model; }
    QSortFilterProxyModel *proxy() { return &m_proxy; }
    QTableView *view() const { return m_view; }
    QLineEdit *filterEdit() const { return m_filter; }
    QPushButton *invalidateButton() const { return m_invalidate; }
    QLabel *statusLabel() const { return m_status; }
    bool isReading() const { return m_reading; }

    // Reads the sessions now (a read already running is not doubled).
    void refresh();
    // The selected session, if exactly one row is selected.
    const model::SessionEntry *selectedSession() const;
    // Opens the invalidate dialog for the selected session (deleted on close); nullptr when none.
    InvalidateSessionDialog *invalidateSelected();
    // Copies the selected rows, tab-separated, to the clipboard.
    void copySelection() const;

Q_SIGNALS:
    void refreshed(bool ok);

private:
    void applyScan(const model::SessionScan &scan);
    void updateActions();
    void showContextMenu(const QPoint &pos);

    QPointer<ConnectionSession> m_session;
    QString m_connectionId;
    model::ConsulSessionModel m_model;
    QSortFilterProxyModel m_proxy;
    QTimer m_timer;
    bool m_reading = false;
    QTableView *m_view = nullptr;
    QLineEdit *m_filter = nullptr;
    QPushButton *m_refresh = nullptr;
    QPushButton *m_invalidate = nullptr;
    QLabel *m_status = nullptr;
};

} // namespace semscope::ui
