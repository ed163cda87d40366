#pragma once

#include "redis/ConnectionSettings.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <functional>
#include <memory>

namespace semscope::redis {

class RedisConnection;

// Finds the master of a Sentinel group and notices when it moves: the topology piece under a
// RedisConnection whose settings name sentinels (redis+sentinel://).
//
// - resolve() asks the sentinels in turn with SENTINEL GET-MASTER-ADDR-BY-NAME; the first that
//   answers with an address wins (and is asked first next time). A sentinel that is down, refuses
//   the password or does not know the master is skipped; when none answers, the error names each
//   one's reason. Whether the address really is the master (a stale sentinel can name a demoted
//   node) is checked by the connection itself with ROLE once it is there.
// - watch() keeps one pub/sub connection to a sentinel, subscribed to +switch-master and
//   +failover-state-send-slaveof-noone and the -failover-abort-* events, moving on to the next
//   sentinel when it drops. failoverStarted(), failoverAborted() and masterSwitched() fire for
//   this group's master only.
//   subscribed() fires each time a sentinel confirms the subscription: a switch may have happened
//   while no sentinel was listened to, so the owner checks the address again then.
//
// Sentinel connections use the data settings' transport and TLS files, the sentinel password, no
// database and a short connect timeout. Callbacks run on the owning thread.
class SentinelResolver : public QObject {
    Q_OBJECT
public:
    struct Address {
        QString host;
        quint16 port = 0;
        QString text() const;
    };
    struct Result {
        bool ok = false;
        Address master;
        QString sentinel; // the sentinel that answered, "host:port"
        QString error;    // when !ok: one line naming each sentinel's failure
    };

    explicit SentinelResolver(const ConnectionSettings &settings, QObject *parent = nullptr);
    ~SentinelResolver() override;

    void resolve(std::function<void(const Result &)> done);
    void watch();
    void stopWatching();
    bool isWatching() const;

Q_SIGNALS:
    void masterSwitched(const semscope::redis::SentinelResolver::Address &from,
                        const semscope::redis::SentinelResolver::Address &to);
    // A sentinel chose a replica to promote (+failover-state-send-slaveof-noone): it sends
    // REPLICAOF NO ONE on its next tick (about 100 ms later). From then on a write to the old
    // master may be lost, so the owner stops writing until masterSwitched().
    void failoverStarted();
    // The sentinels gave up that failover (-failover-abort-*): no switch is coming, the master is
    // the one it was. `reason` is the event's name.
    void failoverAborted(const QString &reason);
    void subscribed();

private:
    struct Lookup;
    ConnectionSettings sentinelSettings(int index) const;
    void askNext(std::shared_ptr<Lookup> lookup);
    void openWatch();

    ConnectionSettings m_settings;
    int m_preferred = 0; // the sentinel that answered last
    std::unique_ptr<RedisConnection> m_watch;
    int m_watchIndex = 0;
    bool m_watching = false;
    std::shared_ptr<bool> m_alive = std::make_shared<bool>(true);
};

} // namespace semscope::redis
