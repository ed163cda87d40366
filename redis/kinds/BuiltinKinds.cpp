#include "BuiltinKinds.h"

#include "FairKind.h"
#include "LeasedKind.h"
#include "LockKind.h"
#include "NodeMutexKind.h"
#include "NodeSemaphoreKind.h"
#include "RedissonLockKind.h"
#include "RedissonPermitExpirableKind.h"
#include "RedissonSemaphoreKind.h"
#include "SlotsKind.h"
#include "ZsetKind.h"

namespace semscope::redis {

std::vector<std::unique_ptr<RedisKind>> builtinRedisKinds() {
    std::vector<std::unique_ptr<RedisKind>> kinds;
    kinds.push_back(std::make_unique<LeasedKind>());
    kinds.push_back(std::make_unique<LockKind>());
    kinds.push_back(std::make_unique<SlotsKind>());
    kinds.push_back(std::make_unique<FairKind>());
    kinds.push_back(std::make_unique<ZsetKind>());
    kinds.push_back(std::make_unique<RedissonSemaphoreKind>());
    kinds.push_back(std::make_unique<RedissonPermitExpirableKind>());
    kinds.push_back(std::make_unique<RedissonLockKind>());
    kinds.push_back(std::make_unique<NodeMutexKind>());
    kinds.push_back(std::make_unique<NodeSemaphoreKind>());
    return kinds;
}

} // namespace semscope::redis
