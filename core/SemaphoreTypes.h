#pragma once

#include "Kind.h"

#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QVariantMap>
#include <optional>

namespace semscope::core {

// How ZSET scores are to be read for layouts that do not say (the README's
// "Semaphore layouts semscope reads and operates" says how each is decided).
enum class ScoreUnit { Auto, Seconds, Milliseconds };

// Operator-supplied facts about a semaphore that its layout does not store (limit of `fair`/`zset`,
// the timeout of `fair`). Where each value came from is kept per value: true when semscope guessed
// it rather than a person entered it (one flag for all made a guessed timeout mark the operator's
// limit as guessed).
struct SemaphoreProfile {
    std::optional<qint64> limit;
    std::optional<qint64> timeoutMs;
    ScoreUnit scoreUnit = ScoreUnit::Auto;
    bool inferred = false;        // the limit was guessed (what limit_source reports)
    bool timeoutInferred = false; // the timeout was guessed
    bool unitInferred = false;    // the score unit was guessed
    // `fair`: the key of the outer lock its clients hold around their acquire (Redis in Action
    // listing 6.17). Empty: both names in use, `lock:<name>` (the book) and `<name>lock` (seed 001).
    QString outerLockKey;

    bool anyInferred() const { return inferred || timeoutInferred || unitInferred; }
};

// Identifies one semaphore on one connection.
struct SemaphoreRef {
    Kind kind = Kind::Leased;
    QString name; // base name (Redis) or KV prefix (Consul), exactly as the layout uses it
    SemaphoreProfile profile;

    bool operator==(const SemaphoreRef &o) const { return kind == o.kind && name == o.name; }
};

enum class HolderState {
    Live,           // holds a slot and its lease (if any) is running
    ExpiredPresent, // lease ran out but the record is still there (nobody purged it yet)
    Stale,          // recorded as holder but its owner is provably gone (Consul session gone) or too old
    OverLimit,      // recorded as holder beyond the limit (rank >= limit, or more holders than slots)
    Waiting,        // contender that does not hold a slot (Consul waiter, fair loser)
    Orphan,         // leftover record that belongs to no one (Consul contender key without session)
};

QString holderStateName(HolderState state);
QString holderStateDescription(HolderState state);

struct Holder {
    QString id;       // printable id (binary ids shown as hex)
    QByteArray rawId; // exact bytes stored in the layout; force-release compares these
    std::optional<qint64> slot;
    std::optional<qint64> rank;
    std::optional<qint64> token; // counter / fencing token / Consul ModifyIndex
    std::optional<qint64> acquiredAtMs;
    std::optional<qint64> expiresAtMs; // absolute, server clock
    std::optional<qint64> firstSeenMs; // when semscope first observed this holder (client clock)
    // Permits this holder takes: node redis-semaphore's MultiSemaphore records one acquisition of k
    // permits as k members `id_0 .. id_{k-1}`, shown as one holder with permits = k.
    qint64 permits = 1;
    HolderState state = HolderState::Live;
    QVariantMap details; // kind-specific: Consul session name/node/behavior/checks, hold count, ...

    // Whether it takes up a slot (its permits): everyone listed but waiters and leftover entries
    // that belong to no one. Only these count as used, expire into free room or show in charts.
    bool occupiesSlot() const { return state != HolderState::Waiting && state != HolderState::Orphan; }

    // For a waiter in a layout that keeps a queue (its rank is its place in it): 1 for the next to
    // be served. Unset for holders and for waiters in no particular order.
    std::optional<qint64> placeInLine() const {
        if (rank && !occupiesSlot())
            return *rank + 1;
        return std::nullopt;
    }

    std::optional<qint64> ttlMs(qint64 nowMs) const {
        if (!expiresAtMs)
            return std::nullopt;
        return *expiresAtMs - nowMs;
    }
};

enum class LimitSource { Stored, Profile, Inferred, Unknown };
QString limitSourceName(LimitSource source);

struct Snapshot {
    SemaphoreRef ref;
    std::optional<qint64> limit;
    LimitSource limitSource = LimitSource::Unknown;
    QList<Holder> holders;         // holders and, after them, waiters/orphans (see Holder::state)
    QList<qint64> freeSlots;       // `slots` only
    std::optional<qint64> counter; // fencing counter / RiA counter / Consul LockIndex
    std::optional<qint64> version; // value compared by compare-and-act (Consul ModifyIndex)
    qint64 serverNowMs = 0;        // "now" read in the same consistent read
    QStringList keys;              // the keys (or KV paths) the layout is made of
    QStringList warnings;          // anything odd; shown on the semaphore, never fatal
    QStringList notes;             // facts worth a tooltip that are not problems (inferred limit, ...)
    QVariantMap details;           // kind-specific extras (dialect, flags, available permits, ...)
    QString node;                  // Redis: "host:port" of the master that answered; empty for Consul
    int slot = -1;                 // Redis Cluster: hash slot of its first key; -1 elsewhere
    QString readFrom;              // Redis Cluster read from replicas: "host:port (replica)"; else empty
    // The answer every write of this semaphore gets from the store as things stand ("refused: this
    // layout keeps its keys in slots … on different masters …"), so a caller can say so before the
    // operator starts one; empty when the store would try the write.
    QString writeRefusal;
    // What an operator can still do while `writeRefusal` stands; empty with it.
    QString writeRefusalAdvice;

    // Permits occupied right now by holders (live, expired-but-present, stale, over-limit); a
    // multi-permit holder counts with its permits.
    qint64 usedCount() const;
    std::optional<qint64> soonestExpiryMs() const; // of the holders that take up a slot
    qint64 countInState(HolderState state) const;
};

// What a successful acquire hands back: everything needed to refresh and release it later.
struct Grant {
    SemaphoreRef ref;
    QString holder;
    QByteArray rawHolder;
    std::optional<qint64> slot;
    std::optional<qint64> rank;
    std::optional<qint64> token;
    std::optional<qint64> expiresAtMs;
    QVariantMap details; // kind-specific state a release needs (Consul session id, ...)

    // What the store could not do as asked and the operator must be told wherever the grant is shown
    // (no lease kept, a limit not used, a lease shortened): sentences, in details["warnings"].
    QStringList warnings() const { return details.value(QStringLiteral("warnings")).toStringList(); }
};

struct AcquireRequest {
    QString holder; // empty: the store makes a unique id
    qint64 ttlMs = 30000;
    // The operator asked for ttlMs (semscope-cli --ttl, a TTL typed in the acquire dialog) rather than
    // leaving the default. A store never holds a slot longer than such a lease: where the layout
    // would keep it longer (a layout without leases, a shared timeout above it) it refuses and takes
    // nothing, saying why and what it can do instead; where the lease comes out shorter it grants and
    // says so in the grant's warnings. With the default, it grants whatever lease the layout keeps
    // and says so in the warnings when that is none.
    bool ttlGiven = false;
    qint64 waitMs = 0; // 0: try once; >0: wait up to this long for a slot
    // Added for the load tester: how far this client's clock is off. Only layouts whose scores come
    // from the client's clock (the seed-faithful training scenarios) use it; atomic kinds ignore it.
    qint64 clientClockSkewMs = 0;
    // Replica-acknowledged acquire (Redis): the grant counts only once this many replicas
    // acknowledged it (WAIT) within replicaTimeoutMs; otherwise it is released again and the
    // acquire fails with the reason. The grant's refreshes wait the same way. 0: do not wait.
    int replicas = 0;
    qint64 replicaTimeoutMs = 1000;
};

// Stores put these words in the error of an operation cut off by a failover of their server (a
// Sentinel switching masters): the operation may or may not have taken effect, and it was not sent
// again. The load tester counts such operations apart from failures.
inline const QString kFailoverInterruption = QStringLiteral("failover: ");
inline bool isFailoverInterruption(const QString &error) {
    return error.contains(kFailoverInterruption);
}

// A replica-acknowledged acquire (AcquireRequest::replicas) whose grant fewer replicas acknowledged in
// time, and that was released again: "not replicated to N replicas within T ms (acknowledged by K):
// released". Not a failure of the store but the price of the option; the load tester counts these
// refused grants apart. (A grant whose release failed too is an error: it still stands.)
inline bool isReplicationRefusal(const QString &error) {
    return error.startsWith(QLatin1String("not replicated to ")) &&
           error.endsWith(QLatin1String(": released"));
}

struct AcquireResult {
    enum class Status { Granted, Busy, Error };
    Status status = Status::Error;
    Grant grant;           // Granted
    QList<Holder> holders; // Busy: who holds the slots
    std::optional<qint64> earliestExpiryMs;
    QString error;    // Error: one line, names what failed
    int attempts = 0; // acquire attempts made (for waiting: at most one per wake-up)
    // Busy: how long (ms) until a retry can first succeed without anybody releasing (the lease
    // expiry that would make room for this caller); unset when the layout cannot tell. Lets a
    // waiting acquire sleep instead of polling.
    std::optional<qint64> retryAfterMs;
    // Busy, layouts with a waiter queue: this caller's place in it (0 = next).
    std::optional<qint64> queuePosition;
};

struct RefreshResult {
    enum class Status { Ok, Lost, Error };
    Status status = Status::Error;
    std::optional<qint64> expiresAtMs;
    QString error;
    QStringList warnings = {}; // as Grant::warnings(): what the store could not do as asked (a shorter lease)
};

struct ReleaseResult {
    enum class Status { Ok, NotHeld, Error };
    Status status = Status::Error;
    QString error;
};

// Force-release is compare-and-act on what the operator saw.
struct ForceReleaseResult {
    enum class Status { Released, Changed, Gone, Error };
    Status status = Status::Error;
    QString message; // what changed / the error
};
QString forceReleaseStatusName(ForceReleaseResult::Status status);

// Generic result of maintenance operations (purge, repair, set limit, destroy, invalidate).
struct MaintenanceResult {
    bool ok = false;
    qint64 affected = 0; // holders purged, slots repaired, ...
    QString message;
};

} // namespace semscope::core

Q_DECLARE_METATYPE(semscope::core::Snapshot)
Q_DECLARE_METATYPE(semscope::core::Grant)
