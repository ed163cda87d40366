#pragma once

#include "core/SemaphoreTypes.h"
#include "model/ConnectionConfig.h"

#include <QWidget>

class QLabel;
class QPushButton;

namespace semscope::model {
class LoadTestRunner;
}

namespace semscope::ui {

class LoadTestExportButton;
class LoadTestForm;
class LoadTestRunView;

// Load-tests one semaphore on the connection: the parameters on the left, Start/Stop and Export
// below them, the live charts and the summary on the right. The run happens in the engine's
// worker threads; this page only draws what they report.
class LoadTestPage : public QWidget {
    Q_OBJECT
public:
    // `settingsFile` keeps the form's values between runs (empty: the application's QSettings).
    LoadTestPage(const model::ConnectionConfig &config, const QString &settingsFile,
                 QWidget *parent = nullptr);
    ~LoadTestPage() override;

    void prefill(const core::SemaphoreRef &ref);
    // Checks the form and the connection (read-only refuses, production asks first), then runs.
    void start();
    // Asks the run to end; the report follows when its clients have let go.
    void stop();
    bool isRunning() const;

    LoadTestForm *form() const { return m_form; }
    QPushButton *startButton() const { return m_start; }
    QPushButton *stopButton() const { return m_stop; }
    LoadTestExportButton *exportButton() const { return m_export; }
    QLabel *statusLabel() const { return m_status; }
    LoadTestRunView *runView() const { return m_view; }
    model::LoadTestRunner *runner() const { return m_runner; }

Q_SIGNALS:
    void runningChanged(bool running);

private:
    void launch();
    void setStatus(const QString &text, bool problem = false);
    void updateButtons();

    model::ConnectionConfig m_config;
    QString m_settingsFile;
    model::LoadTestRunner *m_runner = nullptr;
    LoadTestForm *m_form = nullptr;
    QPushButton *m_start = nullptr;
    QPushButton *m_stop = nullptr;
    LoadTestExportButton *m_export = nullptr;
    QLabel *m_status = nullptr;
    LoadTestRunView *m_view = nullptr;
    bool m_haveReport = false;
};

} // namespace semscope::ui
