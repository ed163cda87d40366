// The first phase of recognition: what a key's name (and type) says, cheap enough for every key a
// discovery scans, and the names of node redis-semaphore and Redisson keys.
#include "KeyNameRules.h"

#include "RecognitionKeys.h"
#include "redis/KindRecognition.h"

#include <QRegularExpression>
#include <cctype>

namespace semscope::redis {

using namespace recognition;

namespace {

// The keys whose names alone tie them to a layout's base: suffixes, and Redisson's token prefix.
// Keys of the plain Prefix shape keep their own names as base: `lock:S` may be a lock of its own
// (it joins a fair group in recognizeSemaphores), `mutex:M` and `semaphore:S` are read whole.
const QList<const LayoutKey *> &namingKeys() {
    static const QList<const LayoutKey *> keys = [] {
        QList<const LayoutKey *> out;
        for (const KeyLayout &layout : keyLayouts()) {
            for (const LayoutKey &k : layout.keys) {
                if (k.shape != LayoutKey::Shape::Base && k.shape != LayoutKey::Shape::Prefix)
                    out << &k;
            }
        }
        return out;
    }();
    return keys;
}

// Strings only matter when their name says so; everything else in a big keyspace is data.
// Whether `hay` contains the lower-case ASCII `needle` in any case, without a lowered copy: keyRole
// asks it of every string key a discovery walks (a million in the Cluster benchmark).
bool containsNoCase(QByteArrayView hay, QByteArrayView needle) {
    for (qsizetype i = 0; i + needle.size() <= hay.size(); ++i) {
        // `| 0x20` lowers an ASCII letter: most positions are ruled out without a call.
        if ((hay[i] | 0x20) == needle[0] &&
            qstrnicmp(hay.data() + i, needle.size(), needle.data(), needle.size()) == 0)
            return true;
    }
    return false;
}

// The words a semaphore's or a lock's name is made of, whole (`lock:orders`, `semaphore:payments`,
// `billing_mutex`): a key with such a name that no layout claims is listed with a warning rather
// than dropped. Whole words, so `clock` or `semantic` do not count.
bool isSemaphoreWord(QByteArrayView word) {
    for (const char *w : {"lock", "locks", "mutex", "redlock", "semaphore", "semaphores", "sem", "permit",
                          "permits", "lease", "leases"}) {
        const qsizetype n = qsizetype(qstrlen(w));
        if (word.size() == n && qstrnicmp(word.data(), n, w, n) == 0)
            return true;
    }
    return false;
}

} // namespace

namespace recognition {

bool lockishName(const QByteArray &key) {
    return containsNoCase(key, "lock") || containsNoCase(key, "mutex");
}

bool semaphoreishName(const QByteArray &key) {
    const QByteArray lower = key.toLower();
    for (const char *word : {"sem", "lock", "mutex", "permit", "slot", "lease"}) {
        if (lower.contains(word))
            return true;
    }
    return false;
}

bool lockWordName(QByteArrayView key) {
    qsizetype start = 0;
    for (qsizetype i = 0; i <= key.size(); ++i) {
        if (i < key.size() && isalnum(static_cast<unsigned char>(key[i])))
            continue;
        const QByteArrayView word = key.sliced(start, i - start);
        for (const char *w : {"lock", "locks", "mutex", "redlock"}) {
            const qsizetype n = qsizetype(qstrlen(w));
            if (word.size() == n && qstrnicmp(word.data(), n, w, n) == 0)
                return true;
        }
        start = i + 1;
    }
    return false;
}

} // namespace recognition

bool semaphoreLikeName(QByteArrayView key) {
    qsizetype start = 0;
    for (qsizetype i = 0; i <= key.size(); ++i) {
        if (i < key.size() && isalnum(static_cast<unsigned char>(key[i])))
            continue;
        if (i > start && isSemaphoreWord(key.sliced(start, i - start)))
            return true;
        start = i + 1;
    }
    return false;
}

KeyRole keyRole(const QByteArray &key, const QByteArray &type) {
    KeyRole role;
    if (key.isEmpty())
        return role;
    role.candidate = true;
    for (const LayoutKey *k : namingKeys()) {
        if (k->typeDecides && type != k->type)
            continue;
        QByteArray base = k->baseOf(key);
        if (!base.isEmpty()) {
            role.base = std::move(base);
            return role;
        }
    }
    role.base = key;
    if (type == "zset" || type == "hash")
        return role; // plain ZSETs and Redisson lock hashes have arbitrary names
    if (type == "string" && (key.startsWith(kNodeMutex.affix) || lockishName(key)))
        return role;
    // Sampled whatever its type (a names page says "string" of every key): a LIST named like a
    // semaphore is listed with a warning (recognizeWrongType), not skipped.
    if (semaphoreLikeName(key))
        return role;
    role.candidate = false;
    return role;
}

QByteArray groupBase(const QByteArray &key, const KeyRole &role) {
    if (key.startsWith(kFairLock.affix))
        return key.mid(kFairLock.affix.size());
    return role.base;
}

QList<QByteArray> companionKeys(const QByteArray &key, const QByteArray &type) {
    QList<QByteArray> companions;
    const QByteArray permitBase = kRedissonTimeout.baseOf(key);
    if (!permitBase.isEmpty())
        companions << permitBase;
    if (const QByteArray base = kFairOwner.baseOf(key); !base.isEmpty())
        companions << base << kFairCounter.keyWithBase(base) << kFairLock.keyWithBase(base);
    // A Redisson lock's token is read with its hash, and only a hash that is a group of its own can
    // be one: a hash another layout's name claims (a `leased` meta, the seed's map) is grouped
    // under that layout's base, where no token is looked for.
    if (type == "hash" && keyRole(key, type).base == key)
        companions << kRedissonLockToken.keyWithBase(key);
    return companions;
}

QByteArray nodeSemaphoreKey(const QString &name) {
    const QByteArray bytes = name.toUtf8();
    return bytes.contains(kNodeSemaphorePrefix) ? bytes : kNodeSemaphorePrefix + bytes;
}

QString nodeSemaphoreName(const QByteArray &key) {
    const QByteArray rest = key.startsWith(kNodeSemaphorePrefix) ? key.mid(kNodeSemaphorePrefix.size()) : key;
    return QString::fromUtf8(rest.contains(kNodeSemaphorePrefix) ? key : rest);
}

bool looksLikeRedissonLockField(const QByteArray &field) {
    static const QRegularExpression re(
        QStringLiteral("^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:\\d+$"));
    return re.match(QString::fromLatin1(field)).hasMatch();
}

} // namespace semscope::redis
