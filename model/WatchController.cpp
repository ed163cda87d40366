#include "WatchController.h"

#include "core/Duration.h"
#include "core/ProfileStore.h"
#include "monitor/HistoryWorker.h"
#include "monitor/SemaphoreWatcher.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QSettings>

namespace semscope::model {

using core::SemaphoreRef;
using monitor::HolderEvent;
namespace events = monitor::events;

namespace {

QString refKey(const SemaphoreRef &ref) {
    return core::kindName(ref.kind) + QLatin1Char(':') + ref.name;
}

std::optional<SemaphoreRef> refFromKey(const QString &key) {
    const qsizetype colon = key.indexOf(QLatin1Char(':'));
    if (colon <= 0)
        return std::nullopt;
    const auto kind = core::kindFromName(key.left(colon));
    if (!kind)
        return std::nullopt;
    SemaphoreRef ref;
    ref.kind = *kind;
    ref.name = key.mid(colon + 1);
    return ref;
}

QString settingsKey(const QString &connectionId) {
    return QStringLiteral("watched/") + connectionId;
}

} // namespace

WatchController::WatchController(monitor::HistoryWorker *history, core::ProfileStore *profiles,
                                 QObject *parent)
    : QObject(parent)
    , m_history(history)
    , m_profiles(profiles) {
    qRegisterMetaType<WatchNotification>();
    m_fullAfterMs = qMax<qint64>(
        1000, QSettings()
                      .value(QStringLiteral("notifications/fullAfterSeconds"), kDefaultFullAfterMs / 1000)
                      .toLongLong() *
                  1000);
    m_fullCheck.setInterval(1000);
    connect(&m_fullCheck, &QTimer::timeout, this, &WatchController::checkFull);
    m_fullCheck.start();
}

WatchController::~WatchController() = default;

QString WatchController::ownOrigin() {
    return monitor::HistoryStore::originOfThisProcess(QStringLiteral("semscope"));
}

void WatchController::setFullAfterMs(qint64 ms) {
    m_fullAfterMs = qMax<qint64>(100, ms);
    QSettings().setValue(QStringLiteral("notifications/fullAfterSeconds"), qMax<qint64>(1, ms / 1000));
}

void WatchController::addConnection(ConnectionController *controller) {
    const QString id = controller->config().id;
    auto c = std::make_unique<Connection>();
    c->controller = controller;
    c->store = std::make_unique<ControllerStore>(controller);
    m_connections[id] = std::move(c);
    restart(id);
}

void WatchController::removeConnection(const QString &connectionId) {
    auto it = m_connections.find(connectionId);
    if (it == m_connections.end())
        return;
    if (it->second->watcher)
        it->second->watcher->stop();
    m_connections.erase(it);
    Q_EMIT watchedChanged();
}

QList<SemaphoreRef> WatchController::watched(const QString &connectionId) const {
    QList<SemaphoreRef> out;
    for (const QString &key : QSettings().value(settingsKey(connectionId)).toStringList())
        if (const auto ref = refFromKey(key))
            out << *ref;
    return out;
}

bool WatchController::isWatched(const QString &connectionId, const SemaphoreRef &ref) const {
    return QSettings().value(settingsKey(connectionId)).toStringList().contains(refKey(ref));
}

void WatchController::setWatched(const QString &connectionId, const SemaphoreRef &ref, bool on) {
    QSettings settings;
    QStringList keys = settings.value(settingsKey(connectionId)).toStringList();
    const QString key = refKey(ref);
    if (on == keys.contains(key))
        return;
    if (on)
        keys << key;
    else
        keys.removeAll(key);
    if (keys.isEmpty())
        settings.remove(settingsKey(connectionId));
    else
        settings.setValue(settingsKey(connectionId), keys);
    restart(connectionId);
    Q_EMIT watchedChanged();
}

int WatchController::watchedCount() const {
    int n = 0;
    for (const auto &[id, c] : m_connections)
        n += int(watched(id).size());
    return n;
}

monitor::SemaphoreWatcher *WatchController::watcherOf(const QString &connectionId) const {
    const auto it = m_connections.find(connectionId);
    return it == m_connections.end() ? nullptr : it->second->watcher.get();
}

QString WatchController::connectionName(const QString &connectionId) const {
    const auto it = m_connections.find(connectionId);
    if (it == m_connections.end() || !it->second->controller)
        return connectionId;
    return it->second->controller->config().name;
}

void WatchController::restart(const QString &connectionId) {
    const auto it = m_connections.find(connectionId);
    if (it == m_connections.end())
        return;
    Connection &c = *it->second;
    c.watcher.reset();
    c.fullSince.clear();
    c.fullReported.clear();
    QList<SemaphoreRef> refs = watched(connectionId);
    if (c.hints)
        c.hints->followSemaphores({}); // the new watcher says what to follow after its first round
    if (refs.isEmpty() || !c.controller)
        return;
    const QString endpoint = c.controller->config().endpoint();
    if (m_profiles)
        for (SemaphoreRef &ref : refs)
            ref.profile = m_profiles->resolve(endpoint, ref);
    monitor::WatchOptions options;
    options.only = refs;
    options.intervalMs = m_intervalMs;
    options.maxInFlight = 4;
    // The watcher's interval reads share a read the page or the list made this round (issue 30):
    // a watched semaphore that is also shown is read once per interval, not twice.
    c.store->setSharedReadAgeMs(m_intervalMs);
    c.watcher = std::make_unique<monitor::SemaphoreWatcher>(*c.store, options);
    c.watcher->setHistory(m_history);
    connect(c.watcher.get(), &monitor::SemaphoreWatcher::events, this,
            [this, connectionId](const QList<HolderEvent> &list) { onEvents(connectionId, list); });
    if (c.hints && c.hintsProbed)
        c.watcher->setChangeHints(c.hints.get());
    else if (!c.hints)
        askForChangeHints(connectionId, c);
    c.watcher->start();
}

void WatchController::askForChangeHints(const QString &connectionId, Connection &c) {
    if (!m_changeHints)
        return;
    c.hints = m_changeHints(c.controller->config());
    if (!c.hints)
        return;
    // A notified change makes every earlier read old news, for the watcher's re-read and for
    // whoever else shares its reads (connected before the watcher follows the hints itself).
    connect(c.hints.get(), &core::SemaphoreChangeHints::changed, c.controller.data(),
            [controller = c.controller](const SemaphoreRef &ref) {
                if (controller)
                    controller->markChanged(ref);
            });
    QPointer<redis::KeyspaceNotifications> hints(c.hints.get());
    c.hints->probe([this, connectionId, hints](bool enabled, const QString &setting) {
        const auto it = m_connections.find(connectionId);
        if (!hints || it == m_connections.end() || it->second->hints.get() != hints)
            return; // the connection closed meanwhile
        Connection &c = *it->second;
        c.hintsProbed = true;
        c.changeNote = enabled ? instantNote(setting) : intervalNote(setting);
        // Followed either way (issue 31): the channels cost nothing while the server publishes
        // nothing, and notifications turned on later are used from their first event.
        if (c.watcher)
            c.watcher->setChangeHints(hints);
        connect(hints, &redis::KeyspaceNotifications::publishingStarted, this, [this, connectionId] {
            const auto it = m_connections.find(connectionId);
            if (it == m_connections.end())
                return;
            it->second->changeNote = instantNote(tr("turned on since semscope connected"));
            Q_EMIT watchedChanged();
        });
        Q_EMIT watchedChanged();
    });
}

QString WatchController::instantNote(const QString &setting) const {
    return tr("Instant: keyspace notifications (%1) — a change is read at once.").arg(setting);
}

QString WatchController::intervalNote(const QString &setting) const {
    return tr("Every %1: the server publishes no keyspace events%2; the first one it publishes switches "
              "to instant reads.")
        .arg(core::formatDurationMs(m_intervalMs),
             setting.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(setting));
}

bool WatchController::isReportedFull(const QString &connectionId, const SemaphoreRef &ref) const {
    const auto it = m_connections.find(connectionId);
    return it != m_connections.end() && it->second->fullReported.contains(refKey(ref));
}

QString WatchController::changeNote(const QString &connectionId) const {
    const auto it = m_connections.find(connectionId);
    return it == m_connections.end() ? QString() : it->second->changeNote;
}

void WatchController::onEvents(const QString &connectionId, const QList<HolderEvent> &list) {
    QSet<QString> touched;
    for (const HolderEvent &e : list) {
        const QString where = QStringLiteral("%1 on %2").arg(refKey(e.ref), connectionName(connectionId));
        if (!touched.contains(refKey(e.ref))) {
            touched.insert(refKey(e.ref));
            Q_EMIT eventsRecorded(connectionId, e.ref);
        }
        if (e.event == events::Stale) {
            raise(connectionId, e.ref, tr("Holder stale: %1").arg(e.holder),
                  tr("%1 holds %2 but is stale: %3").arg(e.holder, where, e.details));
        } else if (e.event == events::OverLimit) {
            raise(connectionId, e.ref, tr("Over the limit: %1").arg(refKey(e.ref)),
                  tr("%1 holds %2 beyond its limit (%3)").arg(e.holder, where, e.details));
        } else if (e.event == events::ForceReleased && !e.details.contains(ownOrigin())) {
            raise(connectionId, e.ref, tr("Force-released: %1").arg(e.holder),
                  tr("%1 was force-released from %2 (%3)").arg(e.holder, where, e.details));
        }
    }
}

void WatchController::checkFull() {
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (const auto &[id, c] : m_connections) {
        if (!c->watcher)
            continue;
        QSet<QString> fullNow;
        for (const core::Snapshot &s : c->watcher->latest()) {
            const QString key = refKey(s.ref);
            if (!s.limit || s.usedCount() < *s.limit)
                continue;
            fullNow.insert(key);
            const qint64 since = c->fullSince.value(key, now);
            c->fullSince.insert(key, since);
            if (now - since >= m_fullAfterMs && !c->fullReported.contains(key)) {
                c->fullReported.insert(key);
                raise(id, s.ref, tr("Full: %1").arg(key),
                      tr("%1 on %2 has been full (%3 of %4) for %5")
                          .arg(key, connectionName(id))
                          .arg(s.usedCount())
                          .arg(*s.limit)
                          .arg(core::formatDurationMs(now - since)));
            }
        }
        // Not full any more: the next time it fills up is news again.
        for (auto it = c->fullSince.begin(); it != c->fullSince.end();) {
            if (fullNow.contains(it.key())) {
                ++it;
                continue;
            }
            c->fullReported.remove(it.key());
            it = c->fullSince.erase(it);
        }
    }
}

void WatchController::raise(const QString &connectionId, const SemaphoreRef &ref, const QString &title,
                            const QString &message) {
    Q_EMIT notificationRaised(WatchNotification{connectionId, ref, title, message});
}

} // namespace semscope::model
