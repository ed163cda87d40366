#include "ClientLivenessWatcher.h"

#include "ConnectionController.h"

#include <QDateTime>

namespace semscope::model {

using core::ClientLiveness;

ClientLivenessWatcher::ClientLivenessWatcher(QObject *parent)
    : QObject(parent) {
    m_timer.setInterval(1000);
    connect(&m_timer, &QTimer::timeout, this, &ClientLivenessWatcher::pollNow);
}

void ClientLivenessWatcher::setController(ConnectionController *controller) {
    if (controller == m_controller)
        return;
    ++m_generation;
    m_controller = controller;
    m_inFlight = false;
    m_reads = 0;
    m_holders.clear();
    m_goneSince.clear();
    m_seenConnected.clear();
    m_goneAtFirstLook.clear();
    publish({});
    if (!controller)
        m_timer.stop();
}

void ClientLivenessWatcher::setHolders(const QList<core::Holder> &holders) {
    m_holders = holders;
    // A holder not asked about yet is asked about now rather than at the next tick; one that left
    // the table loses its answer.
    bool unanswered = false;
    QHash<QString, ClientLiveness> kept;
    for (const core::Holder &h : holders) {
        if (const auto it = m_byHolder.constFind(h.id); it != m_byHolder.cend())
            kept.insert(h.id, *it);
        else
            unanswered = true;
    }
    if (kept.size() != m_byHolder.size())
        publish(kept);
    if (unanswered && m_timer.isActive())
        pollNow();
}

void ClientLivenessWatcher::setIntervalMs(int ms) {
    m_timer.setInterval(std::max(200, ms));
}

void ClientLivenessWatcher::start() {
    m_timer.start();
    pollNow();
}

void ClientLivenessWatcher::stop() {
    m_timer.stop();
}

std::optional<ClientLiveness> ClientLivenessWatcher::livenessOf(const QString &holderId) const {
    const auto it = m_byHolder.constFind(holderId);
    if (it == m_byHolder.cend())
        return std::nullopt;
    return *it;
}

void ClientLivenessWatcher::pollNow() {
    if (!m_controller || m_inFlight || m_holders.isEmpty())
        return;
    m_inFlight = true;
    const quint64 generation = m_generation;
    using Answers = QHash<QString, core::HolderClientLiveness>;
    m_controller->call<Answers>(
        [holders = m_holders, seen = m_seenConnected](core::SemaphoreStore &store,
                                                      core::Callback<Answers> deliver) {
            store.readClientLiveness(holders, seen, std::move(deliver));
        },
        Answers{}, this,
        [this, generation](const Answers &answers) {
            if (generation != m_generation)
                return;
            m_inFlight = false;
            ++m_reads;
            const qint64 now = QDateTime::currentMSecsSinceEpoch();
            QHash<QString, ClientLiveness> out;
            for (auto it = answers.cbegin(); it != answers.cend(); ++it)
                out.insert(it.key(), remember(it->identityKey, it->liveness, now));
            publish(out);
        });
}

ClientLiveness ClientLivenessWatcher::remember(const QString &key, ClientLiveness l, qint64 nowMs) {
    switch (l.state) {
    case ClientLiveness::State::Connected:
        m_seenConnected.insert(key);
        m_goneSince.remove(key);
        m_goneAtFirstLook.remove(key);
        break;
    case ClientLiveness::State::Gone:
        if (!m_goneSince.contains(key)) {
            m_goneSince.insert(key, nowMs);
            // Gone before it was ever seen here: the time is only when semscope first looked.
            if (!m_seenConnected.contains(key))
                m_goneAtFirstLook.insert(key);
        }
        l.goneSinceMs = m_goneSince.value(key);
        l.sinceFirstLook = m_goneAtFirstLook.contains(key);
        break;
    case ClientLiveness::State::Unknown:
        // A read that failed says nothing new: what was remembered stays for the next good read.
        break;
    }
    return l;
}

void ClientLivenessWatcher::publish(QHash<QString, ClientLiveness> byHolder) {
    if (byHolder == m_byHolder)
        return;
    m_byHolder = std::move(byHolder);
    Q_EMIT livenessChanged();
}

} // namespace semscope::model
