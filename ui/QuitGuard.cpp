#include "QuitGuard.h"

#include "loadtest/LoadTestWindow.h"

#include <QMessageBox>
#include <QPushButton>
#include <QStringList>
#include <QWidget>

namespace semscope::ui {

QuitGuard::QuitGuard(QWidget *window)
    : QObject(window)
    , m_window(window) {
    m_deadline.setSingleShot(true);
    m_deadline.setInterval(kStopRunsDeadlineMs);
    connect(&m_deadline, &QTimer::timeout, this, [this] {
        m_forceClose = true;
        m_window->close();
    });
}

QList<LoadTestWindow *> QuitGuard::runningLoadTests() const {
    QList<LoadTestWindow *> running;
    for (LoadTestWindow *w : m_window->findChildren<LoadTestWindow *>(Qt::FindDirectChildrenOnly)) {
        if (w->isRunning())
            running << w;
    }
    return running;
}

bool QuitGuard::mayClose() {
    if (!m_forceClose && !runningLoadTests().isEmpty()) {
        if (!m_closeAfterRuns)
            askToStopRuns();
        return false;
    }
    m_deadline.stop();
    m_closeAfterRuns = false;
    m_forceClose = false;
    return true;
}

void QuitGuard::closeLoadTests() {
    for (LoadTestWindow *w : m_window->findChildren<LoadTestWindow *>(Qt::FindDirectChildrenOnly))
        w->close(); // saves its geometry when idle
    // One still ending after the deadline goes now; its clients are torn down with it.
    qDeleteAll(runningLoadTests());
}

void QuitGuard::askToStopRuns() {
    if (m_question)
        return;
    QStringList where;
    for (LoadTestWindow *w : runningLoadTests())
        where << w->connectionName();
    auto *box = new QMessageBox(
        QMessageBox::Question, tr("Quit semscope"),
        tr("A load test is running on %1. Quitting stops it first: its clients release what they hold.")
            .arg(where.join(QStringLiteral(", "))),
        QMessageBox::Cancel, m_window);
    box->setObjectName(QStringLiteral("stopRunsQuestion"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton *stop = box->addButton(tr("&Stop and quit"), QMessageBox::AcceptRole);
    box->setDefaultButton(stop);
    connect(box, &QMessageBox::buttonClicked, this, [this, stop](QAbstractButton *clicked) {
        if (clicked == stop)
            quitStoppingRuns();
    });
    // A run may end while the question is open: then it asks only what is left to decide.
    for (LoadTestWindow *w : runningLoadTests()) {
        connect(w, &LoadTestWindow::runsEnded, box, [this, box, stop] {
            if (!runningLoadTests().isEmpty())
                return;
            box->setText(tr("The load test has ended. Quit semscope?"));
            stop->setText(tr("&Quit"));
        });
    }
    m_question = box;
    box->open();
}

void QuitGuard::quitStoppingRuns() {
    m_closeAfterRuns = true;
    for (LoadTestWindow *w : runningLoadTests()) {
        connect(w, &LoadTestWindow::runsEnded, this, &QuitGuard::closeWhenRunsEnded, Qt::UniqueConnection);
        w->stopRuns();
    }
    m_deadline.start();
    closeWhenRunsEnded();
}

void QuitGuard::closeWhenRunsEnded() {
    if (m_closeAfterRuns && runningLoadTests().isEmpty())
        m_window->close();
}

} // namespace semscope::ui
