#pragma once

#include "model/ConnectionConfig.h"

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;

namespace semscope::model {
class LoadTestRunner;
}
namespace semscope::redis {
struct TrainingScenario;
}

namespace semscope::ui {

class LoadTestExportButton;
class LoadTestRunView;

// Training: pick one of the seeds' unsafe designs, read what goes wrong with it, and run it beside
// semscope's atomic kind of the same layout, with the same clients, at the same time. The left
// column counts the damage, the right one shows none.
class TrainingPage : public QWidget {
    Q_OBJECT
public:
    TrainingPage(const model::ConnectionConfig &config, QWidget *parent = nullptr);
    ~TrainingPage() override;

    void setScenario(const QString &name);
    const redis::TrainingScenario *scenario() const;
    void start();
    void stop();
    bool isRunning() const;

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

    // The scratch semaphores of a scenario are NAME-unsafe and NAME-atomic with this NAME.
    static QString scratchName(const redis::TrainingScenario &scenario);

Q_SIGNALS:
    void runningChanged(bool running);

private:
    void scenarioChanged();
    void launch();
    void setStatus(const QString &text, bool problem = false);
    void updateButtons();

    model::ConnectionConfig m_config;
    model::LoadTestRunner *m_runner = nullptr;
    QComboBox *m_scenario = nullptr;
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
