#pragma once

#include "core/SemaphoreTypes.h"

#include <QModelIndex>
#include <QWidget>
#include <functional>

class QAction;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableView;

namespace semscope::model {
class ConnectionSession;
}

namespace semscope::ui {

class SpareWidthKeeper;

// The semaphores found on the selected connection, under the connection list: the filters, the
// progress of a scan the operator started, and the table with its columns fitted to the font.
class SemaphoreListPane : public QWidget {
    Q_OBJECT
public:
    // `settingsFile`: where the table's header state is kept (empty: the application's settings).
    explicit SemaphoreListPane(const QString &settingsFile, QWidget *parent = nullptr);

    QTableView *view() const { return m_semaphoreView; }
    QLineEdit *filterEdit() const { return m_filter; }
    QCheckBox *staleOnlyBox() const { return m_staleOnly; }
    QComboBox *kindFilter() const { return m_kindFilter; }

    // Lists the semaphores of `s` (nullptr: none) with the filters applied.
    void showSession(model::ConnectionSession *s);
    model::ConnectionSession *session() const { return m_session; }
    // `s` is closing: the table lets go of its list.
    void letGoOf(model::ConnectionSession *s);
    // Selects the row of `ref` in the list of `s` (no-op when it is filtered out).
    void selectSemaphore(model::ConnectionSession *s, const core::SemaphoreRef &ref);
    // The discovery bar, for the shown connection: only for a scan the operator started.
    void showScanProgress(model::ConnectionSession *s);
    void hideScanProgress();
    // The Node column is shown only when the list has Cluster semaphores.
    void updateNodeColumn();
    // View → Filter semaphores (Ctrl+F).
    void focusFilter();
    QByteArray saveHeaderState() const;
    // The context menu's actions for the row at a proxy index (nullptr: separator); the ones named
    // "semaphoreContextAction" are deleted once the menu closes.
    void setContextActions(std::function<QList<QAction *>(const QModelIndex &)> actions) {
        m_contextActions = std::move(actions);
    }

Q_SIGNALS:
    // The current row of the shown list changed (the index is the proxy's).
    void currentRowChanged(const QModelIndex &proxyIndex);

protected:
    void changeEvent(QEvent *event) override;

private:
    void applyFilters();
    void fitColumns(); // widths in units of the (zoomed) font
    void showContextMenu(const QPoint &pos);

    QString m_settingsFile;
    model::ConnectionSession *m_session = nullptr;
    std::function<QList<QAction *>(const QModelIndex &)> m_contextActions;
    QLineEdit *m_filter = nullptr;
    QComboBox *m_kindFilter = nullptr;
    QCheckBox *m_staleOnly = nullptr;
    QCheckBox *m_expiring = nullptr;
    QSpinBox *m_expiringSeconds = nullptr;
    QTableView *m_semaphoreView = nullptr;
    SpareWidthKeeper *m_semaphoreSpareWidth = nullptr;
    QWidget *m_discoveryBar = nullptr;
    QProgressBar *m_discoveryProgress = nullptr;
    QLabel *m_discoveryLabel = nullptr;
    QPushButton *m_discoveryCancel = nullptr;
};

} // namespace semscope::ui
