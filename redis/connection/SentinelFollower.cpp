#include "SentinelFollower.h"

#include "core/SemaphoreTypes.h"
#include "redis/transport/Logging.h"

namespace semscope::redis {

namespace {

// How many times in a row a connection that does not reconnect by itself asks the sentinels again
// when the node they named is not a master (a sentinel that has not caught up with a failover names
// the demoted node for a moment; one that keeps naming it is wrong, not late).
constexpr int kStaleMasterAttempts = 3;
// Longest a connection waits for +switch-master after a failover started.
constexpr int kFailoverHoldMs = 10000;

} // namespace

SentinelFollower::SentinelFollower(const ConnectionSettings &settings, Link &link, QObject *parent)
    : QObject(parent)
    , m_settings(settings)
    , m_link(link)
    , m_resolver(std::make_unique<SentinelResolver>(settings)) {
    connect(m_resolver.get(), &SentinelResolver::masterSwitched, this, &SentinelFollower::onMasterSwitched);
    connect(m_resolver.get(), &SentinelResolver::subscribed, this, &SentinelFollower::recheckMaster);
    connect(m_resolver.get(), &SentinelResolver::failoverStarted, this, &SentinelFollower::onFailoverStarted);
    connect(m_resolver.get(), &SentinelResolver::failoverAborted, this, &SentinelFollower::onFailoverAborted);
    m_holdTimer.setSingleShot(true);
    connect(&m_holdTimer, &QTimer::timeout, this, &SentinelFollower::endHold);
}

SentinelFollower::~SentinelFollower() = default;

void SentinelFollower::watch() {
    m_resolver->watch();
}

void SentinelFollower::stopWatching() {
    m_resolver->stopWatching();
    m_holding = false;
    m_holdTimer.stop();
}

void SentinelFollower::resolveThenConnect() {
    const quint64 gen = m_link.generation();
    m_resolver->resolve([this, gen](const SentinelResolver::Result &r) {
        if (gen != m_link.generation() || m_link.isDisconnected())
            return; // closed, or failed otherwise meanwhile
        if (!r.ok) {
            m_link.endConnection(r.error);
            return;
        }
        m_master = r.master;
        m_link.connectTo(r);
    });
}

// The sentinels are about to promote a replica: writes to the old master from now on may be lost
// when it is demoted. End the connection (what is in flight fails once, not replayed) and let no
// attempt start until the switch is announced; commands issued meanwhile wait in the queue.
void SentinelFollower::onFailoverStarted() {
    if (m_link.isDisconnected() || m_holding)
        return;
    m_holding = true;
    m_holdTimer.start(kFailoverHoldMs);
    const QString reason =
        core::kFailoverInterruption +
        QStringLiteral("the sentinels are promoting a replica of '%1'; commands in flight were not sent "
                       "again (a write among them may or may not have run on the old master)")
            .arg(m_settings.sentinelMaster);
    const auto guard = m_link.aliveGuard();
    m_link.followSwitch(reason);
    // Not after a callback of a failed command deleted the connection (and this follower).
    if (*guard)
        Q_EMIT failoverStarted();
}

void SentinelFollower::onFailoverAborted(const QString &reason) {
    if (!m_holding)
        return; // not holding: nothing to resume (or said already)
    qCInfo(lcRedisTransport).noquote()
        << m_settings.endpoint() + QStringLiteral(": failover of '%1' aborted (%2): back to the master")
                                       .arg(m_settings.sentinelMaster, reason);
    const auto guard = m_link.aliveGuard();
    endHold();
    if (*guard)
        Q_EMIT failoverAborted(reason);
}

void SentinelFollower::endHold() {
    if (!m_holding)
        return;
    m_holding = false;
    m_holdTimer.stop();
    if (m_link.isReconnecting())
        m_link.attemptNow();
}

// A sentinel says the master moved. The connection to the old one ends now: what is in flight
// fails once with this reason (a write may or may not have run there; nothing is sent again), and
// the next attempt starts at once instead of after the backoff.
void SentinelFollower::onMasterSwitched(const SentinelResolver::Address &from,
                                        const SentinelResolver::Address &to) {
    if (m_link.isDisconnected())
        return;
    if (m_holding) {
        endHold(); // the connection ended when the failover started
        return;
    }
    // Connected or connecting to the new master already (the sentinel named it before the
    // announcement reached us): nothing went to the old one, so nothing is ended or failed.
    if (m_link.currentNode() == to.text() && !m_link.attemptScheduled()) {
        qCDebug(lcRedisTransport).noquote()
            << m_settings.endpoint() << "the sentinels announce" << m_link.currentNode()
            << "as the master: this connection is already there or on its way";
        return;
    }
    const QString reason =
        core::kFailoverInterruption +
        QStringLiteral("the master of '%1' moved from %2 to %3; commands in flight were not "
                       "sent again (a write among them may or may not have run on the old master)")
            .arg(m_settings.sentinelMaster, from.text(), to.text());
    if (!m_link.isReconnecting() || !m_link.attemptScheduled()) {
        const auto guard = m_link.aliveGuard();
        m_link.followSwitch(reason); // the current connection or attempt
        if (!*guard)
            return;
    }
    if (m_link.attemptScheduled())
        m_link.attemptNow();
}

// A switch may have gone by while no sentinel was listened to: compare once more.
void SentinelFollower::recheckMaster() {
    if (!m_link.isReady())
        return;
    const quint64 gen = m_link.generation();
    m_resolver->resolve([this, gen](const SentinelResolver::Result &r) {
        if (gen != m_link.generation() || !r.ok || r.master.text() == m_link.currentNode())
            return;
        onMasterSwitched(m_master, r.master);
    });
}

// Ask the sentinels again, as after a failover they announce, even on a connection that does not
// reconnect by itself - but only a few times in a row on such a connection, then give up saying so.
void SentinelFollower::onStaleMaster(const QString &reason) {
    ++m_staleMasterAttempts;
    if (m_settings.autoReconnect) {
        m_link.endConnection(reason + QStringLiteral("; asking the sentinels again"));
    } else if (m_staleMasterAttempts < kStaleMasterAttempts) {
        m_link.followSwitch(reason + QStringLiteral("; asking the sentinels again"));
    } else {
        const int attempts = m_staleMasterAttempts;
        m_staleMasterAttempts = 0;
        m_link.endConnection(reason + QStringLiteral("; the sentinels named a node that is not the master "
                                                     "%1 times in a row")
                                          .arg(attempts));
    }
}

} // namespace semscope::redis
