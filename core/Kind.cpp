#include "Kind.h"

#include <array>

namespace semscope::core {

namespace {
struct KindInfo {
    Kind kind;
    const char *name;
    Backend backend;
    bool writable;
    const char *description;
};

constexpr std::array kKinds{
    KindInfo{Kind::Slots, "slots", Backend::Redis, true,
             "Lua slot semaphore: a LIST of free slot numbers and a HASH holder->slot. No TTL."},
    KindInfo{Kind::Fair, "fair", Backend::Redis, true,
             "Fair semaphore (Redis in Action): ZSET of acquire times, ZSET of counters, a counter key."},
    KindInfo{Kind::Zset, "zset", Backend::Redis, true, "Expiring ZSET: holder -> expiry time."},
    KindInfo{Kind::Lock, "lock", Backend::Redis, true, "Mutex: SET key token NX PX."},
    KindInfo{Kind::Leased, "leased", Backend::Redis, true,
             "semscope's leased semaphore: hash-tagged keys, stored limit, fencing tokens, FIFO waiters."},
    KindInfo{
        Kind::Consul, "consul", Backend::Consul, true,
        "Consul semaphore: <prefix>/.lock JSON with the limit and holders, one contender key per session."},
    KindInfo{Kind::ConsulMutex, "consul-mutex", Backend::Consul, false,
             "Consul mutex (consul lock -n 1): <prefix>/.lock acquired by one session."},
    KindInfo{Kind::RedissonSemaphore, "redisson-semaphore", Backend::Redis, false,
             "Redisson RSemaphore: a counter of available permits; holders are not recorded."},
    KindInfo{Kind::RedissonPermitExpirable, "redisson-permit", Backend::Redis, false,
             "Redisson RPermitExpirableSemaphore: available permits plus a {name}:timeout ZSET of leases."},
    KindInfo{Kind::RedissonLock, "redisson-lock", Backend::Redis, false,
             "Redisson RLock: HASH client-uuid:thread -> hold count, with a key TTL."},
    KindInfo{Kind::NodeMutex, "node-mutex", Backend::Redis, false,
             "node redis-semaphore Mutex: mutex:<key> STRING = identifier, with PX."},
    KindInfo{Kind::NodeSemaphore, "node-semaphore", Backend::Redis, false,
             "node redis-semaphore Semaphore: semaphore:<key> ZSET identifier -> last refresh (ms)."},
};

const KindInfo &info(Kind kind) {
    for (const auto &k : kKinds) {
        if (k.kind == kind)
            return k;
    }
    return kKinds.front(); // unreachable: every enumerator is in the table
}
} // namespace

QString kindName(Kind kind) {
    return QString::fromLatin1(info(kind).name);
}

std::optional<Kind> kindFromName(const QString &name) {
    for (const auto &k : kKinds) {
        if (name.compare(QLatin1String(k.name), Qt::CaseInsensitive) == 0)
            return k.kind;
    }
    return std::nullopt;
}

QStringList allKindNames() {
    QStringList names;
    for (const auto &k : kKinds)
        names << QString::fromLatin1(k.name);
    return names;
}

Backend backendOf(Kind kind) {
    return info(kind).backend;
}
bool kindIsWritable(Kind kind) {
    return info(kind).writable;
}
QString kindDescription(Kind kind) {
    return QString::fromLatin1(info(kind).description);
}

LimitStorage limitStorage(Kind kind) {
    switch (kind) {
    case Kind::Slots:                   // HLEN + LLEN once initialised
    case Kind::Leased:                  // {N}:meta limit
    case Kind::Consul:                  // .lock Limit
    case Kind::RedissonPermitExpirable: // GET N + ZCARD {N}:timeout (semscope only reads it)
        return LimitStorage::Stored;
    case Kind::Fair:
    case Kind::Zset:
    case Kind::NodeSemaphore:
    case Kind::RedissonSemaphore: // stores available permits only, never the capacity
        return LimitStorage::Profile;
    case Kind::Lock:
    case Kind::ConsulMutex:
    case Kind::RedissonLock:
    case Kind::NodeMutex:
        return LimitStorage::Fixed;
    }
    return LimitStorage::Profile;
}

} // namespace semscope::core
