#pragma once

#include "model/HolderSearch.h"
#include "model/HolderSearchModel.h"

#include <QSortFilterProxyModel>
#include <QWidget>
#include <functional>

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTableView;

namespace semscope::ui {

// "Where does worker-17 hold anything?" across every open connection: a search field (substring,
// or a glob with * ? [ ]), a progress bar with Cancel while the semaphores are read in the
// background, and the holders found as a table. Activating a row (double-click, Return) opens that
// semaphore on its connection. Opened with Ctrl+Shift+F from the main window.
class HolderSearchWindow : public QWidget {
    Q_OBJECT
public:
    using TargetProvider = std::function<QList<model::HolderSearchTarget>()>;

    HolderSearchWindow(TargetProvider targets, QWidget *parent = nullptr);

    QLineEdit *searchEdit() const { return m_edit; }
    QPushButton *searchButton() const { return m_search; }
    QPushButton *cancelButton() const { return m_cancel; }
    QProgressBar *progressBar() const { return m_progress; }
    QLabel *statusLabel() const { return m_status; }
    QTableView *view() const { return m_view; }
    model::HolderSearchModel *model() { return &m_model; }
    QSortFilterProxyModel *proxy() { return &m_proxy; }
    bool isSearching() const { return m_engine.isRunning(); }

    // Starts a search for what the field holds (replacing a running one).
    void search();
    void cancel();
    // Focuses the field with its text selected, ready for a new search.
    void focusSearch();
    void copySelection() const;

Q_SIGNALS:
    void openRequested(const QString &connectionId, const core::SemaphoreRef &ref);
    void searchFinished(bool cancelled);

private:
    void activated(const QModelIndex &proxyIndex);
    void finished(bool cancelled, int read, int skipped, const QStringList &errors);

    TargetProvider m_targets;
    model::HolderSearch m_engine;
    model::HolderSearchModel m_model;
    QSortFilterProxyModel m_proxy;
    QString m_pattern;
    int m_connections = 0;
    QLineEdit *m_edit = nullptr;
    QPushButton *m_search = nullptr;
    QPushButton *m_cancel = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;
    QTableView *m_view = nullptr;
};

} // namespace semscope::ui
