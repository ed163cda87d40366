#pragma once

#include "ConnectionController.h"
#include "ConnectionStores.h"
#include "ControllerStore.h"
#include "monitor/HolderEvent.h"

#include <QHash>
#include <QObject>
#include <QTimer>
#include <memory>

namespace semscope::core {
class ProfileStore;
}
namespace semscope::monitor {
class HistoryWorker;
class SemaphoreWatcher;
} // namespace semscope::monitor

namespace semscope::model {

// What the desktop should tell the operator about a watched semaphore.
struct WatchNotification {
    QString connectionId;
    core::SemaphoreRef ref;
    QString title;
    QString message;
};

// The semaphores the operator starred ("Watch"), watched in the background whether or not their
// page is shown: one monitor::SemaphoreWatcher per open connection (over its ControllerStore, so
// nothing here waits on the network), its events recorded in the shared history. Raises a
// notification when a holder turns stale or over-limit, when a semaphore stays full longer than
// fullAfterMs(), or when a holder is force-released by someone else (another semscope process: this
// one's own force-releases are not news). Which semaphores are watched is remembered per connection
// (QSettings `watched/<connection id>`).
class WatchController : public QObject {
    Q_OBJECT
public:
    // `history` and `profiles` (nullable) must outlive the controller.
    WatchController(monitor::HistoryWorker *history, core::ProfileStore *profiles, QObject *parent = nullptr);
    ~WatchController() override;

    // Starts watching the connection's starred semaphores; removeConnection() before `controller` goes.
    void addConnection(ConnectionController *controller);
    void removeConnection(const QString &connectionId);

    bool isWatched(const QString &connectionId, const core::SemaphoreRef &ref) const;
    void setWatched(const QString &connectionId, const core::SemaphoreRef &ref, bool watched);
    // Starred semaphores of a connection (open or not).
    QList<core::SemaphoreRef> watched(const QString &connectionId) const;
    // Starred semaphores of the open connections.
    int watchedCount() const;

    static constexpr qint64 kDefaultFullAfterMs = 5 * 60 * 1000;
    // How long a watched semaphore may stay full before it is news (QSettings
    // notifications/fullAfterSeconds, default 300).
    qint64 fullAfterMs() const { return m_fullAfterMs; }
    void setFullAfterMs(qint64 ms);
    void setIntervalMs(qint64 ms) { m_intervalMs = ms; }
    // Where keyspace notifications come from (model::changeHintsFor for real servers); none given:
    // watched semaphores are re-read on the interval only.
    void setChangeHintsProvider(ChangeHintsProvider provider) { m_changeHints = std::move(provider); }

    // Whether `ref` has been reported full and has not had room since (once it has, filling up is
    // news again), as of the last check (every second).
    bool isReportedFull(const QString &connectionId, const core::SemaphoreRef &ref) const;

    // Who this process is in force-release marks ("semscope (user@host, pid 42)").
    static QString ownOrigin();

    // The watcher of an open connection (nullptr when nothing is starred there), for tests.
    monitor::SemaphoreWatcher *watcherOf(const QString &connectionId) const;
    // How soon a change to a watched semaphore of this connection is seen, for the operator (the
    // History tab): "Instant: …" where the Redis server publishes keyspace notifications (also when
    // they were turned on after connecting: the first event switches), else "Every N: …". Empty
    // until known (and for Consul, whose watches are pushed anyway).
    QString changeNote(const QString &connectionId) const;

Q_SIGNALS:
    void watchedChanged();
    void notificationRaised(const semscope::model::WatchNotification &notification);
    // New events of a watched semaphore are in the history (the History tab re-reads).
    void eventsRecorded(const QString &connectionId, const semscope::core::SemaphoreRef &ref);

private:
    struct Connection {
        QPointer<ConnectionController> controller;
        std::unique_ptr<ControllerStore> store;
        std::unique_ptr<monitor::SemaphoreWatcher> watcher;
        // Redis: keyspace notifications, asked for once the first semaphore is starred.
        std::unique_ptr<redis::KeyspaceNotifications> hints;
        bool hintsProbed = false; // hints answered probe(): watchers follow them from then on
        QString changeNote;
        QHash<QString, qint64> fullSince; // semaphore key -> since when it is full (local clock)
        QSet<QString> fullReported;
    };

    void restart(const QString &connectionId);
    void askForChangeHints(const QString &connectionId, Connection &c);
    QString instantNote(const QString &setting) const;
    QString intervalNote(const QString &setting) const;
    void onEvents(const QString &connectionId, const QList<monitor::HolderEvent> &events);
    void checkFull();
    void raise(const QString &connectionId, const core::SemaphoreRef &ref, const QString &title,
               const QString &message);
    QString connectionName(const QString &connectionId) const;

    monitor::HistoryWorker *m_history;
    core::ProfileStore *m_profiles;
    std::unordered_map<QString, std::unique_ptr<Connection>> m_connections;
    qint64 m_fullAfterMs = kDefaultFullAfterMs;
    qint64 m_intervalMs = 1000;
    ChangeHintsProvider m_changeHints;
    QTimer m_fullCheck;
};

} // namespace semscope::model

Q_DECLARE_METATYPE(semscope::model::WatchNotification)
