#include "MainMenus.h"

#include "ConnectionPane.h"
#include "MainWindow.h"
#include "SemaphoreListPane.h"
#include "SemaphorePage.h"
#include "ViewZoom.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QInputDialog>
#include <QMenu>
#include <QMenuBar>

namespace semscope::ui {

MainMenuActions buildMainMenus(MainWindow *w) {
    MainMenuActions out;
    ConnectionPane *connections = w->connectionPane();
    SemaphorePage *page = w->semaphorePage();
    QMenuBar *bar = w->menuBar();

    auto *file = bar->addMenu(MainWindow::tr("&File"));
    file->addAction(connections->addAction());
    file->addAction(connections->editAction());
    file->addAction(connections->removeAction());
    file->addSeparator();
    out.openKey = file->addAction(MainWindow::tr("&Open key…"), w, [w] { w->openKey(); });
    out.openKey->setObjectName(QStringLiteral("openKeyAction"));
    out.openKey->setShortcut(QKeySequence::Open);
    file->addSeparator();
    auto *quit = file->addAction(MainWindow::tr("&Quit"), w, &QWidget::close);
    // Spelled out: QKeySequence::Quit is empty on platforms with a Windows key scheme.
    quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    quit->setShortcutContext(Qt::ApplicationShortcut); // also from the load-test window

    auto *view = bar->addMenu(MainWindow::tr("&View"));
    view->addAction(page->refreshAction());
    view->addAction(connections->rediscoverAction());
    auto *find = view->addAction(MainWindow::tr("&Filter semaphores"), w,
                                 [w] { w->semaphoreListPane()->focusFilter(); });
    find->setShortcut(QKeySequence::Find);
    auto *pause = view->addAction(MainWindow::tr("&Pause auto-refresh"));
    pause->setCheckable(true);
    pause->setShortcut(QKeySequence(QStringLiteral("Ctrl+P")));
    QObject::connect(pause, &QAction::toggled, page, &SemaphorePage::setPaused);
    auto *keepEmpty = view->addAction(MainWindow::tr("&Keep empty semaphores listed…"), w, [w] {
        bool ok = false;
        const int hours = QInputDialog::getInt(
            w, MainWindow::tr("Keep empty semaphores listed"),
            MainWindow::tr(
                "A semaphore seen before whose keys are gone (Redis deletes a ZSET with no members, a "
                "lock between holders) stays listed as \"empty since …\" for this many hours; 0 "
                "drops it at the first scan that misses it:"),
            w->keepEmptyHours(), 0, 24 * 365, 1, &ok);
        if (ok)
            w->setKeepEmptyHours(hours);
    });
    keepEmpty->setObjectName(QStringLiteral("keepEmptyAction"));
    view->addSeparator();
    view->addAction(w->zoom()->zoomInAction());
    view->addAction(w->zoom()->zoomOutAction());
    view->addAction(w->zoom()->resetAction());
    view->addSeparator();
    auto *auditToggle = w->auditDock()->toggleViewAction();
    auditToggle->setText(MainWindow::tr("Audit &log"));
    auditToggle->setShortcut(QKeySequence(QStringLiteral("Ctrl+L")));
    view->addAction(auditToggle);

    auto *sem = bar->addMenu(MainWindow::tr("&Semaphore"));
    for (QAction *a : page->allActions()) {
        if (a == page->refreshAction())
            continue;
        sem->addAction(a);
    }

    auto *tools = bar->addMenu(MainWindow::tr("&Tools"));
    auto *loadTest = tools->addAction(MainWindow::tr("&Load test…"), w, [w] { w->openLoadTest(false); });
    loadTest->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+L")));
    loadTest->setToolTip(
        MainWindow::tr("Hammer a semaphore on this connection with virtual clients and watch "
                       "throughput, latency and safety"));
    tools->addAction(MainWindow::tr("&Training: unsafe vs atomic…"), w, [w] { w->openLoadTest(true); });
    auto *sessions =
        tools->addAction(MainWindow::tr("Consul &sessions…"), w, [w] { w->openConsulSessions(); });
    sessions->setObjectName(QStringLiteral("consulSessionsAction"));
    sessions->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+S")));
    auto *topology = tools->addAction(MainWindow::tr("T&opology…"), w, [w] { w->openTopology(); });
    topology->setObjectName(QStringLiteral("topologyAction"));
    topology->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+T")));
    topology->setToolTip(
        MainWindow::tr("Every node behind this Redis connection: roles, slots, replication lag"));
    auto *findHolder = tools->addAction(MainWindow::tr("&Find holder…"), w, [w] { w->openHolderSearch(); });
    findHolder->setObjectName(QStringLiteral("findHolderAction"));
    findHolder->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+F")));

    auto *help = bar->addMenu(MainWindow::tr("&Help"));
    help->addAction(MainWindow::tr("&About semscope"), w, &MainWindow::showAbout);
    help->addAction(MainWindow::tr("About &Qt"), qApp, &QApplication::aboutQt);
    return out;
}

} // namespace semscope::ui
