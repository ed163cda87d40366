#pragma once

#include "PrivateRedisServer.h"
#include "core/SemaphoreTypes.h"
#include "core/audit/AuditLog.h"
#include "model/ConnectionConfig.h"

#include <QWidget>

class QLabel;
class QScrollArea;
class QTabWidget;

namespace semscope::ui {

class EnvironmentBadge;
class LoadTestPage;
class TrainingPage;

// Load tests and training scenarios for one connection, in a window of their own so the main
// window stays usable (watch the semaphore being hammered there). The connection's name and
// environment badge sit on top: nobody should wonder where the load is going. Closing the window
// while a run goes on stops the run first and closes once it has ended. With a config whose id is
// empty (Tools → Training with no connection selected) only the training tab works, for the
// scenarios that start their own private servers.
class LoadTestWindow : public QWidget {
    Q_OBJECT
public:
    LoadTestWindow(const model::ConnectionConfig &config, const QString &settingsFile,
                   QWidget *parent = nullptr);
    ~LoadTestWindow() override;

    // Both pages' runs are written to `log` (not owned; nullptr: none), as every write is.
    void setAuditLog(core::AuditLog *log);
    // Where the training page's runs get their private redis-server (TrainingPage).
    void setPrivateRedisLauncher(PrivateRedisLauncher launcher);
    void showLoadTest();
    void showTraining();
    const QString &connectionId() const { return m_connectionId; }
    const QString &connectionName() const { return m_connectionName; }

    // A load test or a training run is going on.
    bool isRunning() const;
    // Asks every run to end; runsEnded() follows once they have.
    void stopRuns();

    LoadTestPage *loadTestPage() const { return m_loadTest; }
    TrainingPage *trainingPage() const { return m_training; }
    QTabWidget *tabs() const { return m_tabs; }

Q_SIGNALS:
    void runsEnded();

protected:
    void closeEvent(QCloseEvent *event) override;
    // Return starts the shown tab's run (Start is its default button), Escape stops the runs.
    void keyPressEvent(QKeyEvent *event) override;

private:
    // The header names where the shown tab's runs write: the connection with its environment badge,
    // or the private servers training starts (so a training run on the demo does not read as one on
    // production).
    void updateHeader();

    model::ConnectionConfig m_config;
    QString m_connectionId;
    QString m_connectionName;
    QString m_settingsFile;
    QTabWidget *m_tabs = nullptr;
    LoadTestPage *m_loadTest = nullptr;
    TrainingPage *m_training = nullptr;
    QScrollArea *m_trainingTab = nullptr; // m_training, scrolling
    EnvironmentBadge *m_badge = nullptr;
    QLabel *m_where = nullptr;
    bool m_closeWhenStopped = false;
};

} // namespace semscope::ui
