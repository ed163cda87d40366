#pragma once

#include "redis/KindRecognition.h"

#include <QByteArray>
#include <QHash>
#include <QList>

// The second phase of recognition, one function per layout: given the sampled keys of one group
// (a base name and the keys named after it), each appends the semaphores of its layout it finds,
// with warnings for what is malformed. KindRecognition.cpp groups the keys and decides which
// layouts may claim a group.
namespace semscope::redis::recognition {

struct Group {
    QByteArray base;
    QHash<QByteArray, const KeyFingerprint *> byKey;
    const KeyFingerprint *get(const QByteArray &key) const { return byKey.value(key, nullptr); }
};

void recognizeSlots(const Group &g, QList<core::DiscoveredSemaphore> &out);
void recognizeFair(const Group &g, qint64 nowMs, QList<core::DiscoveredSemaphore> &out);
void recognizeLeased(const Group &g, QList<core::DiscoveredSemaphore> &out);
void recognizePermitExpirable(const Group &g, qint64 nowMs, QList<core::DiscoveredSemaphore> &out);
void recognizeRedissonLock(const Group &g, QList<core::DiscoveredSemaphore> &out);
void recognizeZset(const Group &g, qint64 nowMs, QList<core::DiscoveredSemaphore> &out);
void recognizeStrings(const Group &g, QList<core::DiscoveredSemaphore> &out);
void recognizeWrongType(const Group &g, QList<core::DiscoveredSemaphore> &out);

QString keyText(const QByteArray &key);

} // namespace semscope::redis::recognition
