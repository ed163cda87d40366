#include "KeyLayouts.h"

namespace semscope::redis {

namespace {

using Shape = LayoutKey::Shape;
using core::Kind;

// "{X}" + suffix -> X, else empty.
QByteArray tagSuffixBase(const QByteArray &key, QByteArrayView suffix) {
    if (key.size() > suffix.size() + 2 && key.startsWith('{') && key.endsWith(suffix)) {
        const qsizetype close = key.size() - suffix.size() - 1;
        if (key.at(close) == '}')
            return key.mid(1, close - 1);
    }
    return {};
}

// prefix + "{X}" -> X, else empty.
QByteArray prefixTagBase(const QByteArray &key, const QByteArray &prefix) {
    if (key.startsWith(prefix) && key.size() > prefix.size() + 2 && key.at(prefix.size()) == '{' &&
        key.endsWith('}'))
        return key.mid(prefix.size() + 1, key.size() - prefix.size() - 2);
    return {};
}

} // namespace

QByteArray LayoutKey::keyFor(const QByteArray &base) const {
    switch (shape) {
    case Shape::Base:
        return base;
    case Shape::Suffix:
        return base + affix;
    case Shape::Prefix:
        return affix + base;
    case Shape::TagSuffix:
        return QByteArray('{' + base + '}' + affix);
    case Shape::RedissonSuffix:
        return base.contains('{') ? QByteArray(base + affix) : keyWithBase(base);
    case Shape::RedissonPrefix:
        return base.contains('{') ? QByteArray(affix + base) : keyWithBase(base);
    }
    return base;
}

QByteArray LayoutKey::baseOf(const QByteArray &key) const {
    switch (shape) {
    case Shape::Base:
        return {};
    case Shape::Suffix:
        return key.endsWith(affix) && key.size() > affix.size() ? key.chopped(affix.size()) : QByteArray();
    case Shape::Prefix:
        return key.startsWith(affix) && key.size() > affix.size() ? key.mid(affix.size()) : QByteArray();
    case Shape::TagSuffix:
    case Shape::RedissonSuffix:
        return tagSuffixBase(key, affix);
    case Shape::RedissonPrefix:
        return prefixTagBase(key, affix);
    }
    return {};
}

QByteArray LayoutKey::keyWithBase(const QByteArray &base) const {
    switch (shape) {
    case Shape::RedissonSuffix:
        return QByteArray('{' + base + '}' + affix);
    case Shape::RedissonPrefix:
        return QByteArray(affix + '{' + base + '}');
    default:
        return keyFor(base);
    }
}

QList<QByteArray> KeyLayout::keysFor(const QString &name) const {
    const QByteArray base = name.toUtf8();
    QList<QByteArray> names;
    names.reserve(keys.size());
    for (const LayoutKey &k : keys)
        names << k.keyFor(base);
    return names;
}

QList<QByteArray> KeyLayout::types() const {
    QList<QByteArray> out;
    out.reserve(keys.size());
    for (const LayoutKey &k : keys)
        out << k.type;
    return out;
}

const LayoutKey &KeyLayout::key(QByteArrayView affix) const {
    for (const LayoutKey &k : keys) {
        if (k.affix == affix)
            return k;
    }
    Q_ASSERT_X(false, "KeyLayout::key", "the layout has no key with that affix");
    return keys.constFirst();
}

const QList<KeyLayout> &keyLayouts() {
    static const QList<KeyLayout> layouts{
        {Kind::Slots,
         {{Shape::Suffix, "|list", "list"},
          {Shape::Suffix, "|map", "hash"},
          {Shape::Suffix, "|lease", "zset"}}},
        {Kind::Fair,
         {{Shape::Base, {}, "zset"},
          {Shape::Suffix, ":owner", "zset"},
          {Shape::Suffix, ":counter", "string", true},
          {Shape::Prefix, "lock:", "string"}}},
        {Kind::Zset, {{Shape::Base, {}, "zset"}}},
        {Kind::Lock, {{Shape::Base, {}, "string"}}},
        {Kind::Leased,
         {{Shape::TagSuffix, ":holders", "zset"},
          {Shape::TagSuffix, ":meta", "hash"},
          {Shape::TagSuffix, ":owners", "hash"},
          {Shape::TagSuffix, ":queue", "list"},
          {Shape::TagSuffix, ":waiting", "hash"}}},
        {Kind::RedissonSemaphore, {{Shape::Base, {}, "string"}}},
        {Kind::RedissonPermitExpirable,
         {{Shape::Base, {}, "string"}, {Shape::RedissonSuffix, ":timeout", "zset"}}},
        {Kind::RedissonLock,
         {{Shape::Base, {}, "hash"}, {Shape::RedissonPrefix, "redisson_lock_token:", "string"}}},
        {Kind::NodeMutex, {{Shape::Prefix, "mutex:", "string"}}},
        // node redis-semaphore names a semaphore by its full key too (nodeSemaphoreKey()).
        {Kind::NodeSemaphore, {{Shape::Prefix, "semaphore:", "zset"}}},
    };
    return layouts;
}

const KeyLayout &keyLayout(core::Kind kind) {
    for (const KeyLayout &layout : keyLayouts()) {
        if (layout.kind == kind)
            return layout;
    }
    Q_ASSERT_X(false, "keyLayout", "a Consul kind has no Redis key layout");
    static const KeyLayout none{core::Kind::Consul, {}};
    return none;
}

} // namespace semscope::redis
