#pragma once

#include "core/SemaphoreStore.h"
#include "core/SemaphoreTypes.h"
#include "kinds/ScoreReading.h"

#include <QByteArray>
#include <QList>
#include <optional>

// Pure rules that turn key names, types and small samples into semaphores (the README's
// "Semaphore layouts semscope reads and operates"). The key names and types come from the layouts
// the kinds use (kinds/KeyLayouts.h). No network here: discovery feeds in what it read.
namespace semscope::redis {

// What discovery read about one key. Only `key` and `type` are known after the SCAN phase; the rest
// is filled by the sampling phase (small, bounded reads).
struct KeyFingerprint {
    QByteArray key;
    QByteArray type;           // TYPE reply: string, list, hash, zset, set, stream, none
    qint64 length = -1;        // STRLEN / LLEN / HLEN / ZCARD; -1 unknown
    qint64 pttl = -2;          // PTTL; -1 no expiry, -2 gone/unknown
    QByteArray value;          // string: the first bytes (GETRANGE 0 63)
    QList<QByteArray> members; // zset members, hash fields, list items (a sample)
    QList<QByteArray> values;  // zset scores, hash values (parallel to `members`)
    bool channelSeen = false;  // a Redisson channel for this key was seen (PUBSUB [SHARD]CHANNELS)
    // The operator's profile names this key as a semaphore of this kind (DiscoverRequest::known).
    std::optional<core::Kind> namedKind;
};

// How a key takes part in a layout, decided from its name (and type) alone.
struct KeyRole {
    QByteArray base; // name of the semaphore this key would belong to
    bool candidate = false;
};

// First phase: may this key belong to a semaphore? Cheap enough to run on every scanned key. Keys
// that are not candidates are forgotten, so memory stays bounded on a keyspace of millions.
KeyRole keyRole(const QByteArray &key, const QByteArray &type);

// The group a key is sampled and recognized with: `role.base` (its keyRole()), except that the fair
// semaphore's acquire lock `lock:S` joins S (recognition also keeps it under its own name, as a
// lock of its own).
QByteArray groupBase(const QByteArray &key, const KeyRole &role);

// Whether the key's name holds a whole word that names a semaphore or a lock ("lock", "mutex",
// "semaphore", "sem", "permit", "lease", their plurals, "redlock"), words being runs of letters
// and digits: `lock:orders`, `semaphore:payments-legacy`, `billing_mutex`, not `clock`. Such a key
// is listed even when its type fits no layout, with a warning (a LIST where a ZSET belongs).
bool semaphoreLikeName(QByteArrayView key);

// Keys that must be sampled with `key` although SCAN may not have returned them in the same batch
// (Redisson's `N` next to `{N}:timeout`, the fair `S` next to `S:owner`).
QList<QByteArray> companionKeys(const QByteArray &key, const QByteArray &type);

// Second phase: group sampled keys into semaphores. Every group of keys that looks like a semaphore
// is returned; malformed ones carry warnings. `only` restricts the result to one kind.
QList<core::DiscoveredSemaphore> recognizeSemaphores(const QList<KeyFingerprint> &keys, qint64 nowMs,
                                                     std::optional<core::Kind> only = std::nullopt);

// node redis-semaphore's key `semaphore:<key>`, with an ioredis keyPrefix before it when there is one.
// A semaphore is named by its Semaphore key ("uploads" for `semaphore:uploads`) or by its full key:
// a name that contains "semaphore:" is the full key ("app:semaphore:uploads"). The two functions
// are inverses: nodeSemaphoreKey(nodeSemaphoreName(k)) == k for every key with a `semaphore:`.
QByteArray nodeSemaphoreKey(const QString &name);
QString nodeSemaphoreName(const QByteArray &key);

// True for 36-character UUIDs followed by ":<thread id>" (Redisson lock fields).
bool looksLikeRedissonLockField(const QByteArray &field);

} // namespace semscope::redis
