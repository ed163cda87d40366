#pragma once

#include "core/Kind.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace semscope::redis {

// One key of a semaphore layout: how its name is made from the semaphore's base name B, and the
// Redis type it holds.
struct LayoutKey {
    enum class Shape {
        Base,           // B itself
        Suffix,         // B + affix: `S:owner`, `R|list`
        Prefix,         // affix + B: `lock:S`, `mutex:M`
        TagSuffix,      // "{B}" + affix: `{N}:holders` (one hash slot for every key of N)
        RedissonSuffix, // as TagSuffix, but a B that holds a "{" is not wrapped again (Redisson's
                        // suffixName); only the wrapped form is recognized in a keyspace
        RedissonPrefix, // affix + "{B}", with the same rule (Redisson's prefixName)
    };
    Shape shape = Shape::Base;
    QByteArray affix;
    QByteArray type; // TYPE reply: string, list, hash, zset
    // A key of this shape belongs to the layout only when it also has this type: a `:counter`
    // string is the fair semaphore's, a `:counter` hash is anybody's data.
    bool typeDecides = false;

    // The key of the semaphore named `base` (what the kind reads and writes).
    QByteArray keyFor(const QByteArray &base) const;
    // B for a key of this shape (with B not empty), else empty. Base keys give empty: their names
    // are arbitrary, so recognition tells them by type and content instead.
    QByteArray baseOf(const QByteArray &key) const;
    // The key whose baseOf() is `base`: keyFor(), except that Redisson's shapes are always wrapped
    // (a keyspace is only searched for the wrapped form).
    QByteArray keyWithBase(const QByteArray &base) const;
};

struct KeyLayout {
    core::Kind kind;
    QList<LayoutKey> keys; // in the order RedisKind::keysOf() lists them (the Lua scripts' KEYS)

    QList<QByteArray> keysFor(const QString &name) const;
    QList<QByteArray> types() const; // of keysFor(), in its order
    // The key of this layout with `affix` (the base key for an empty one); the layout must have it.
    const LayoutKey &key(QByteArrayView affix) const;
};

// The Redis layouts of the README's "Semaphore layouts semscope reads and operates", each written
// once: the kinds name their keys from here and discovery recognizes keys from here.
const QList<KeyLayout> &keyLayouts();
// The layout of a Redis kind (asked of a Consul kind, which has none: an empty layout).
const KeyLayout &keyLayout(core::Kind kind);

} // namespace semscope::redis
