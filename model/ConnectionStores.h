#pragma once

#include "ConnectionController.h"
#include "redis/KeyspaceNotifications.h"

#include <functional>
#include <memory>

namespace semscope::model {

// Word of changes sooner than the next read, for a connection: nullptr where there is none to ask
// for. Given like a store factory, so that a connection whose store is not the server its settings
// name (tests, in-memory stores) never reaches out to that server.
using ChangeHintsProvider =
    std::function<std::unique_ptr<redis::KeyspaceNotifications>(const ConnectionConfig &)>;

// The real store for a connection, as the core::StoreFactory a ConnectionController is given:
// RedisSemaphoreStore or ConsulSemaphoreStore, made on the worker thread. Throws
// std::runtime_error with a readable message for settings that cannot work (a bad URL).
core::StoreFactory storeFactoryFor(const ConnectionConfig &config);

// The real server's keyspace notifications for a Redis connection (not yet probed); nullptr for
// Consul, whose watches are pushed anyway, and for settings that cannot work.
std::unique_ptr<redis::KeyspaceNotifications> changeHintsFor(const ConnectionConfig &config);

} // namespace semscope::model
