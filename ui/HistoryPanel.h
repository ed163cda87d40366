#pragma once

#include "core/SemaphoreTypes.h"
#include "model/HistoryEventModel.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace semscope::monitor {
class HistoryStore;
}
namespace semscope::model {
class WatchController;
}

namespace semscope::ui {

// The History tab of the semaphore page: what happened to the semaphore (who held what, when, for
// how long) as recorded in the shared history by the app's watchers and `semscope-cli watch`, with
// export to CSV. Reads the history (local SQLite, a bounded query) when shown and whenever a watcher
// recorded new events for this semaphore.
class HistoryPanel : public QWidget {
    Q_OBJECT
public:
    explicit HistoryPanel(QWidget *parent = nullptr);

    // Not owned; both nullable.
    void setMonitoring(model::WatchController *watch, monitor::HistoryStore *history);
    void setSemaphore(const QString &connectionId, const QString &endpoint, const core::SemaphoreRef &ref);
    void clear();
    void reload();

    model::HistoryEventModel *model() { return &m_model; }
    QTableView *view() const { return m_view; }
    QPushButton *exportButton() const { return m_export; }
    // Writes the rows as CSV; false (and `error`) if the file could not be written.
    bool exportCsv(const QString &path, QString *error = nullptr) const;

    static constexpr int kMaxRows = 2000;

private:
    void chooseExportFile();
    void updateNote();

    model::HistoryEventModel m_model;
    model::WatchController *m_watch = nullptr;
    monitor::HistoryStore *m_history = nullptr;
    QString m_connectionId;
    QString m_endpoint;
    std::optional<core::SemaphoreRef> m_ref;
    QLabel *m_note = nullptr;
    QTableView *m_view = nullptr;
    QPushButton *m_export = nullptr;
};

} // namespace semscope::ui
