#pragma once

#include "ForceReleaseDialog.h"
#include "HolderTableView.h"
#include "SemaphorePageActions.h"
#include "core/ProfileStore.h"
#include "model/ClientLivenessWatcher.h"
#include "model/HistorySeries.h"
#include "model/HolderSortProxy.h"
#include "model/HolderTableModel.h"

#include <QAbstractProxyModel>
#include <QTimer>
#include <QWidget>

class QAction;
class QLabel;
class QMenu;
class QTableView;
class QTabWidget;
class QToolBar;

namespace semscope::model {
class ConnectionSession;
class WatchController;
} // namespace semscope::model
namespace semscope::monitor {
class HistoryWorker;
}

namespace semscope::ui {

class ChartsPanel;
using model::ConnectionSession;
class HistoryPanel;
class HolderDetailCard;
class InvalidateSessionDialog;
class RawKeysWindow;
class ReplicationPanel;
class SemaphoreCommands;
class SemaphoreHeader;

// One semaphore, live: header (kind, name, limit and its source, used/limit gauge), the holder
// table with TTLs counting down, a card for the selected holder, charts, and the operator actions.
// Re-reads every interval (default 1 s, pausable); a read still in flight is never doubled up.
class SemaphorePage : public QWidget {
    Q_OBJECT
public:
    explicit SemaphorePage(core::ProfileStore *profiles, QWidget *parent = nullptr);
    ~SemaphorePage() override;

    void setSemaphore(ConnectionSession *session, const core::SemaphoreRef &ref);
    void clearSemaphore();
    ConnectionSession *session() const { return m_session; }
    core::SemaphoreRef ref() const { return m_ref; }
    bool hasSemaphore() const { return m_session != nullptr; }

    model::HolderTableModel *holderModel() { return &m_holders; }
    QAbstractProxyModel *holderProxy() { return &m_proxy; }
    // "on <connection> · <address>" above the semaphore: which connection the page belongs to.
    QLabel *connectionLabel() const;
    QTableView *holderView() const { return m_view; }
    model::HistorySeries *history() { return &m_history; }
    // Whether each holder's client is still connected, for the holder card (issue 31 item 6).
    model::ClientLivenessWatcher *clientLiveness() { return &m_liveness; }
    int snapshotsApplied() const { return m_applied; }

    // Monitoring (issue 19): the ★ Watch toggle and the History tab. Not owned; both nullable.
    void setMonitoring(model::WatchController *watch, monitor::HistoryWorker *history);
    QAction *watchAction() const { return m_actions->watch; }
    HistoryPanel *historyPanel() const { return m_historyPanel; }
    QTabWidget *lowerTabs() const { return m_lowerTabs; }
    // The Replication tab: the serving master, its replicas' lag, the connection's failovers.
    ReplicationPanel *replicationPanel() const { return m_replication; }

    bool isPaused() const { return m_paused; }
    void setPaused(bool paused);
    void setIntervalMs(int ms);
    int intervalMs() const { return m_timer.interval(); }

    // Holders selected in the table (copies, as the operator sees them now).
    QList<ObservedHolder> selectedHolders() const;
    // Selects the row of `holderId`; false when it is not in the table.
    bool selectHolder(const QString &holderId);
    // The selected rows as tab-separated text with a header line (holder, token, TTL, state), in
    // the order shown: what Ctrl+C puts on the clipboard.
    QString selectedRowsText() const;
    QAction *copyRowsAction() const { return m_actions->copyRows; }

    QAction *refreshAction() const { return m_actions->refreshNow; }
    QAction *forceReleaseAction() const { return m_actions->forceRelease; }
    QList<QAction *> writeActions() const { return m_actions->writes(); }
    QList<QAction *> allActions() const { return m_actions->all(); }
    // What the holder table's context menu offers now (nullptr: separator).
    QList<QAction *> contextMenuActions() const { return m_actions->contextMenu(); }

    // Opens the force-release dialog for the selection; returns it (it deletes itself on close).
    ForceReleaseDialog *forceReleaseSelected();
    // Consul: opens the invalidate-session dialog for the one selected holder (deleted on close).
    InvalidateSessionDialog *invalidateSelectedSession();
    QAction *invalidateAction() const { return m_actions->invalidate; }
    // Raw keys… (Ctrl+K): the shown semaphore's keys as stored, read-only; nullptr when none shown.
    QAction *rawKeysAction() const { return m_actions->rawKeys; }
    RawKeysWindow *openRawKeys();

    QByteArray saveViewState() const;
    void restoreViewState(const QByteArray &state);
    // The holder table's column menu (right-click on its header, or Columns in the rows' menu): the
    // columns this semaphore's holders have data for, each shown or hidden by the operator. The
    // caller owns the menu.
    QMenu *makeColumnMenu(QWidget *parent);
    // What the operator chose there, by column title (shown or not): it holds for every semaphore
    // a column applies to, and the main window keeps it across restarts.
    QVariantMap columnChoices() const;
    void setColumnChoices(const QVariantMap &choices);

    // Shows a finished read: holder table (updated in place), header, card, charts. Called with
    // each answer of the store; public so bench_holdertable measures exactly this.
    void applySnapshot(const core::Snapshot &snapshot);

public Q_SLOTS:
    void refreshNow();
    // Twice a second between reads: ages and TTLs count down, the card and the charts follow.
    void tick();

Q_SIGNALS:
    void snapshotApplied(const core::Snapshot &snapshot);
    void statusMessage(const QString &message);

protected:
    void changeEvent(QEvent *event) override;

private:
    void buildLayout();
    void connectActions();
    void fitToFont(); // row heights and column widths follow the (zoomed) font
    // maxAgeMs: how old a read shared with the list or the watcher may be (0: a read sent now).
    void requestSnapshot(qint64 maxAgeMs);
    qint64 sharedReadAgeMs() const;
    void startUpdates();
    void stopUpdates();
    void updatePlace(); // "on <connection> · <address> · master …, slot …"
    void updateColumns(const core::Snapshot &snapshot);
    void updateActions();
    void updateCard();
    void updateAge();
    void keepKeyColumnsInFront();
    void showContextMenu(const QPoint &pos);
    void purgeExpired();
    void updateWatchToggle();
    core::SemaphoreRef resolvedRef() const;
    void keepChartHistory(); // the shown semaphore's charts, kept in its session's archive

    ConnectionSession *m_session = nullptr;
    core::SemaphoreRef m_ref;
    quint64 m_generation = 0;     // per read: a newer read makes older answers stale
    quint64 m_pageGeneration = 0; // per semaphore shown: answers for another semaphore are dropped
    bool m_inFlight = false;
    bool m_paused = false;
    std::optional<core::SemaphoreRef> m_watching;
    qint64 m_lastReadLocalMs = 0;
    QString m_selectOnRead; // a holder just acquired here, selected when a read shows it
    int m_applied = 0;

    core::Snapshot m_lastSnapshot;
    QMap<int, bool> m_columnChoices; // HolderTableModel column -> shown, as the operator chose
    model::HolderTableModel m_holders;
    model::HolderSortProxy m_proxy;
    model::HistorySeries m_history;
    model::ClientLivenessWatcher m_liveness;
    QTimer m_timer;
    QTimer m_ageTimer;

    SemaphorePageActions *m_actions;
    SemaphoreCommands *m_commands;
    SemaphoreHeader *m_header = nullptr;
    QToolBar *m_toolbar = nullptr;
    HolderTableView *m_view = nullptr;
    HolderDetailCard *m_card = nullptr;
    ChartsPanel *m_charts = nullptr;
    QTabWidget *m_lowerTabs = nullptr;
    HistoryPanel *m_historyPanel = nullptr;
    ReplicationPanel *m_replication = nullptr;
    QMetaObject::Connection m_placeConnection;
    model::WatchController *m_watch = nullptr;
};

} // namespace semscope::ui
