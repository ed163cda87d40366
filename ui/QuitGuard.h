#pragma once

#include <QList>
#include <QObject>
#include <QPointer>
#include <QTimer>

class QMessageBox;
class QWidget;

namespace semscope::ui {

class LoadTestWindow;

// A running load test keeps writing to its server: the main window never closes with one running
// behind it (a load-test window refusing to close would also cancel the application's quit).
// Closing while a run is on asks "stop it and quit?"; stopping asks the runs to end and closes the
// window once they have, or after kStopRunsDeadlineMs, tearing down what is left.
class QuitGuard : public QObject {
    Q_OBJECT
public:
    static constexpr int kStopRunsDeadlineMs = 6000;

    // `window`: the main window (also the parent); its direct LoadTestWindow children are the runs.
    explicit QuitGuard(QWidget *window);

    // From the window's closeEvent. false: refuse this close (a run is on: the question is asked,
    // or the runs already asked to stop are still ending). true: go on closing.
    bool mayClose();
    // After mayClose() said yes: closes every load-test window (an idle one saves its geometry)
    // and tears down one still ending after the deadline, its clients with it.
    void closeLoadTests();
    // Quits without asking: asks the runs to stop, closes the window once they have ended.
    void quitStoppingRuns();
    // The "stop the load test and quit?" question while it is open, for tests.
    QMessageBox *stopRunsQuestion() const { return m_question; }

private:
    QList<LoadTestWindow *> runningLoadTests() const;
    void askToStopRuns();
    void closeWhenRunsEnded();

    QWidget *m_window;
    QPointer<QMessageBox> m_question;
    QTimer m_deadline;
    bool m_closeAfterRuns = false; // runs were asked to end; the window closes once they have
    bool m_forceClose = false;     // close now, whatever still runs
};

} // namespace semscope::ui
