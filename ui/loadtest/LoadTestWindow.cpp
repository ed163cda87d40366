#include "LoadTestWindow.h"

#include "LoadTestPage.h"
#include "TrainingPage.h"
#include "model/LoadTestRunner.h"
#include "training/FailoverLostLock.h"
#include "ui/EnvironmentBadge.h"
#include "ui/ScreenFit.h"
#include "ui/WindowSettings.h"

#include <QCloseEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QScrollArea>
#include <QTabWidget>
#include <QVBoxLayout>

namespace semscope::ui {

LoadTestWindow::LoadTestWindow(const model::ConnectionConfig &config, const QString &settingsFile,
                               QWidget *parent)
    : QWidget(parent, Qt::Window)
    , m_config(config)
    , m_connectionId(config.id)
    , m_connectionName(config.name)
    , m_settingsFile(settingsFile) {
    setObjectName(QStringLiteral("loadTestWindow"));
    setWindowTitle(tr("Load test — %1").arg(config.name));
    auto *layout = new QVBoxLayout(this);

    const bool connected = !config.id.isEmpty();
    auto *header = new QHBoxLayout;
    m_badge = new EnvironmentBadge(this);
    m_badge->setObjectName(QStringLiteral("loadTestEnvironment"));
    m_badge->setEnvironment(config.environment, config.readOnly);
    m_where = new QLabel(this);
    m_where->setObjectName(QStringLiteral("loadTestConnection"));
    m_where->setTextFormat(Qt::PlainText);
    QFont f = m_where->font();
    f.setBold(true);
    m_where->setFont(f);
    header->addWidget(m_badge);
    header->addWidget(m_where, 1);
    layout->addLayout(header);

    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("loadTestTabs"));
    m_loadTest = new LoadTestPage(config, settingsFile, m_tabs);
    m_training = new TrainingPage(config, m_tabs);
    m_tabs->addTab(m_loadTest, tr("&Load test"));
    // The training text wraps and the two runs stand side by side: on a low screen (a 1280x720
    // projector) the page scrolls under its Start/Stop bar instead of growing past the screen.
    m_trainingTab = new QScrollArea(m_tabs);
    m_trainingTab->setWidget(m_training);
    m_trainingTab->setWidgetResizable(true);
    m_trainingTab->setFrameShape(QFrame::NoFrame);
    m_tabs->addTab(m_trainingTab, tr("Tr&aining: unsafe vs atomic"));
    layout->addWidget(m_tabs, 1);
    if (!connected) {
        // Load tests drive a semaphore on a server: without a connection there is none to drive.
        m_tabs->setTabEnabled(m_tabs->indexOf(m_loadTest), false);
        m_tabs->setTabToolTip(m_tabs->indexOf(m_loadTest), tr("Open a connection to load-test a semaphore"));
        m_training->setScenario(redis::FailoverLostLock::scenarioName());
        m_tabs->setCurrentWidget(m_trainingTab);
        setWindowTitle(tr("Training"));
    }

    connect(m_tabs, &QTabWidget::currentChanged, this, &LoadTestWindow::updateHeader);
    connect(m_training, &TrainingPage::targetChanged, this, &LoadTestWindow::updateHeader);
    updateHeader();

    auto closeIfDone = [this](bool running) {
        if (running || isRunning())
            return;
        Q_EMIT runsEnded();
        if (m_closeWhenStopped)
            close();
    };
    connect(m_loadTest, &LoadTestPage::runningChanged, this, closeIfDone);
    connect(m_training, &TrainingPage::runningChanged, this, closeIfDone);

    auto settings = openWindowSettings(settingsFile);
    if (!restoreGeometry(settings->value(QStringLiteral("loadtest/geometry")).toByteArray()))
        resizeToFitScreen(this, QSize(1500, 940));
}

void LoadTestWindow::updateHeader() {
    const bool connected = !m_config.id.isEmpty();
    const bool training = m_tabs->currentWidget() == m_trainingTab;
    const bool onConnection = connected && (!training || m_training->writesToConnection());
    m_badge->setVisible(onConnection);
    if (onConnection)
        m_where->setText(tr("Connection: %1   %2").arg(m_config.name, m_config.endpoint()));
    else if (training && m_training->isFailoverScenario())
        m_where->setText(tr("Runs on private servers the scenario starts itself: nothing is written to %1")
                             .arg(connected ? m_config.name : tr("any connection")));
    else if (connected)
        m_where->setText(tr("Runs on a private redis-server started for the run: nothing is written to %1")
                             .arg(m_config.name));
    else
        m_where->setText(tr("No connection: only training scenarios that start their own servers run here"));
}

LoadTestWindow::~LoadTestWindow() = default;

void LoadTestWindow::setAuditLog(core::AuditLog *log) {
    m_loadTest->runner()->setAudit(log, m_config, QStringLiteral("load-test"));
    m_training->runner()->setAudit(log, m_config, QStringLiteral("training"));
}

void LoadTestWindow::setPrivateRedisLauncher(PrivateRedisLauncher launcher) {
    m_training->setPrivateRedisLauncher(std::move(launcher));
}

void LoadTestWindow::showLoadTest() {
    if (m_tabs->isTabEnabled(m_tabs->indexOf(m_loadTest)))
        m_tabs->setCurrentWidget(m_loadTest);
}

void LoadTestWindow::showTraining() {
    m_tabs->setCurrentWidget(m_trainingTab);
}

bool LoadTestWindow::isRunning() const {
    return m_loadTest->isRunning() || m_training->isRunning();
}

void LoadTestWindow::stopRuns() {
    m_loadTest->stop();
    m_training->stop();
}

void LoadTestWindow::keyPressEvent(QKeyEvent *event) {
    // Fields pass Return and Escape on (line edits, spin boxes, closed combo boxes): they get here.
    switch (event->key()) {
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (isRunning())
            break;
        if (m_tabs->currentWidget() == m_trainingTab)
            m_training->start();
        else if (m_tabs->isTabEnabled(m_tabs->indexOf(m_loadTest)))
            m_loadTest->start();
        return;
    case Qt::Key_Escape:
        stopRuns();
        return;
    default:
        break;
    }
    QWidget::keyPressEvent(event);
}

void LoadTestWindow::closeEvent(QCloseEvent *event) {
    if (isRunning()) {
        // Never wait here: ask the runs to end and close when they have.
        m_closeWhenStopped = true;
        stopRuns();
        event->ignore();
        return;
    }
    openWindowSettings(m_settingsFile)->setValue(QStringLiteral("loadtest/geometry"), saveGeometry());
    QWidget::closeEvent(event);
}

} // namespace semscope::ui
