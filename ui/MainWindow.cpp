#include "MainWindow.h"
#include "DesktopMonitoring.h"

#include "AuditPanel.h"
#include "ConnectionFailurePanel.h"
#include "ConnectionPane.h"
#include "ConnectionStateIcon.h"
#include "MainMenus.h"
#include "MainWindowState.h"
#include "PinnedKeys.h"
#include "QuitGuard.h"
#include "SemaphoreListPane.h"
#include "SemaphorePage.h"
#include "ToolWindows.h"
#include "ViewZoom.h"
#include "WindowSettings.h"
#include "core/CountText.h"
#include "model/ConnectionSession.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDockWidget>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QStatusBar>
#include <QTime>
#include <QVBoxLayout>

namespace semscope::ui {

using namespace semscope::core;
using model::ConnectionConfig;
using model::ConnectionController;

MainWindow::MainWindow(MainWindowServices services, QWidget *parent)
    : QMainWindow(parent)
    , m_services(std::move(services)) {
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(QStringLiteral("semscope"));

    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_splitter->setObjectName(QStringLiteral("mainSplitter"));
    buildLeft(m_splitter);
    // The main area: why the selected connection fails (when it does) above the semaphore page.
    auto *mainArea = new QWidget(m_splitter);
    auto *mainLayout = new QVBoxLayout(mainArea);
    mainLayout->setContentsMargins(0, 0, 0, 0);
    m_failurePanel = new ConnectionFailurePanel(mainArea);
    m_failurePanel->hide();
    connect(m_failurePanel, &ConnectionFailurePanel::editRequested, this, [this] { editConnection(); });
    connect(m_failurePanel, &ConnectionFailurePanel::retryRequested, this, [this] {
        const QString id = m_connectionPane->currentId();
        closeConnection(id);
        openConnection(id);
    });
    m_page = new SemaphorePage(m_services.profiles, mainArea);
    mainLayout->addWidget(m_failurePanel);
    mainLayout->addWidget(m_page, 1);
    mainLayout->addStretch(0); // takes the room only while the page is hidden: the panel stays its size
    m_splitter->addWidget(mainArea);
    m_monitoring = new DesktopMonitoring(m_services.profiles, this);
    m_monitoring->watch()->setChangeHintsProvider(m_services.changeHints);
    m_connectionPane->setHistory(m_monitoring->history());
    m_connectionPane->setEmptyRetentionMs(qint64(keepEmptyHours()) * 3600 * 1000);
    m_page->setMonitoring(m_monitoring->watch(), m_monitoring->history());
    connect(m_monitoring, &DesktopMonitoring::openRequested, this,
            [this](const QString &connectionId, const SemaphoreRef &ref) {
                if (openSemaphore(connectionId, ref)) {
                    showNormal();
                    raise();
                    activateWindow();
                }
            });
    // From the semaphore list, Tab goes straight to its holders.
    setTabOrder(m_semaphoreList->view(), m_page->holderView());
    m_splitter->setStretchFactor(0, 2);
    m_splitter->setStretchFactor(1, 3);
    setCentralWidget(m_splitter);

    m_audit = new AuditPanel(m_services.audit, this);
    m_auditDock = new QDockWidget(tr("Audit log"), this);
    m_auditDock->setObjectName(QStringLiteral("auditDock"));
    m_auditDock->setWidget(m_audit);
    addDockWidget(Qt::BottomDockWidgetArea, m_auditDock);
    m_auditDock->hide();

    m_stateLabel = new QLabel(this);
    m_stateLabel->setObjectName(QStringLiteral("connectionState"));
    m_busyLabel = new QLabel(this);
    // A refused password or token is not retried: this is the way to fix it, next to the reason.
    m_editCredentials = new QPushButton(tr("Edit connection…"), this);
    m_editCredentials->setObjectName(QStringLiteral("editCredentials"));
    m_editCredentials->hide();
    connect(m_editCredentials, &QPushButton::clicked, this, &MainWindow::editConnection);
    statusBar()->addPermanentWidget(m_busyLabel);
    statusBar()->addPermanentWidget(m_stateLabel);
    statusBar()->addPermanentWidget(m_editCredentials);
    // A long message is cut at the window's edge and goes after a few seconds: the last one stays
    // whole, with its time, in the status bar's tooltip.
    connect(statusBar(), &QStatusBar::messageChanged, this, [this](const QString &message) {
        if (!message.isEmpty())
            statusBar()->setToolTip(
                tr("Last message, at %1:\n%2")
                    .arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss")), message));
    });

    m_quitGuard = new QuitGuard(this);
    m_toolWindows = new ToolWindows(this, m_services.settingsFile, m_services.audit, m_services.privateRedis);
    m_pinnedKeys = new PinnedKeys(this, m_services.registry);

    m_zoom = new ViewZoom(m_services.settingsFile, this);
    m_openKeyAction = buildMainMenus(this).openKey;
    connect(m_page, &SemaphorePage::statusMessage, this,
            [this](const QString &m) { statusBar()->showMessage(m, 10000); });
    connect(m_connectionPane, &ConnectionPane::currentChanged, this, &MainWindow::currentConnectionChanged);
    connect(m_connectionPane, &ConnectionPane::sessionStarted, this, &MainWindow::attachSession);
    connect(m_connectionPane, &ConnectionPane::sessionClosing, this, &MainWindow::detachSession);
    connect(m_connectionPane, &ConnectionPane::sessionClosed, this, [this] {
        updateOpenKeyAction();
        updateStatus();
    });

    m_connectionPane->reload();
    restoreMainWindowState(*openWindowSettings(m_services.settingsFile), layoutParts());
    updateStatus();
}

MainWindow::~MainWindow() {
    m_page->clearSemaphore();
    m_connectionPane->dropSessions();
}

void MainWindow::buildLeft(QSplitter *splitter) {
    auto *left = new QWidget(splitter);
    auto *layout = new QVBoxLayout(left);
    layout->setContentsMargins(6, 6, 0, 6);

    m_leftSplitter = new QSplitter(Qt::Vertical, left);
    m_leftSplitter->setObjectName(QStringLiteral("leftSplitter"));
    m_connectionPane = new ConnectionPane(m_services.registry, m_services.secrets, m_services.audit,
                                          m_services.profiles, m_services.storeFactory, m_leftSplitter);

    m_semaphoreList = new SemaphoreListPane(m_services.settingsFile, m_leftSplitter);
    m_semaphoreList->setContextActions(
        [this](const QModelIndex &proxyIndex) { return semaphoreContextActions(proxyIndex); });
    connect(m_semaphoreList, &SemaphoreListPane::currentRowChanged, this, &MainWindow::semaphoreActivated);
    m_leftSplitter->addWidget(m_connectionPane);
    m_leftSplitter->addWidget(m_semaphoreList);
    m_leftSplitter->setStretchFactor(0, 1);
    m_leftSplitter->setStretchFactor(1, 4);
    layout->addWidget(m_connectionPane->header());
    layout->addWidget(m_leftSplitter, 1);
    splitter->addWidget(left);
}

QMessageBox *MainWindow::showAbout() {
    auto *box = new QMessageBox(this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setObjectName(QStringLiteral("aboutBox"));
    box->setWindowTitle(tr("About semscope"));
    box->setIconPixmap(QApplication::windowIcon().pixmap(64, 64));
    box->setText(
        tr("<h3>semscope %1</h3><p>Find, watch and steer the distributed semaphores kept in Redis and "
           "Consul: who holds each slot, since when, how long the lease has left; acquire, release and "
           "force-release safely.</p><p>Audit log: <code>%2</code></p><p>Qt %3</p>")
            .arg(QStringLiteral(SEMSCOPE_VERSION), m_services.audit->filePath().toHtmlEscaped(),
                 QString::fromLatin1(qVersion())));
    box->open(); // not exec(): the live pages keep updating behind it
    return box;
}

QList<QAction *> MainWindow::semaphoreContextActions(const QModelIndex &proxyIndex) {
    // Reading only: the writes live on the semaphore page, where the holders are in view.
    QList<QAction *> out;
    ConnectionSession *s = currentSession();
    if (s && proxyIndex.isValid()) {
        const SemaphoreRef ref = s->list.refAt(s->proxy.mapToSource(proxyIndex).row());
        auto make = [this](const QString &text, auto slot) {
            auto *a = new QAction(text, this);
            a->setObjectName(QStringLiteral("semaphoreContextAction"));
            connect(a, &QAction::triggered, this, slot);
            return a;
        };
        const QString id = currentConnectionId();
        out << make(tr("&Open"), [this, id, ref] {
            openSemaphore(id, ref);
        }) << make(tr("&Copy name"), [ref] {
            QApplication::clipboard()->setText(ref.name);
        }) << make(tr("Copy &keys"), [s, ref] {
            const int row = s->list.rowOf(ref);
            QApplication::clipboard()->setText(
                s->list.index(row, model::SemaphoreListModel::NameColumn).data(Qt::ToolTipRole).toString());
        });
        QAction *watch = m_monitoring->makeWatchAction(id, ref, this);
        watch->setObjectName(QStringLiteral("semaphoreContextAction"));
        out << watch;
        // Rows a scan did not find (pinned, or empty since …) stay until the operator says so.
        const int row = s->list.rowOf(ref);
        if (s->list.isPinned(row) || s->list.emptySinceMs(row)) {
            QAction *forget = make(tr("&Forget"), [this, id, ref] { forgetSemaphore(id, ref); });
            forget->setToolTip(s->list.isPinned(row) ? tr("Stop listing this key opened by name")
                                                     : tr("Stop listing this empty semaphore"));
            out << forget;
        }
        out << nullptr;
    }
    out << m_connectionPane->rediscoverAction();
    return out;
}

OpenKeyDialog *MainWindow::openKey() {
    return m_pinnedKeys->openKey();
}

void MainWindow::forgetSemaphore(const QString &connectionId, const SemaphoreRef &ref) {
    m_pinnedKeys->forget(connectionId, ref);
}

void MainWindow::updateOpenKeyAction() {
    // Offered only where it can read a key: an open Redis connection.
    ConnectionSession *s = currentSession();
    const bool redis = s && s->config().backend == Backend::Redis;
    m_openKeyAction->setEnabled(redis);
    m_openKeyAction->setToolTip(redis ? tr("List a key the scan does not find (a lock whose name says "
                                           "nothing), by its name and kind")
                                      : tr("Select an open Redis connection first: Open key… reads the key"));
}

int MainWindow::keepEmptyHours() const {
    auto settings = openWindowSettings(m_services.settingsFile);
    return settings->value(QStringLiteral("list/keepEmptyHours"), 24).toInt();
}

void MainWindow::setKeepEmptyHours(int hours) {
    hours = std::max(0, hours);
    openWindowSettings(m_services.settingsFile)->setValue(QStringLiteral("list/keepEmptyHours"), hours);
    m_connectionPane->setEmptyRetentionMs(qint64(hours) * 3600 * 1000);
    statusBar()->showMessage(
        hours == 0
            ? tr("Empty semaphores are dropped at the first scan that misses them")
            : tr("Empty semaphores stay listed for %1").arg(core::countText(hours, tr("hour"), tr("hours"))),
        10000);
}

QString MainWindow::currentConnectionId() const {
    return m_connectionPane->currentId();
}

QListWidget *MainWindow::connectionList() const {
    return m_connectionPane->list();
}

QTableView *MainWindow::semaphoreView() const {
    return m_semaphoreList->view();
}

QLineEdit *MainWindow::filterEdit() const {
    return m_semaphoreList->filterEdit();
}

QCheckBox *MainWindow::staleOnlyBox() const {
    return m_semaphoreList->staleOnlyBox();
}

QComboBox *MainWindow::kindFilter() const {
    return m_semaphoreList->kindFilter();
}

ConnectionSession *MainWindow::session(const QString &id) const {
    return m_connectionPane->session(id);
}

ConnectionSession *MainWindow::currentSession() const {
    return m_connectionPane->currentSession();
}

void MainWindow::selectConnection(const QString &id) {
    m_connectionPane->select(id);
}

void MainWindow::openConnection(const QString &id) {
    m_connectionPane->openConnection(id);
}

void MainWindow::closeConnection(const QString &id) {
    m_connectionPane->closeConnection(id);
}

ConnectionDialog *MainWindow::addConnection() {
    return m_connectionPane->addConnection();
}

ConnectionDialog *MainWindow::editConnection() {
    return m_connectionPane->editConnection();
}

void MainWindow::currentConnectionChanged() {
    ConnectionSession *s = currentSession();
    m_semaphoreList->showSession(s);
    showPageOf(s);
    m_semaphoreList->showScanProgress(s);
    updateOpenKeyAction();
    updateStatus();
}

void MainWindow::semaphoreActivated(const QModelIndex &proxyIndex) {
    ConnectionSession *s = currentSession();
    if (!s || !proxyIndex.isValid())
        return;
    const QModelIndex source = s->proxy.mapToSource(proxyIndex);
    showSemaphore(s, s->list.refAt(source.row()));
}

void MainWindow::showSemaphore(ConnectionSession *s, const SemaphoreRef &ref) {
    s->shownSemaphore = ref;
    if (m_page->session() == s && m_page->ref() == ref)
        return;
    m_page->setSemaphore(s, ref);
}

void MainWindow::showPageOf(ConnectionSession *s) {
    if (!s) {
        m_page->clearSemaphore();
        return;
    }
    if (m_page->session() == s)
        return;
    if (!s->shownSemaphore) {
        m_page->clearSemaphore();
        return;
    }
    m_page->setSemaphore(s, *s->shownSemaphore);
    // Show it selected in the list too, so list and page agree.
    m_semaphoreList->selectSemaphore(s, *s->shownSemaphore);
}

bool MainWindow::openSemaphore(const QString &connectionId, const SemaphoreRef &ref) {
    ConnectionSession *s = session(connectionId);
    if (!s)
        return false;
    selectConnection(connectionId);
    m_semaphoreList->selectSemaphore(s, ref);
    showSemaphore(s, ref);
    return true;
}

void MainWindow::updateFailurePanel() {
    ConnectionSession *s = currentSession();
    using State = ConnectionController::State;
    const State state = s ? s->controller.state() : State::Idle;
    const bool failing = isConnectionFailure(state);
    if (failing) {
        const QString name = s->config().name;
        m_failurePanel->showFailure(state == State::Failed ? tr("Cannot connect to %1").arg(name)
                                                           : tr("The connection to %1 is lost").arg(name),
                                    s->controller.stateText());
    }
    m_failurePanel->setVisible(failing);
    // An empty page ("Select a semaphore") under the failure says nothing: it goes; a semaphore of
    // this connection stays in view with its last read.
    m_page->setVisible(!failing || m_page->session() == s);
}

void MainWindow::updateStatus() {
    updateFailurePanel();
    ConnectionSession *s = currentSession();
    const QString id = currentConnectionId();
    const auto config = id.isEmpty() ? std::nullopt : m_services.registry->find(id);
    if (!config) {
        m_stateLabel->setText(tr("No connection — File → Add connection"));
        m_stateLabel->setStyleSheet({});
        m_editCredentials->hide();
        return;
    }
    const auto state = s ? s->controller.state() : ConnectionController::State::Idle;
    QString detail = s ? s->controller.stateText() : tr("double-click the connection to connect");
    if (detail.compare(model::connectionStateName(state), Qt::CaseInsensitive) == 0)
        detail = config->endpoint();
    if (s && !s->controller.servingMaster().isEmpty())
        detail += QStringLiteral(" · ") + s->controller.servingMaster(); // Sentinel: where it is now
    m_stateLabel->setText(QStringLiteral("<span style=\"color:%1\">%2</span> <b>%3</b> [%4]: %5 — %6")
                              .arg(connectionStateColor(state).name(), connectionStateSymbol(state),
                                   config->name.toHtmlEscaped(), model::environmentName(config->environment),
                                   model::connectionStateName(state), detail.toHtmlEscaped()));
    m_stateLabel->setToolTip(
        tr("● connected: reads work · ○ connecting / reconnecting: trying, with backoff · ▲ lost: the "
           "server stopped answering · ✖ failed: see the reason; it stays until it changes"));
    m_editCredentials->setVisible(s && s->controller.needsCredentials());
    const int busy = s ? s->controller.pendingOperations() : 0;
    m_busyLabel->setText(busy > 3 ? tr("%1 requests in flight").arg(busy) : QString());
}

void MainWindow::attachSession(ConnectionSession *s) {
    m_monitoring->attach(s);
    connect(&s->controller, &ConnectionController::stateChanged, this, &MainWindow::updateStatus);
    connect(&s->controller, &ConnectionController::busyChanged, this, &MainWindow::updateStatus);
    connect(&s->controller, &ConnectionController::topologyEvent, this,
            [this, s](const core::TopologyEvent &e) {
                updateStatus();
                if (core::isFailoverEvent(e))
                    statusBar()->showMessage(s->located(e.text), 30000);
            });
    connect(&s->list, &QAbstractItemModel::rowsInserted, this, [this, s] {
        if (currentSession() == s)
            m_semaphoreList->updateNodeColumn();
    });
    connect(&s->actions, &model::OperatorActions::actionFinished, this,
            [this](const QString &summary) { statusBar()->showMessage(summary, 15000); });
    connect(s, &ConnectionSession::discoveryStarted, this, [this, s] {
        if (currentSession() == s)
            m_semaphoreList->showScanProgress(s);
    });
    connect(s, &ConnectionSession::discoveryProgress, this, [this, s] {
        if (currentSession() == s)
            m_semaphoreList->showScanProgress(s);
    });
    connect(s, &ConnectionSession::discoveryFinished, this,
            [this, s](bool ok, bool cancelled, const QString &message) {
                if (currentSession() == s)
                    m_semaphoreList->hideScanProgress();
                if (ok && s->isBackgroundDiscovery())
                    return; // the periodic scan found what it found: the list shows it
                // The store's message already says what failed; the session adds where, once.
                statusBar()->showMessage(
                    s->located(cancelled ? tr("discovery cancelled: the list shows what was found so far")
                                         : message),
                    15000);
            });
}

void MainWindow::detachSession(ConnectionSession *s) {
    if (m_page->session() == s)
        m_page->clearSemaphore();
    m_semaphoreList->letGoOf(s);
    m_monitoring->detach(s->config().id);
}

MainWindowParts MainWindow::layoutParts() {
    return {this, m_splitter, m_leftSplitter, m_page, m_semaphoreList};
}

void MainWindow::closeEvent(QCloseEvent *event) {
    if (!m_quitGuard->mayClose()) {
        event->ignore();
        return;
    }
    saveMainWindowState(*openWindowSettings(m_services.settingsFile), layoutParts());
    m_quitGuard->closeLoadTests();
    QMainWindow::closeEvent(event);
}

void MainWindow::quitStoppingRuns() {
    m_quitGuard->quitStoppingRuns();
}

QMessageBox *MainWindow::stopRunsQuestion() const {
    return m_quitGuard->stopRunsQuestion();
}

LoadTestWindow *MainWindow::openLoadTest(bool training) {
    return m_toolWindows->openLoadTest(training);
}

ConsulSessionsWindow *MainWindow::openConsulSessions() {
    return m_toolWindows->openConsulSessions();
}

TopologyWindow *MainWindow::openTopology() {
    return m_toolWindows->openTopology();
}

HolderSearchWindow *MainWindow::openHolderSearch() {
    return m_toolWindows->openHolderSearch();
}

} // namespace semscope::ui
