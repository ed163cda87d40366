#pragma once

#include <QByteArray>
#include <QByteArrayView>

// The name rules that recognition shares between its two phases: what a key's name says before
// anything of it is read (KindRecognition.h declares the public ones).
namespace semscope::redis::recognition {

// The name holds "lock" or "mutex" anywhere, in any case: a string of that name is sampled.
bool lockishName(const QByteArray &key);
// The name holds a word semaphores are named with anywhere ("sem", "slot", "lease", ...): a ZSET of
// unreadable scores with such a name is still listed.
bool semaphoreishName(const QByteArray &key);
// The name holds the whole word "lock", "locks", "mutex" or "redlock".
bool lockWordName(QByteArrayView key);

} // namespace semscope::redis::recognition
