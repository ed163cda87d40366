#pragma once

#include "redis/kinds/KeyLayouts.h"

namespace semscope::redis::recognition {

// The keys of the layouts that recognition looks up by name (kinds/KeyLayouts.cpp has them all).
inline const LayoutKey &kSlotsList = keyLayout(core::Kind::Slots).key("|list");
inline const LayoutKey &kSlotsMap = keyLayout(core::Kind::Slots).key("|map");
inline const LayoutKey &kSlotsLease = keyLayout(core::Kind::Slots).key("|lease");
inline const LayoutKey &kFairTimes = keyLayout(core::Kind::Fair).key("");
inline const LayoutKey &kFairOwner = keyLayout(core::Kind::Fair).key(":owner");
inline const LayoutKey &kFairCounter = keyLayout(core::Kind::Fair).key(":counter");
inline const LayoutKey &kFairLock = keyLayout(core::Kind::Fair).key("lock:");
inline const LayoutKey &kRedissonTimeout = keyLayout(core::Kind::RedissonPermitExpirable).key(":timeout");
inline const LayoutKey &kRedissonLockHash = keyLayout(core::Kind::RedissonLock).key("");
inline const LayoutKey &kRedissonLockToken = keyLayout(core::Kind::RedissonLock).key("redisson_lock_token:");
inline const LayoutKey &kNodeMutex = keyLayout(core::Kind::NodeMutex).key("mutex:");
inline const QByteArray &kNodeSemaphorePrefix = keyLayout(core::Kind::NodeSemaphore).key("semaphore:").affix;

} // namespace semscope::redis::recognition
