#pragma once

#include "redis/RedisKind.h"

#include <memory>
#include <vector>

namespace semscope::redis {

// Every Redis layout semscope knows, one instance each, for RedisSemaphoreStore to dispatch on.
std::vector<std::unique_ptr<RedisKind>> builtinRedisKinds();

} // namespace semscope::redis
