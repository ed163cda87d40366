#include "DesktopMonitoring.h"

#include "model/ConnectionSession.h"
#include "monitor/HistoryWorker.h"

#include <QAction>
#include <QApplication>
#include <QLoggingCategory>
#include <QSystemTrayIcon>

namespace semscope::ui {

DesktopMonitoring::DesktopMonitoring(core::ProfileStore *profiles, QObject *parent)
    : QObject(parent)
    , m_history(std::make_unique<monitor::HistoryWorker>(QString(), kGuiBusyTimeoutMs))
    , m_watch(std::make_unique<model::WatchController>(m_history.get(), profiles)) {
    m_tray = new QSystemTrayIcon(QApplication::windowIcon(), this);
    m_tray->setObjectName(QStringLiteral("monitoringTray"));
    m_tray->setToolTip(tr("semscope: watching semaphores"));
    connect(m_tray, &QSystemTrayIcon::messageClicked, this, [this] {
        if (m_last)
            Q_EMIT openRequested(m_last->connectionId, m_last->ref);
    });
    connect(m_watch.get(), &model::WatchController::notificationRaised, this, &DesktopMonitoring::show);
    connect(m_watch.get(), &model::WatchController::watchedChanged, this, &DesktopMonitoring::updateTray);
}

DesktopMonitoring::~DesktopMonitoring() = default;

void DesktopMonitoring::attach(ConnectionSession *session) {
    session->actions.setHistory(m_history.get());
    m_watch->addConnection(&session->controller);
    updateTray();
}

void DesktopMonitoring::detach(const QString &connectionId) {
    m_watch->removeConnection(connectionId);
    updateTray();
}

QAction *DesktopMonitoring::makeWatchAction(const QString &connectionId, const core::SemaphoreRef &ref,
                                            QObject *parent) {
    const bool on = m_watch->isWatched(connectionId, ref);
    auto *a = new QAction(on ? tr("Stop &watching") : tr("&Watch (notify me)"), parent);
    connect(a, &QAction::triggered, this,
            [this, connectionId, ref, on] { m_watch->setWatched(connectionId, ref, !on); });
    return a;
}

void DesktopMonitoring::updateTray() {
    // Only while something is watched: an idle tray icon would be clutter.
    m_tray->setVisible(m_watch->watchedCount() > 0 && QSystemTrayIcon::isSystemTrayAvailable());
}

void DesktopMonitoring::show(const model::WatchNotification &notification) {
    m_last = notification;
    if (m_tray->isVisible())
        m_tray->showMessage(notification.title, notification.message, QSystemTrayIcon::Warning, 15000);
    Q_EMIT notified(notification);
}

} // namespace semscope::ui
