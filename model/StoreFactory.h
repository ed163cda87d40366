#pragma once

#include "ConnectionController.h"

namespace semscope::model {

// The real store for a connection: RedisSemaphoreStore or ConsulSemaphoreStore, made on the worker
// thread. Throws std::runtime_error with a readable message for settings that cannot work (a bad URL).
StoreFactory storeFactoryFor(const ConnectionConfig &config);

} // namespace semscope::model
