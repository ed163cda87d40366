#include "RedisSemaphoreStore.h"

#include "ClientLiveness.h"
#include "RawKeyReader.h"
#include "RedisDiscovery.h"
#include "ReplicaConfirmation.h"
#include "WaitingAcquires.h"
#include "core/SnapshotRules.h"
#include "kinds/BuiltinKinds.h"
#include "kinds/KindReplies.h"
#include "kinds/WaitQueueKind.h"
#include "topology/HashSlot.h"
#include "topology/TopologyEventSource.h"

#include <QPointer>
#include <QRandomGenerator>
#include <algorithm>

namespace semscope::redis {

using core::AcquireResult;

RedisSemaphoreStore::RedisSemaphoreStore(ConnectionSettings settings, QObject *parent)
    : RedisSemaphoreStore(std::move(settings), builtinRedisKinds(), parent) {}

RedisSemaphoreStore::RedisSemaphoreStore(ConnectionSettings settings,
                                         std::vector<std::unique_ptr<RedisKind>> kinds, QObject *parent)
    : core::SemaphoreStore(parent)
    , m_conn(std::make_unique<topology::RedisTopology>(std::move(settings)))
    , m_kinds(std::move(kinds)) {
    // A child, so that it follows the store to another thread.
    m_waiting = new WaitingAcquires(m_conn->settings(),
                                    QByteArray::number(QRandomGenerator::global()->generate64(), 36), this);
    connect(&m_conn->entry(), &RedisConnection::connected, this,
            [this] { Q_EMIT connectionStateChanged(QStringLiteral("connected")); });
    connect(&m_conn->entry(), &RedisConnection::connectionLost, this, [this](const QString &reason) {
        Q_EMIT connectionStateChanged(QStringLiteral("lost: ") + reason);
    });
    connect(&m_conn->entry(), &RedisConnection::reconnectScheduled, this, [this](int delayMs) {
        Q_EMIT connectionStateChanged(
            QStringLiteral("reconnecting in %1 s")
                .arg(QString::number(delayMs / 1000.0, 'f', delayMs < 1000 ? 1 : 0)));
    });
    // Failovers and map changes reach whoever holds the store (the GUI's event lists, the pages).
    auto *events = new topology::TopologyEventSource(*m_conn, this);
    connect(events, &topology::TopologyEventSource::event, this, &core::SemaphoreStore::topologyEvent);
    m_conn->open();
}

std::unique_ptr<RedisSemaphoreStore> RedisSemaphoreStore::sharingWaitsInThread(ConnectionSettings settings) {
    // Stores of one thread only: the object lives (and its timers and socket run) in that thread.
    thread_local QHash<QString, std::weak_ptr<WaitingAcquires>> shared;
    const QString key = settings.endpoint() + QLatin1Char('|') + settings.user + QLatin1Char('|') +
                        QString::number(settings.db);
    std::shared_ptr<WaitingAcquires> waiting = shared.value(key).lock();
    if (!waiting) {
        waiting = std::make_shared<WaitingAcquires>(
            settings, QByteArray::number(QRandomGenerator::global()->generate64(), 36));
        shared.insert(key, waiting);
    }
    auto store = std::make_unique<RedisSemaphoreStore>(std::move(settings));
    // The store's own (still idle: nothing was asked of it yet) goes; the shared one takes its place.
    delete store->m_waiting;
    store->m_waiting = waiting.get();
    store->m_sharedWaiting = std::move(waiting);
    return store;
}

RedisSemaphoreStore::~RedisSemaphoreStore() {
    // Connections may answer their pending callbacks while they close; none of them may reach a
    // half-destroyed store or a waiter's caller. A shared object keeps the other stores' waiters.
    if (m_sharedWaiting)
        m_waiting->forget(*m_conn);
    else
        m_waiting->shutDown();
    m_conn.reset();
}

QString RedisSemaphoreStore::endpoint() const {
    return m_conn->entry().endpoint();
}

QString RedisSemaphoreStore::locationOf(const core::SemaphoreRef &ref) const {
    const RedisKind *kind = kindFor(ref.kind);
    const QList<QByteArray> keys = kind ? kind->keysOf(ref.name) : QList<QByteArray>{};
    return m_conn->nodeOfKey(keys.isEmpty() ? ref.name.toUtf8() : keys.first());
}

RedisKind *RedisSemaphoreStore::kindFor(core::Kind kind) const {
    for (const auto &k : m_kinds) {
        if (k->kind() == kind)
            return k.get();
    }
    return nullptr;
}

QString RedisSemaphoreStore::noKindMessage(core::Kind kind) const {
    return QStringLiteral("kind %1 is not a Redis layout this store knows").arg(core::kindName(kind));
}

void RedisSemaphoreStore::whenSlotsChecked(RedisKind *kind, const QString &name,
                                           std::function<void(const QString &split)> go) {
    const QList<QByteArray> keys = kind->keysOf(name);
    const QList<int> keySlots = topology::distinctSlots(keys);
    using Mode = topology::RedisTopology::Mode;
    if (keySlots.size() <= 1 || m_conn->mode() == Mode::Standalone) {
        go({});
        return;
    }
    auto answer = [this, keySlots, go] {
        if (m_conn->mode() != Mode::Cluster) {
            go({});
            return;
        }
        QStringList slotNames;
        QStringList masters;
        for (int s : keySlots) {
            slotNames << QString::number(s);
            const QString m = m_conn->nodeOfSlot(s);
            if (!masters.contains(m))
                masters << m;
        }
        go(masters.size() > 1
               ? QStringLiteral("keys in slots %1 on different masters (%2): this read is not atomic")
                     .arg(slotNames.join(QStringLiteral(", ")), masters.join(QStringLiteral(", ")))
               : QStringLiteral("keys in slots %1 (all on %2): this read is not atomic")
                     .arg(slotNames.join(QStringLiteral(", ")), masters.join(QStringLiteral(", "))));
    };
    if (m_conn->mode() == Mode::Cluster && !m_conn->clusterMap().isEmpty()) {
        answer();
        return;
    }
    m_conn->detect([answer](const QString &) { answer(); });
}

QString RedisSemaphoreStore::writeRefusal(const QString &split) {
    QString where = split;
    where.remove(QStringLiteral(": this read is not atomic"));
    return QStringLiteral("refused: this layout keeps its %1 of a Redis Cluster; no atomic script can "
                          "span slots (its own clients cannot update it atomically there either), so "
                          "semscope does not write it")
        .arg(where);
}

QString RedisSemaphoreStore::splitLayoutAdvice() {
    // A Redis Cluster runs a script on one node only, and only on keys of one slot: a check of the
    // holder on one master and a change on another cannot be one step, so there is no safe
    // cross-master force-release to offer
    // (https://redis.io/docs/latest/operate/oss_and_stack/reference/cluster-spec/).
    return tr("What you can do: reads still work (key by key). The service that uses this semaphore "
              "releases its own slots with its own client; a holder that is stuck goes when its owner "
              "releases it or an administrator removes its entry and returns its slot by hand "
              "(redis-cli -c, one master after the other: two steps, not atomic, so check that "
              "nothing changed between them). semscope-cli refuses the same writes, and semscope "
              "offers no cross-master force-release: no single step can check a holder on one master "
              "and free its slot on another.");
}

void RedisSemaphoreStore::discover(const core::DiscoverRequest &request, core::Cancellation cancel,
                                   core::Callback<core::DiscoverProgress> progress,
                                   core::Callback<core::DiscoverResult> done) {
    discoverSemaphores(*m_conn, request, std::move(cancel), std::move(progress), std::move(done));
}

void RedisSemaphoreStore::snapshot(const core::SemaphoreRef &ref, core::Callback<core::Snapshot> done) {
    RedisKind *kind = kindFor(ref.kind);
    if (!kind) {
        core::Snapshot snap;
        snap.ref = ref;
        snap.warnings << noKindMessage(ref.kind);
        done(snap);
        return;
    }
    withReads([this, kind, ref, done = std::move(done)](RedisCommands &reads, bool fromReplicas) {
        whenSlotsChecked(kind, ref.name, [this, &reads, fromReplicas, kind, ref, done](const QString &split) {
            auto placed = [this, keys = kind->keysOf(ref.name), profile = ref.profile, fromReplicas,
                           done](core::Snapshot snap) {
                core::applyProfileLimit(snap, profile);
                const int slot = keys.isEmpty() ? 0 : topology::hashSlot(keys.first());
                snap.node = m_conn->nodeOfSlot(slot);
                if (m_conn->mode() == topology::RedisTopology::Mode::Cluster)
                    snap.slot = slot;
                if (fromReplicas)
                    snap.readFrom = m_conn->readNodeOfSlot(slot);
                done(snap);
            };
            if (split.isEmpty()) {
                kind->snapshot(reads, ref, placed);
                return;
            }
            kind->snapshotKeyByKey(reads, ref, [placed, split](core::Snapshot snap) {
                snap.warnings.prepend(split);
                snap.writeRefusal = writeRefusal(split); // what every write would answer, said up front
                snap.writeRefusalAdvice = splitLayoutAdvice();
                placed(snap);
            });
        });
    });
}

void RedisSemaphoreStore::withReads(std::function<void(RedisCommands &reads, bool fromReplicas)> go) {
    using Mode = topology::RedisTopology::Mode;
    if (!m_conn->settings().discoverFromReplicas || m_conn->mode() == Mode::Standalone) {
        go(*m_conn, false);
        return;
    }
    if (m_conn->mode() == Mode::Cluster && m_conn->readNodesChosen()) {
        go(m_conn->replicaReads(), true);
        return;
    }
    // The mode first, then (Cluster) one replica per master; both are asked once and kept.
    QPointer<topology::RedisTopology> guard(m_conn.get());
    m_conn->detect([guard, go](const QString &) {
        if (!guard)
            return;
        if (guard->mode() != Mode::Cluster) {
            go(*guard, false);
            return;
        }
        guard->chooseReadNodes([guard, go](const QList<topology::RedisTopology::ReadNode> &) {
            if (guard)
                go(guard->replicaReads(), true);
        });
    });
}

bool RedisSemaphoreStore::watchReleases(const core::SemaphoreRef &ref, std::function<void()> onRelease) {
    const RedisKind *kind = kindFor(ref.kind);
    const QByteArray channel = kind ? kind->releaseChannel(ref.name) : QByteArray();
    if (channel.isEmpty())
        return false;
    // Whatever a message says (a count, the ids that may take a slot, nothing), it follows a release.
    m_waiting->pubsub().subscribe(channel, [onRelease = std::move(onRelease)](const QByteArray &) {
        if (onRelease)
            onRelease();
    });
    return true;
}

void RedisSemaphoreStore::unwatchReleases(const core::SemaphoreRef &ref) {
    if (const RedisKind *kind = kindFor(ref.kind); kind && !kind->releaseChannel(ref.name).isEmpty())
        m_waiting->pubsub().unsubscribe(kind->releaseChannel(ref.name));
}

void RedisSemaphoreStore::doAcquire(const core::SemaphoreRef &ref, const core::AcquireRequest &request,
                                    core::Cancellation cancel, core::Callback<core::AcquireResult> done) {
    RedisKind *kind = kindFor(ref.kind);
    if (!kind) {
        AcquireResult refused;
        refused.error = noKindMessage(ref.kind);
        done(refused);
        return;
    }
    core::AcquireRequest req = request;
    if (req.holder.isEmpty())
        req.holder = kinds::makeHolderId();
    if (!m_slotsChecked.contains(ref.name) && topology::distinctSlots(kind->keysOf(ref.name)).size() > 1) {
        // Checked once per semaphore (a load test acquires thousands of times a second).
        whenSlotsChecked(
            kind, ref.name,
            [this, ref, req, cancel = std::move(cancel), done = std::move(done)](const QString &split) {
                if (!split.isEmpty()) {
                    AcquireResult result;
                    result.error = writeRefusal(split);
                    done(result);
                    return;
                }
                m_slotsChecked.insert(ref.name);
                acquire(ref, req, cancel, done);
            });
        return;
    }
    if (req.replicas > 0)
        done = confirmingReplicated(*this, *m_conn, *kind, req, std::move(done));
    if (req.waitMs <= 0) {
        kind->tryAcquire(*m_conn, ref, req, std::move(done));
        return;
    }
    m_waiting->wait(*m_conn, kind, ref, req, std::move(cancel), std::move(done));
}

void RedisSemaphoreStore::doRefresh(const core::Grant &grant, qint64 ttlMs,
                                    core::Callback<core::RefreshResult> done) {
    RedisKind *kind = kindFor(grant.ref.kind);
    if (!kind) {
        done(core::RefreshResult{core::RefreshResult::Status::Error, std::nullopt,
                                 noKindMessage(grant.ref.kind)});
        return;
    }
    if (grant.details.value(QStringLiteral("replicas")).toInt() > 0)
        done = confirmingReplicated(*this, *m_conn, *kind, grant, std::move(done));
    whenSlotsChecked(kind, grant.ref.name,
                     [this, kind, grant, ttlMs, done = std::move(done)](const QString &split) {
                         if (!split.isEmpty())
                             done(core::RefreshResult{core::RefreshResult::Status::Error, std::nullopt,
                                                      writeRefusal(split)});
                         else
                             kind->refresh(*m_conn, grant, ttlMs, done);
                     });
}

void RedisSemaphoreStore::doRelease(const core::Grant &grant, core::Callback<core::ReleaseResult> done) {
    RedisKind *kind = kindFor(grant.ref.kind);
    if (!kind) {
        done(core::ReleaseResult{core::ReleaseResult::Status::Error, noKindMessage(grant.ref.kind)});
        return;
    }
    auto *queue = dynamic_cast<WaitQueueKind *>(kind);
    if (!queue) {
        whenSlotsChecked(
            kind, grant.ref.name, [this, kind, grant, done = std::move(done)](const QString &split) {
                if (!split.isEmpty())
                    done(core::ReleaseResult{core::ReleaseResult::Status::Error, writeRefusal(split)});
                else
                    kind->release(*m_conn, grant, done);
            });
        return;
    }
    // A slot freed for one of this store's own waiters (or of a store sharing its waiting acquires:
    // sharingWaitsInThread) comes back in the reply: the waiter is served from here, with nothing
    // published. (Waiters of stores in other threads are told through pub/sub: handing them over
    // between threads cost the load tester more CPU per pair than the PUBLISH saved the server.)
    queue->releaseHandingOff(
        *m_conn, grant, m_waiting->notifyTag(),
        [this, name = grant.ref.name, done = std::move(done)](const core::ReleaseResult &r,
                                                              const QList<WaitQueueKind::HandOff> &handOffs) {
            for (const WaitQueueKind::HandOff &h : handOffs)
                m_waiting->deliverHandOff(name, h);
            done(r);
        });
}

void RedisSemaphoreStore::doForceRelease(const core::SemaphoreRef &ref, const core::Holder &observed,
                                         std::optional<qint64> observedVersion,
                                         core::Callback<core::ForceReleaseResult> done) {
    RedisKind *kind = kindFor(ref.kind);
    if (!kind) {
        done(core::ForceReleaseResult{core::ForceReleaseResult::Status::Error, noKindMessage(ref.kind)});
        return;
    }
    whenSlotsChecked(
        kind, ref.name,
        [this, kind, ref, observed, observedVersion, done = std::move(done)](const QString &split) {
            if (!split.isEmpty())
                done(core::ForceReleaseResult{core::ForceReleaseResult::Status::Error, writeRefusal(split)});
            else
                kind->forceRelease(*m_conn, ref, observed, observedVersion, done);
        });
}

void RedisSemaphoreStore::doPurgeExpired(const core::SemaphoreRef &ref,
                                         core::Callback<core::MaintenanceResult> done) {
    RedisKind *kind = kindFor(ref.kind);
    if (!kind) {
        done(core::MaintenanceResult{false, 0, noKindMessage(ref.kind)});
        return;
    }
    whenSlotsChecked(kind, ref.name, [this, kind, ref, done = std::move(done)](const QString &split) {
        if (!split.isEmpty())
            done(core::MaintenanceResult{false, 0, writeRefusal(split)});
        else
            kind->purgeExpired(*m_conn, ref, done);
    });
}

void RedisSemaphoreStore::doRepair(const core::SemaphoreRef &ref,
                                   core::Callback<core::MaintenanceResult> done) {
    RedisKind *kind = kindFor(ref.kind);
    if (!kind) {
        done(core::MaintenanceResult{false, 0, noKindMessage(ref.kind)});
        return;
    }
    whenSlotsChecked(kind, ref.name, [this, kind, ref, done = std::move(done)](const QString &split) {
        if (!split.isEmpty())
            done(core::MaintenanceResult{false, 0, writeRefusal(split)});
        else
            kind->repair(*m_conn, ref, done);
    });
}

void RedisSemaphoreStore::doSetLimit(const core::SemaphoreRef &ref, qint64 limit,
                                     core::Callback<core::MaintenanceResult> done) {
    RedisKind *kind = kindFor(ref.kind);
    if (!kind) {
        done(core::MaintenanceResult{false, 0, noKindMessage(ref.kind)});
        return;
    }
    whenSlotsChecked(kind, ref.name, [this, kind, ref, limit, done = std::move(done)](const QString &split) {
        if (!split.isEmpty())
            done(core::MaintenanceResult{false, 0, writeRefusal(split)});
        else
            kind->setLimit(*m_conn, ref, limit, done);
    });
}

void RedisSemaphoreStore::readRawKeys(const core::SemaphoreRef &ref,
                                      std::function<void(core::RawKeys)> done) {
    snapshot(ref, [this, done](core::Snapshot s) {
        // Routed by the key in each command (its second argument), like every other command.
        RawKeyReader::Send send = [this](const QList<QByteArray> &args, RawKeyReader::ReplyCallback cb) {
            m_conn->command(args, std::move(cb));
        };
        RawKeyReader::read(send, s.keys, done);
    });
}

void RedisSemaphoreStore::readClientLiveness(
    const QList<core::Holder> &holders, const QSet<QString> &seenConnected,
    core::Callback<QHash<QString, core::HolderClientLiveness>> done) {
    m_liveness->read(*m_conn, holders, seenConnected, std::move(done));
}

} // namespace semscope::redis
