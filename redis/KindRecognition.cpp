// Recognition's second phase: the sampled keys grouped by base name, and which layouts may claim
// each group (the name rules are in recognition/KeyNameRules.cpp, the layouts' own rules in
// recognition/LayoutRecognizers.cpp).
#include "KindRecognition.h"

#include "recognition/LayoutRecognizers.h"
#include "recognition/RecognitionKeys.h"

#include <QSet>
#include <algorithm>
#include <map>

namespace semscope::redis {

using core::DiscoveredSemaphore;
using core::Kind;
using namespace recognition;

QList<DiscoveredSemaphore> recognizeSemaphores(const QList<KeyFingerprint> &keys, qint64 nowMs,
                                               std::optional<Kind> only) {
    // std::map keeps the output ordered by name, which makes lists and tests stable.
    std::map<QByteArray, Group> groups;
    for (const KeyFingerprint &fp : keys) {
        if (fp.type.isEmpty() || fp.type == "none")
            continue;
        const QByteArray base = groupBase(fp.key, keyRole(fp.key, fp.type));
        if (base.isEmpty())
            continue;
        Group &g = groups[base];
        g.base = base;
        g.byKey.insert(fp.key, &fp);
        if (base != fp.key && fp.key.startsWith(kFairLock.affix)) {
            // A `lock:X` string may be a lock on its own (no fair semaphore X): keep it under its own name
            // too.
            Group &own = groups[fp.key];
            own.base = fp.key;
            own.byKey.insert(fp.key, &fp);
        }
    }

    QList<DiscoveredSemaphore> out;
    for (auto &[base, g] : groups) {
        QList<DiscoveredSemaphore> found;
        recognizeSlots(g, found);
        recognizeLeased(g, found);
        recognizePermitExpirable(g, nowMs, found);
        recognizeFair(g, nowMs, found);
        const bool fairOwnsBase = !found.isEmpty() && found.last().ref.kind == Kind::Fair;
        const bool permitOwnsBase =
            std::any_of(found.cbegin(), found.cend(), [](const DiscoveredSemaphore &d) {
                return d.ref.kind == Kind::RedissonPermitExpirable;
            });
        if (!fairOwnsBase && !permitOwnsBase) {
            recognizeRedissonLock(g, found);
            recognizeZset(g, nowMs, found);
            const bool ownedByAnother =
                std::any_of(found.cbegin(), found.cend(),
                            [&](const DiscoveredSemaphore &d) { return d.keys.contains(keyText(base)); });
            if (!ownedByAnother)
                recognizeStrings(g, found);
        }
        if (found.isEmpty())
            recognizeWrongType(g, found);
        for (const DiscoveredSemaphore &d : found) {
            if (!only || d.ref.kind == *only)
                out << d;
        }
    }
    // A `lock:X` that joined the fair semaphore X must not also be listed as a lock.
    QSet<QString> fairLocks;
    for (const DiscoveredSemaphore &d : out) {
        if (d.ref.kind == Kind::Fair)
            fairLocks.insert(QString::fromUtf8(kFairLock.keyWithBase(d.ref.name.toUtf8())));
    }
    out.removeIf([&](const DiscoveredSemaphore &d) {
        return d.ref.kind == Kind::Lock && fairLocks.contains(d.ref.name);
    });
    return out;
}

} // namespace semscope::redis
