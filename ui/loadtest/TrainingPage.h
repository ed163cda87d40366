#pragma once

#include "PrivateRedisServer.h"
#include "model/ConnectionConfig.h"

#include <QWidget>
#include <memory>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QStackedWidget;

namespace semscope::model {
class FailoverTrainingRunner;
class LoadTestRunner;
} // namespace semscope::model
namespace semscope::redis {
struct ConnectionSettings;
struct TrainingScenario;
} // namespace semscope::redis

namespace semscope::ui {

class FailoverVerdictView;
class LoadTestExportButton;
class LoadTestRunView;

// Training: pick one of the seeds' unsafe designs, read what goes wrong with it, and run it beside
// semscope's atomic kind of the same layout, with the same clients, at the same time. The left
// column counts the damage, the right one shows none.
//
// One scenario is not a load test: failover-lost-lock (the CLI's `--scenario failover-lost-lock`) runs
// a fixed sequence on private servers it starts itself (master, replica, sentinel), so it does not
// touch this page's connection at all; its two sides show in a FailoverVerdictView instead.
class TrainingPage : public QWidget {
    Q_OBJECT
public:
    TrainingPage(const model::ConnectionConfig &config, QWidget *parent = nullptr);
    ~TrainingPage() override;

    void setScenario(const QString &name);
    // nullptr for failover-lost-lock (isFailoverScenario()).
    const redis::TrainingScenario *scenario() const;
    bool isFailoverScenario() const;
    // False in the window Tools → Training opens with no connection selected: only the scenarios
    // that start their own servers (failover-lost-lock) can run there.
    bool hasConnection() const { return !m_config.id.isEmpty(); }
    void start();
    void stop();
    bool isRunning() const;

    // Where a scenario's runs write: a private redis-server started for the run (the default,
    // always: training never lands on a shared server unless the trainer picks it) or this page's
    // connection. Either way every key the run made is deleted after it, stopped or not.
    enum class Target { PrivateServer, Connection };
    Target target() const;
    void setTarget(Target target);
    // Whether a run writes to this page's connection (the trainer picked it); false on a private
    // server, and for failover-lost-lock, which starts its own servers.
    bool writesToConnection() const;
    QComboBox *targetBox() const { return m_target; }
    // How a run on Target::PrivateServer gets its server: the app's launcher (MainWindowServices).
    void setPrivateRedisLauncher(PrivateRedisLauncher launcher);
    // The private server of the run in progress (nullptr when none runs).
    PrivateRedisServer *privateServer() const { return m_privateServer.get(); }

    QComboBox *scenarioBox() const { return m_scenario; }
    QDoubleSpinBox *durationBox() const { return m_duration; }
    QLabel *titleLabel() const { return m_title; }
    QLabel *explanationLabel() const { return m_explanation; }
    QLabel *setupLabel() const { return m_setup; }
    QLabel *statusLabel() const { return m_status; }
    QPushButton *startButton() const { return m_start; }
    QPushButton *stopButton() const { return m_stop; }
    LoadTestExportButton *exportButton() const { return m_export; }
    LoadTestRunView *unsafeView() const { return m_unsafe; }
    LoadTestRunView *atomicView() const { return m_atomic; }
    model::LoadTestRunner *runner() const { return m_runner; }
    model::FailoverTrainingRunner *failoverRunner() const { return m_failover; }
    FailoverVerdictView *failoverView() const { return m_failoverView; }

    // The scratch semaphores of a scenario are NAME-unsafe and NAME-atomic with this NAME.
    static QString scratchName(const redis::TrainingScenario &scenario);

Q_SIGNALS:
    void runningChanged(bool running);
    // The scenario or the target changed: writesToConnection() may say otherwise now.
    void targetChanged();

protected:
    void changeEvent(QEvent *event) override;

private:
    void fitTitleFont();
    void scenarioChanged();
    void launch();
    void launchOn(const redis::ConnectionSettings &settings);
    void startPrivateServer();
    void stopPrivateServer();
    QString targetName() const;
    void launchFailover();
    void setStatus(const QString &text, bool problem = false);
    void updateButtons();

    model::ConnectionConfig m_config;
    model::LoadTestRunner *m_runner = nullptr;
    model::FailoverTrainingRunner *m_failover = nullptr;
    QStackedWidget *m_results = nullptr;
    QWidget *m_runColumns = nullptr;
    FailoverVerdictView *m_failoverView = nullptr;
    QComboBox *m_scenario = nullptr;
    QComboBox *m_target = nullptr;
    PrivateRedisLauncher m_launchPrivateServer;
    std::unique_ptr<PrivateRedisServer> m_privateServer;
    bool m_startingServer = false; // the private server is starting; the runs follow when it is ready
    QDoubleSpinBox *m_duration = nullptr;
    QPushButton *m_start = nullptr;
    QPushButton *m_stop = nullptr;
    LoadTestExportButton *m_export = nullptr;
    QLabel *m_title = nullptr;
    QLabel *m_explanation = nullptr;
    QLabel *m_setup = nullptr;
    QLabel *m_status = nullptr;
    LoadTestRunView *m_unsafe = nullptr;
    LoadTestRunView *m_atomic = nullptr;
    const redis::TrainingScenario *m_running = nullptr; // the scenario of the run on screen
    int m_reports = 0;
    bool m_failed = false; // the scratch semaphores could not be reset: nothing ran
};

} // namespace semscope::ui
