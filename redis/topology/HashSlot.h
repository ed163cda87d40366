#pragma once

#include <QByteArray>
#include <QList>

namespace semscope::redis::topology {

// Redis Cluster's 16384 hash slots.
constexpr int kHashSlots = 16384;

// The slot of `key` as the cluster spec defines it: CRC16 (XMODEM) mod 16384, hashing only the part
// between the first '{' and the first '}' after it when that part is not empty (a hash tag), so
// that "{jobs}:holders" and "{jobs}:meta" share a slot.
int hashSlot(const QByteArray &key);

// The distinct slots of `keys`, in order of first appearance.
QList<int> distinctSlots(const QList<QByteArray> &keys);

} // namespace semscope::redis::topology
