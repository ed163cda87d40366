#pragma once

#include "core/SemaphoreTypes.h"
#include "model/HistoryEventModel.h"

#include <QTimer>
#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace semscope::monitor {
class HistoryWorker;
}
namespace semscope::model {
class WatchController;
}

namespace semscope::ui {

// The History tab of the semaphore page: what happened to the semaphore (who held what, when, for
// how long) as recorded in the shared history by the app's watchers and `semscope-cli watch`, with
// export to CSV. Reads the history (local SQLite, a bounded query on the history's own thread) when
// shown and whenever a watcher recorded new events for this semaphore; says "loading…" meanwhile.
class HistoryPanel : public QWidget {
    Q_OBJECT
public:
    explicit HistoryPanel(QWidget *parent = nullptr);

    // Not owned; both nullable.
    void setMonitoring(model::WatchController *watch, monitor::HistoryWorker *history);
    void setSemaphore(const QString &connectionId, const QString &endpoint, const core::SemaphoreRef &ref);
    void clear();
    // Asks the history again; the rows change when it answers.
    void reload();
    // A query is in flight (the note says "loading…").
    bool isLoading() const { return m_loading > 0; }

    model::HistoryEventModel *model() { return &m_model; }
    QTableView *view() const { return m_view; }
    QPushButton *exportButton() const { return m_export; }
    // Writes the rows as CSV; false (and `error`) if the file could not be written.
    bool exportCsv(const QString &path, QString *error = nullptr) const;
    // Writes the CSV to `path` and says in the panel's note how many events went, or why none did
    // (what Export CSV… does once the operator picked a file).
    void exportTo(const QString &path);

    static constexpr int kMaxRows = 2000;

private:
    void chooseExportFile();
    void updateNote();
    void showEvents(const QList<monitor::HolderEvent> &events);

    model::HistoryEventModel m_model;
    model::WatchController *m_watch = nullptr;
    monitor::HistoryWorker *m_history = nullptr;
    quint64 m_query = 0;        // the latest query asked: older answers are for another semaphore or stale
    int m_loading = 0;          // queries in flight
    bool m_rowsCurrent = false; // the rows are this semaphore's (a reload refreshes them)
    // A refresh of rows already shown says "loading…" only once it takes a while: the background
    // watcher's refreshes every second must not make the note flicker.
    QTimer m_slowLoad;
    QString m_connectionId;
    QString m_endpoint;
    std::optional<core::SemaphoreRef> m_ref;
    QLabel *m_note = nullptr;
    QTableView *m_view = nullptr;
    QPushButton *m_export = nullptr;
};

} // namespace semscope::ui
