#pragma once

#include <QString>
#include <QStringList>
#include <optional>

namespace semscope::core {

// Every semaphore layout semscope can read. The first five are written by semscope's own core;
// the rest are other libraries' layouts, shown read-only with force-release where that is safe.
enum class Kind {
    Slots,                   // R|list free slot numbers + R|map holder->slot (Lua slot semaphore)
    Fair,                    // Redis in Action fair semaphore: S, S:owner, S:counter
    Zset,                    // expiring ZSET holder->expiry
    Lock,                    // SET key token NX PX
    Leased,                  // semscope's own: {N}:holders, {N}:meta, {N}:owners
    Consul,                  // Consul semaphore: <prefix>/.lock + contender keys
    ConsulMutex,             // `consul lock -n 1` mutex on <prefix>/.lock
    RedissonSemaphore,       // Redisson RSemaphore: STRING of available permits
    RedissonPermitExpirable, // Redisson RPermitExpirableSemaphore: STRING + {N}:timeout ZSET
    RedissonLock,            // Redisson RLock: HASH uuid:thread -> count
    NodeMutex,               // node redis-semaphore `mutex:<key>`
    NodeSemaphore,           // node redis-semaphore `semaphore:<key>` ZSET id->refresh ms
};

enum class Backend { Redis, Consul };

// Where a kind's limit lives, which decides what "set limit" means for it.
enum class LimitStorage {
    Stored,  // in the semaphore's own keys: set limit rewrites them atomically (slots, leased, consul)
    Profile, // nowhere in the server: only semscope's profile knows it (fair, zset, node-semaphore,
             // Redisson RSemaphore's capacity)
    Fixed,   // a mutex: always 1
};

QString kindName(Kind kind);
std::optional<Kind> kindFromName(const QString &name);
QStringList allKindNames();
Backend backendOf(Kind kind);
// True for the kinds semscope's core can acquire, refresh and release.
bool kindIsWritable(Kind kind);
LimitStorage limitStorage(Kind kind);
// A sentence an operator can read in a tooltip or `--help`.
QString kindDescription(Kind kind);

} // namespace semscope::core
