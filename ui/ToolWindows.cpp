#include "ToolWindows.h"

#include "ConnectionPane.h"
#include "MainWindow.h"
#include "SemaphorePage.h"
#include "ToolWindow.h"
#include "loadtest/LoadTestPage.h"
#include "loadtest/LoadTestWindow.h"
#include "model/ConnectionSession.h"
#include "search/HolderSearchWindow.h"
#include "sessions/ConsulSessionsWindow.h"
#include "topology/TopologyWindow.h"

#include <QStatusBar>

namespace semscope::ui {

using core::SemaphoreRef;

ToolWindows::ToolWindows(MainWindow *window, const QString &settingsFile, core::AuditLog *audit,
                         PrivateRedisLauncher privateRedis)
    : QObject(window)
    , m_window(window)
    , m_settingsFile(settingsFile)
    , m_audit(audit)
    , m_privateRedis(std::move(privateRedis)) {}

LoadTestWindow *ToolWindows::openLoadTest(bool training) {
    ConnectionSession *s = m_window->currentSession();
    if (!s && !training) {
        m_window->statusBar()->showMessage(
            MainWindow::tr("Load test: connect first (double-click a connection)"), 10000);
        return nullptr;
    }
    // Training needs no connection for the scenario that starts its own servers: without one the
    // window has an empty connection id (see LoadTestWindow).
    const model::ConnectionConfig config = s ? s->config() : model::ConnectionConfig();
    return raiseToolWindow<LoadTestWindow>(
        m_window, [&](LoadTestWindow *w) { return w->connectionId() == config.id; },
        [&] {
            auto *window = new LoadTestWindow(config, m_settingsFile, m_window);
            window->setAuditLog(m_audit);
            window->setPrivateRedisLauncher(m_privateRedis);
            window->setAttribute(Qt::WA_DeleteOnClose);
            return window;
        },
        [&](LoadTestWindow *window) {
            if (s && m_window->semaphorePage()->session() == s && !window->loadTestPage()->isRunning())
                window->loadTestPage()->prefill(m_window->semaphorePage()->ref());
            if (training)
                window->showTraining();
            else
                window->showLoadTest();
        });
}

ConsulSessionsWindow *ToolWindows::openConsulSessions() {
    ConnectionSession *s = m_window->currentSession();
    if (!s || s->config().backend != core::Backend::Consul) {
        m_window->statusBar()->showMessage(
            MainWindow::tr("Consul sessions: select an open Consul connection first"), 10000);
        return nullptr;
    }
    return raiseToolWindow<ConsulSessionsWindow>(
        m_window, [s](ConsulSessionsWindow *w) { return w->connectionId() == s->config().id; },
        [this, s] {
            auto *window = new ConsulSessionsWindow(s, m_window);
            window->setAttribute(Qt::WA_DeleteOnClose);
            return window;
        });
}

TopologyWindow *ToolWindows::openTopology() {
    ConnectionSession *s = m_window->currentSession();
    if (!s || s->config().backend != core::Backend::Redis) {
        m_window->statusBar()->showMessage(MainWindow::tr("Topology: select an open Redis connection first"),
                                           10000);
        return nullptr;
    }
    return raiseToolWindow<TopologyWindow>(
        m_window, [s](TopologyWindow *w) { return w->connectionId() == s->config().id; },
        [this, s] {
            auto *window = new TopologyWindow(s, m_window);
            window->setAttribute(Qt::WA_DeleteOnClose);
            return window;
        });
}

HolderSearchWindow *ToolWindows::openHolderSearch() {
    // Not deleted on close: one window while the main window lives (closing only hides it).
    HolderSearchWindow *window = raiseToolWindow<HolderSearchWindow>(
        m_window, [](HolderSearchWindow *) { return true; },
        [this] {
            // Every connection that is connected now, with the semaphores its list shows.
            // The lambdas keep the main window, not this object: the search window outlives it.
            auto targets = [main = m_window] {
                QList<model::HolderSearchTarget> out;
                for (ConnectionSession *s : main->connectionPane()->sessions()) {
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
            auto *window = new HolderSearchWindow(targets, m_window);
            connect(window, &HolderSearchWindow::openRequested, m_window,
                    [main = m_window](const QString &connectionId, const SemaphoreRef &ref) {
                        if (!main->openSemaphore(connectionId, ref))
                            main->statusBar()->showMessage(
                                MainWindow::tr("That connection is no longer open"), 10000);
                        main->raise();
                        main->activateWindow();
                    });
            return window;
        });
    window->focusSearch();
    return window;
}

} // namespace semscope::ui
