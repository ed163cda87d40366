#include "MainWindow.h"
#include "DesktopMonitoring.h"

#include "AuditPanel.h"
#include "ConnectionFailurePanel.h"
#include "ConnectionPane.h"
#include "ConnectionStateIcon.h"
#include "ElideMiddleDelegate.h"
#include "HeaderFit.h"
#include "OpenKeyDialog.h"
#include "QuitGuard.h"
#include "ScreenFit.h"
#include "SemaphorePage.h"
#include "SpareWidth.h"
#include "ToolWindow.h"
#include "UsageBarDelegate.h"
#include "ViewZoom.h"
#include "loadtest/LoadTestPage.h"
#include "loadtest/LoadTestWindow.h"
#include "model/ConnectionSession.h"
#include "model/RawKeysLoader.h"
#include "search/HolderSearchWindow.h"
#include "sessions/ConsulSessionsWindow.h"
#include "topology/TopologyWindow.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QStatusBar>
#include <QTableView>
#include <QTime>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace semscope::ui {

using namespace semscope::core;
using model::ConnectionConfig;
using model::ConnectionController;

namespace {
std::unique_ptr<QSettings> openSettings(const QString &file) {
    if (file.isEmpty())
        return std::make_unique<QSettings>();
    return std::make_unique<QSettings>(file, QSettings::IniFormat);
}

} // namespace

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
    setTabOrder(m_semaphoreView, m_page->holderView());
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

    buildMenus();
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
    restoreState();
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

    auto *semWidget = new QWidget(m_leftSplitter);
    auto *semLayout = new QVBoxLayout(semWidget);
    semLayout->setContentsMargins(0, 0, 0, 0);
    auto *filterRow = new QHBoxLayout;
    m_filter = new QLineEdit(semWidget);
    m_filter->setObjectName(QStringLiteral("semaphoreFilter"));
    m_filter->setPlaceholderText(tr("Filter semaphores (Ctrl+F)"));
    m_filter->setClearButtonEnabled(true);
    m_kindFilter = new QComboBox(semWidget);
    m_kindFilter->setObjectName(QStringLiteral("kindFilter"));
    m_kindFilter->addItem(tr("All kinds"), -1);
    for (const QString &name : allKindNames())
        m_kindFilter->addItem(name, int(*kindFromName(name)));
    filterRow->addWidget(m_filter, 1);
    filterRow->addWidget(m_kindFilter);
    semLayout->addLayout(filterRow);
    auto *filterRow2 = new QHBoxLayout;
    m_staleOnly = new QCheckBox(tr("Stale only"), semWidget);
    m_staleOnly->setObjectName(QStringLiteral("staleOnly"));
    m_staleOnly->setToolTip(
        tr("Only semaphores with holders that need attention: expired but still recorded, "
           "owner gone, orphaned, or over the limit"));
    m_expiring = new QCheckBox(tr("Expiring within"), semWidget);
    m_expiring->setObjectName(QStringLiteral("expiringWithin"));
    m_expiringSeconds = new QSpinBox(semWidget);
    m_expiringSeconds->setRange(1, 86400);
    m_expiringSeconds->setValue(10);
    m_expiringSeconds->setSuffix(tr(" s"));
    filterRow2->addWidget(m_staleOnly);
    filterRow2->addStretch(1);
    filterRow2->addWidget(m_expiring);
    filterRow2->addWidget(m_expiringSeconds);
    semLayout->addLayout(filterRow2);

    m_discoveryBar = new QWidget(semWidget);
    auto *discLayout = new QHBoxLayout(m_discoveryBar);
    discLayout->setContentsMargins(0, 0, 0, 0);
    m_discoveryLabel = new QLabel(m_discoveryBar);
    m_discoveryLabel->setObjectName(QStringLiteral("discoveryLabel"));
    m_discoveryProgress = new QProgressBar(m_discoveryBar);
    m_discoveryProgress->setObjectName(QStringLiteral("discoveryProgress"));
    m_discoveryCancel = new QPushButton(tr("Cancel"), m_discoveryBar);
    m_discoveryCancel->setObjectName(QStringLiteral("discoveryCancel"));
    discLayout->addWidget(m_discoveryLabel);
    discLayout->addWidget(m_discoveryProgress, 1);
    discLayout->addWidget(m_discoveryCancel);
    m_discoveryBar->hide();
    semLayout->addWidget(m_discoveryBar);
    connect(m_discoveryCancel, &QPushButton::clicked, this, [this] {
        if (auto *s = currentSession())
            s->cancelDiscovery();
    });

    m_semaphoreView = new QTableView(semWidget);
    m_semaphoreView->setObjectName(QStringLiteral("semaphoreTable"));
    m_semaphoreView->setSortingEnabled(true);
    m_semaphoreView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_semaphoreView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_semaphoreView->verticalHeader()->hide();
    m_semaphoreView->verticalHeader()->setDefaultSectionSize(m_semaphoreView->fontMetrics().height() + 8);
    m_semaphoreView->horizontalHeader()->setStretchLastSection(true);
    // The name first, then "empty since 23:10" of a kept semaphore, "1 (+2 waiting)" and the
    // master, before the last column spreads out.
    m_semaphoreSpareWidth = new SpareWidthKeeper(
        m_semaphoreView,
        {model::SemaphoreListModel::NameColumn, model::SemaphoreListModel::UsageColumn,
         model::SemaphoreListModel::HoldersColumn, model::SemaphoreListModel::NodeColumn},
        48);
    m_semaphoreView->setItemDelegateForColumn(model::SemaphoreListModel::UsageColumn,
                                              new UsageBarDelegate(m_semaphoreView));
    m_semaphoreView->setItemDelegateForColumn(model::SemaphoreListModel::NodeColumn,
                                              new ElideMiddleDelegate(m_semaphoreView));
    m_semaphoreView->setWordWrap(false);
    // Tab goes on to the next pane (it used to walk the cells, opening each semaphore on the way).
    m_semaphoreView->setTabKeyNavigation(false);
    m_semaphoreView->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_semaphoreView, &QWidget::customContextMenuRequested, this, [this](const QPoint &pos) {
        QMenu menu(this);
        const QList<QAction *> actions = semaphoreContextActions(m_semaphoreView->indexAt(pos));
        for (QAction *a : actions) {
            if (a)
                menu.addAction(a);
            else
                menu.addSeparator();
        }
        menu.exec(m_semaphoreView->viewport()->mapToGlobal(pos));
        for (QAction *a : actions) {
            if (a && a->objectName() == QLatin1String("semaphoreContextAction"))
                a->deleteLater();
        }
    });
    semLayout->addWidget(m_semaphoreView, 1);
    m_leftSplitter->addWidget(m_connectionPane);
    m_leftSplitter->addWidget(semWidget);
    m_leftSplitter->setStretchFactor(0, 1);
    m_leftSplitter->setStretchFactor(1, 4);
    layout->addWidget(m_leftSplitter, 1);
    splitter->addWidget(left);

    connect(m_filter, &QLineEdit::textChanged, this, &MainWindow::applyFilters);
    connect(m_kindFilter, &QComboBox::currentIndexChanged, this, &MainWindow::applyFilters);
    connect(m_staleOnly, &QCheckBox::toggled, this, &MainWindow::applyFilters);
    connect(m_expiring, &QCheckBox::toggled, this, &MainWindow::applyFilters);
    connect(m_expiringSeconds, &QSpinBox::valueChanged, this, &MainWindow::applyFilters);
}

void MainWindow::buildMenus() {
    auto *file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_connectionPane->addAction());
    file->addAction(m_connectionPane->editAction());
    file->addAction(m_connectionPane->removeAction());
    file->addSeparator();
    m_openKeyAction = file->addAction(tr("&Open key…"), this, [this] { openKey(); });
    m_openKeyAction->setObjectName(QStringLiteral("openKeyAction"));
    m_openKeyAction->setShortcut(QKeySequence::Open);
    file->addSeparator();
    auto *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    // Spelled out: QKeySequence::Quit is empty on platforms with a Windows key scheme.
    quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    quit->setShortcutContext(Qt::ApplicationShortcut); // also from the load-test window

    auto *view = menuBar()->addMenu(tr("&View"));
    view->addAction(m_page->refreshAction());
    view->addAction(m_connectionPane->rediscoverAction());
    auto *find = view->addAction(tr("&Filter semaphores"), this, [this] {
        m_filter->setFocus();
        m_filter->selectAll();
    });
    find->setShortcut(QKeySequence::Find);
    auto *pause = view->addAction(tr("&Pause auto-refresh"));
    pause->setCheckable(true);
    pause->setShortcut(QKeySequence(QStringLiteral("Ctrl+P")));
    connect(pause, &QAction::toggled, m_page, &SemaphorePage::setPaused);
    auto *keepEmpty = view->addAction(tr("&Keep empty semaphores listed…"), this, [this] {
        bool ok = false;
        const int hours = QInputDialog::getInt(
            this, tr("Keep empty semaphores listed"),
            tr("A semaphore seen before whose keys are gone (Redis deletes a ZSET with no members, a "
               "lock between holders) stays listed as \"empty since …\" for this many hours; 0 drops "
               "it at the first scan that misses it:"),
            keepEmptyHours(), 0, 24 * 365, 1, &ok);
        if (ok)
            setKeepEmptyHours(hours);
    });
    keepEmpty->setObjectName(QStringLiteral("keepEmptyAction"));
    view->addSeparator();
    m_zoom = new ViewZoom(m_services.settingsFile, this);
    view->addAction(m_zoom->zoomInAction());
    view->addAction(m_zoom->zoomOutAction());
    view->addAction(m_zoom->resetAction());
    view->addSeparator();
    auto *auditToggle = m_auditDock->toggleViewAction();
    auditToggle->setText(tr("Audit &log"));
    auditToggle->setShortcut(QKeySequence(QStringLiteral("Ctrl+L")));
    view->addAction(auditToggle);

    auto *sem = menuBar()->addMenu(tr("&Semaphore"));
    for (QAction *a : m_page->allActions()) {
        if (a == m_page->refreshAction())
            continue;
        sem->addAction(a);
    }

    auto *tools = menuBar()->addMenu(tr("&Tools"));
    auto *loadTest = tools->addAction(tr("&Load test…"), this, [this] { openLoadTest(false); });
    loadTest->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+L")));
    loadTest->setToolTip(tr("Hammer a semaphore on this connection with virtual clients and watch "
                            "throughput, latency and safety"));
    tools->addAction(tr("&Training: unsafe vs atomic…"), this, [this] { openLoadTest(true); });
    auto *sessions = tools->addAction(tr("Consul &sessions…"), this, [this] { openConsulSessions(); });
    sessions->setObjectName(QStringLiteral("consulSessionsAction"));
    sessions->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+S")));
    auto *topology = tools->addAction(tr("T&opology…"), this, [this] { openTopology(); });
    topology->setObjectName(QStringLiteral("topologyAction"));
    topology->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+T")));
    topology->setToolTip(tr("Every node behind this Redis connection: roles, slots, replication lag"));
    auto *findHolder = tools->addAction(tr("&Find holder…"), this, [this] { openHolderSearch(); });
    findHolder->setObjectName(QStringLiteral("findHolderAction"));
    findHolder->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+F")));

    auto *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About semscope"), this, &MainWindow::showAbout);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
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
    ConnectionSession *s = currentSession();
    if (!s || s->config().backend != Backend::Redis) {
        statusBar()->showMessage(tr("Open key… reads a Redis key: select a connected Redis connection first "
                                    "(Consul semaphores are found by their KV prefix)"),
                                 15000);
        return nullptr;
    }
    const QString id = s->config().id;
    QPointer<ConnectionSession> reader(s);
    auto lookUp = [session = reader](const QString &key, QObject *context,
                                     std::function<void(RawKeys)> done) {
        if (!session) {
            RawKeys gone;
            gone.error = tr("the connection was closed");
            done(gone);
            return;
        }
        // Read as a lock: its keys are the name alone, so the raw read is TYPE, PTTL and a bounded
        // sample of exactly that key, on the connection's thread.
        model::RawKeysLoader::read(&session->controller, SemaphoreRef{Kind::Lock, key, {}}, context,
                                   std::move(done));
    };
    auto *dialog = new OpenKeyDialog(s->config().name, lookUp, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog, id] {
        const SemaphoreRef ref = dialog->chosen();
        if (ref.name.isEmpty())
            return;
        if (auto c = m_services.registry->find(id); c && c->pin(ref))
            m_services.registry->upsert(*c); // the profile: listed again after a restart
        ConnectionSession *s = session(id);
        if (!s)
            return;
        s->listPinned();
        openSemaphore(id, ref);
        statusBar()->showMessage(s->located(tr("%1 “%2” is listed from now on (right-click → Forget to stop)")
                                                .arg(kindName(ref.kind), ref.name)),
                                 15000);
    });
    dialog->open();
    return dialog;
}

void MainWindow::forgetSemaphore(const QString &connectionId, const SemaphoreRef &ref) {
    if (auto c = m_services.registry->find(connectionId)) {
        const qsizetype before = c->pinned.size();
        c->pinned.removeIf([&](const SemaphoreRef &p) { return p == ref; });
        if (c->pinned.size() != before)
            m_services.registry->upsert(*c);
    }
    ConnectionSession *s = session(connectionId);
    if (!s)
        return;
    if (m_page->session() == s && m_page->ref() == ref) {
        s->shownSemaphore.reset();
        m_page->clearSemaphore();
    }
    s->forget(ref);
    statusBar()->showMessage(
        s->located(
            tr("%1 “%2” forgotten: listed again only if a scan finds it").arg(kindName(ref.kind), ref.name)),
        15000);
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
    auto settings = openSettings(m_services.settingsFile);
    return settings->value(QStringLiteral("list/keepEmptyHours"), 24).toInt();
}

void MainWindow::setKeepEmptyHours(int hours) {
    hours = std::max(0, hours);
    openSettings(m_services.settingsFile)->setValue(QStringLiteral("list/keepEmptyHours"), hours);
    m_connectionPane->setEmptyRetentionMs(qint64(hours) * 3600 * 1000);
    statusBar()->showMessage(hours == 0
                                 ? tr("Empty semaphores are dropped at the first scan that misses them")
                                 : tr("Empty semaphores stay listed for %n hour(s)", nullptr, hours),
                             10000);
}

QString MainWindow::currentConnectionId() const {
    return m_connectionPane->currentId();
}

QListWidget *MainWindow::connectionList() const {
    return m_connectionPane->list();
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
    QAbstractItemModel *wanted = s ? &s->proxy : nullptr;
    if (m_semaphoreView->model() != wanted) {
        m_semaphoreView->setModel(wanted);
        m_semaphoreSpareWidth->follow(wanted);
        // setModel made a new selection model: connect to it once.
        if (s) {
            connect(m_semaphoreView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
                    [this](const QModelIndex &current) { semaphoreActivated(current); });
        }
    }
    if (s) {
        auto *header = m_semaphoreView->horizontalHeader();
        fitSemaphoreColumns();
        auto settings = openSettings(m_services.settingsFile);
        const QByteArray saved = settings->value(QStringLiteral("window/semaphoreHeader")).toByteArray();
        if (!saved.isEmpty())
            header->restoreState(saved);
        // How many holders need attention is a number, next to the usage: it stays in view when
        // the list is narrow.
        header->moveSection(header->visualIndex(model::SemaphoreListModel::StaleColumn),
                            header->visualIndex(model::SemaphoreListModel::UsageColumn) + 1);
        // The warnings are a narrow "⚠ 2" just before the name (the text is in the tooltip and on
        // the page): they used to be last, and off screen even at 1600 px.
        header->moveSection(header->visualIndex(model::SemaphoreListModel::WarningsColumn),
                            header->visualIndex(model::SemaphoreListModel::NameColumn));
        // On a Cluster, where a semaphore lives comes right after how full it is: as the last
        // column it was off screen in the usual list width.
        header->moveSection(header->visualIndex(model::SemaphoreListModel::NodeColumn),
                            header->visualIndex(model::SemaphoreListModel::StaleColumn) + 1);
        updateNodeColumn();
        header->resizeSection(
            model::SemaphoreListModel::WarningsColumn,
            std::max(header->sectionSizeHint(model::SemaphoreListModel::WarningsColumn),
                     m_semaphoreView->fontMetrics().horizontalAdvance(QStringLiteral("⚠ 99")) + 12));
    }
    applyFilters();
    showPageOf(s);
    showScanProgress(s);
    updateOpenKeyAction();
    updateStatus();
}

void MainWindow::applyFilters() {
    ConnectionSession *s = currentSession();
    if (!s)
        return;
    s->proxy.setText(m_filter->text());
    const int kind = m_kindFilter->currentData().toInt();
    s->proxy.setKind(kind < 0 ? std::nullopt : std::optional<Kind>(Kind(kind)));
    s->proxy.setStaleOnly(m_staleOnly->isChecked());
    s->proxy.setExpiringWithinSeconds(m_expiring->isChecked() ? std::optional<int>(m_expiringSeconds->value())
                                                              : std::nullopt);
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
    // Show it selected in the list too, so list and page agree (no-op when it is filtered out).
    const int row = s->list.rowOf(*s->shownSemaphore);
    const QModelIndex proxyIndex = row >= 0 ? s->proxy.mapFromSource(s->list.index(row, 0)) : QModelIndex();
    if (proxyIndex.isValid())
        m_semaphoreView->selectionModel()->setCurrentIndex(proxyIndex, QItemSelectionModel::ClearAndSelect |
                                                                           QItemSelectionModel::Rows);
}

bool MainWindow::openSemaphore(const QString &connectionId, const SemaphoreRef &ref) {
    ConnectionSession *s = session(connectionId);
    if (!s)
        return false;
    selectConnection(connectionId);
    const int row = s->list.rowOf(ref);
    if (row >= 0) {
        const QModelIndex proxyIndex = s->proxy.mapFromSource(s->list.index(row, 0));
        if (proxyIndex.isValid()) {
            m_semaphoreView->selectionModel()->setCurrentIndex(
                proxyIndex, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        }
    }
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

void MainWindow::showScanProgress(ConnectionSession *s) {
    // Always from the session's own state: the bar is shared by every connection, and one selected
    // mid-scan showed the last connection's count until its own next page came in.
    const bool shown = s && s->isDiscovering() && !s->isBackgroundDiscovery();
    m_discoveryBar->setVisible(shown);
    if (!shown)
        return;
    const ConnectionSession::ScanProgress p = s->scanProgress();
    if (p.total > 0) {
        m_discoveryProgress->setRange(0, 1000);
        m_discoveryProgress->setValue(int(std::min<qint64>(1000, p.scanned * 1000 / p.total)));
    } else {
        m_discoveryProgress->setRange(0, 0);
    }
    m_discoveryLabel->setText(p.scanned < 0 ? tr("Scanning…")
                                            : tr("Scanning: %1 keys, %2 found").arg(p.scanned).arg(p.found));
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
            updateNodeColumn();
    });
    connect(&s->actions, &model::OperatorActions::actionFinished, this,
            [this](const QString &summary) { statusBar()->showMessage(summary, 15000); });
    connect(s, &ConnectionSession::discoveryStarted, this, [this, s] {
        if (currentSession() == s)
            showScanProgress(s);
    });
    connect(s, &ConnectionSession::discoveryProgress, this, [this, s] {
        if (currentSession() == s)
            showScanProgress(s);
    });
    connect(s, &ConnectionSession::discoveryFinished, this,
            [this, s](bool ok, bool cancelled, const QString &message) {
                if (currentSession() == s)
                    m_discoveryBar->hide();
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
    if (m_semaphoreView->model() == &s->proxy)
        m_semaphoreView->setModel(nullptr);
    m_monitoring->detach(s->config().id);
}

void MainWindow::restoreState() {
    auto settings = openSettings(m_services.settingsFile);
    const QByteArray geometry = settings->value(QStringLiteral("window/geometry")).toByteArray();
    if (geometry.isEmpty() || !restoreGeometry(geometry))
        resizeToFitScreen(this, QSize(1400, 860));
    else
        keepOnScreen(this); // saved on a larger screen than this one
    QMainWindow::restoreState(settings->value(QStringLiteral("window/state")).toByteArray());
    const QByteArray split = settings->value(QStringLiteral("window/splitter")).toByteArray();
    if (split.isEmpty() || !m_splitter->restoreState(split))
        // The page gets the larger share: its holder table must show holder, TTL and state even at
        // 1024 px; the list keeps its kind, name and usage, and at 1600 px its holders too.
        m_splitter->setSizes({620, 980});
    if (!m_leftSplitter->restoreState(settings->value(QStringLiteral("window/leftSplitter")).toByteArray()))
        m_leftSplitter->setSizes({m_connectionPane->heightForList(110), 700});
    m_page->restoreViewState(settings->value(QStringLiteral("window/holderHeader")).toByteArray());
    m_page->setIntervalMs(settings->value(QStringLiteral("window/refreshMs"), 1000).toInt());
}

void MainWindow::saveState() {
    auto settings = openSettings(m_services.settingsFile);
    settings->setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings->setValue(QStringLiteral("window/state"), QMainWindow::saveState());
    settings->setValue(QStringLiteral("window/splitter"), m_splitter->saveState());
    settings->setValue(QStringLiteral("window/leftSplitter"), m_leftSplitter->saveState());
    settings->setValue(QStringLiteral("window/holderHeader"), m_page->saveViewState());
    settings->setValue(QStringLiteral("window/refreshMs"), m_page->intervalMs());
    if (m_semaphoreView->model())
        settings->setValue(QStringLiteral("window/semaphoreHeader"),
                           m_semaphoreView->horizontalHeader()->saveState());
}

void MainWindow::fitSemaphoreColumns() {
    // In units of the font, so the columns grow with View > Zoom.
    auto *header = m_semaphoreView->horizontalHeader();
    const QFontMetrics fm = m_semaphoreView->fontMetrics();
    const int ch = std::max(6, fm.averageCharWidth());
    int kindWidth = 0;
    for (const QString &name : allKindNames())
        kindWidth = std::max(kindWidth, fm.horizontalAdvance(name) + 16);
    fitHeaderSections(
        header,
        {{model::SemaphoreListModel::KindColumn, kindWidth},
         {model::SemaphoreListModel::NameColumn, 21 * ch},
         // Room for the bar's "12 / 20"; a kept semaphore's "empty since 23:10" grows it where there
         // is room (above), so the stale count beside it stays in view at 1280x720.
         {model::SemaphoreListModel::UsageColumn, 12 * ch},
         {model::SemaphoreListModel::ExpiryColumn, 16 * ch},
         {model::SemaphoreListModel::WarningsColumn, fm.horizontalAdvance(QStringLiteral("⚠ 99")) + 12}});
}

void MainWindow::updateNodeColumn() {
    ConnectionSession *s = currentSession();
    m_semaphoreView->setColumnHidden(model::SemaphoreListModel::NodeColumn, !s || !s->list.hasClusterNodes());
}

void MainWindow::changeEvent(QEvent *event) {
    QMainWindow::changeEvent(event);
    // Zoomed (View > Zoom): rows as high as the text, no header cut off.
    if (event->type() == QEvent::FontChange && m_semaphoreView) {
        m_semaphoreView->verticalHeader()->setDefaultSectionSize(m_semaphoreView->fontMetrics().height() + 8);
        fitSemaphoreColumns();
    }
}

void MainWindow::closeEvent(QCloseEvent *event) {
    if (!m_quitGuard->mayClose()) {
        event->ignore();
        return;
    }
    saveState();
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
    ConnectionSession *s = currentSession();
    if (!s && !training) {
        statusBar()->showMessage(tr("Load test: connect first (double-click a connection)"), 10000);
        return nullptr;
    }
    // Training needs no connection for the scenario that starts its own servers: without one the
    // window has an empty connection id (see LoadTestWindow).
    const model::ConnectionConfig config = s ? s->config() : model::ConnectionConfig();
    return raiseToolWindow<LoadTestWindow>(
        this, [&](LoadTestWindow *w) { return w->connectionId() == config.id; },
        [&] {
            auto *window = new LoadTestWindow(config, m_services.settingsFile, this);
            window->setAuditLog(m_services.audit);
            window->setAttribute(Qt::WA_DeleteOnClose);
            return window;
        },
        [&](LoadTestWindow *window) {
            if (s && m_page->session() == s && !window->loadTestPage()->isRunning())
                window->loadTestPage()->prefill(m_page->ref());
            if (training)
                window->showTraining();
            else
                window->showLoadTest();
        });
}

ConsulSessionsWindow *MainWindow::openConsulSessions() {
    ConnectionSession *s = currentSession();
    if (!s || s->config().backend != core::Backend::Consul) {
        statusBar()->showMessage(tr("Consul sessions: select an open Consul connection first"), 10000);
        return nullptr;
    }
    return raiseToolWindow<ConsulSessionsWindow>(
        this, [s](ConsulSessionsWindow *w) { return w->connectionId() == s->config().id; },
        [this, s] {
            auto *window = new ConsulSessionsWindow(s, this);
            window->setAttribute(Qt::WA_DeleteOnClose);
            return window;
        });
}

TopologyWindow *MainWindow::openTopology() {
    ConnectionSession *s = currentSession();
    if (!s || s->config().backend != core::Backend::Redis) {
        statusBar()->showMessage(tr("Topology: select an open Redis connection first"), 10000);
        return nullptr;
    }
    return raiseToolWindow<TopologyWindow>(
        this, [s](TopologyWindow *w) { return w->connectionId() == s->config().id; },
        [this, s] {
            auto *window = new TopologyWindow(s, this);
            window->setAttribute(Qt::WA_DeleteOnClose);
            return window;
        });
}

HolderSearchWindow *MainWindow::openHolderSearch() {
    // Not deleted on close: one window while the main window lives (closing only hides it).
    HolderSearchWindow *window = raiseToolWindow<HolderSearchWindow>(
        this, [](HolderSearchWindow *) { return true; },
        [this] {
            // Every connection that is connected now, with the semaphores its list shows.
            auto targets = [this] {
                QList<model::HolderSearchTarget> out;
                for (ConnectionSession *s : m_connectionPane->sessions()) {
                    if (s->controller.state() != model::ConnectionController::State::Connected)
                        continue;
                    model::HolderSearchTarget t{
                        s->config().id, s->config().name, s->config().environment, &s->controller, {}};
                    for (const SemaphoreRef &ref : s->list.refs())
                        t.semaphores << (s->resolveProfile ? s->resolveProfile(ref) : ref);
                    out << t;
                }
                return out;
            };
            auto *window = new HolderSearchWindow(targets, this);
            connect(window, &HolderSearchWindow::openRequested, this,
                    [this](const QString &connectionId, const SemaphoreRef &ref) {
                        if (!openSemaphore(connectionId, ref))
                            statusBar()->showMessage(tr("That connection is no longer open"), 10000);
                        raise();
                        activateWindow();
                    });
            return window;
        });
    window->focusSearch();
    return window;
}

} // namespace semscope::ui
