#pragma once

#include "ConsulClient.h"
#include "core/SemaphoreStore.h"

namespace semscope::consul {

// Discovery of the Consul semaphores under a KV prefix, for ConsulSemaphoreStore::discover: lists
// the keys under the literal head of `request.match`, keeps the `.lock` keys whose semaphore prefix
// matches the whole pattern (core::GlobPattern, Redis MATCH syntax), then reads each `.lock` (a
// few at a time) to tell a mutex (`consul lock`) from a semaphore and to learn its limit. Every
// `.lock` found is reported through `progress` as it is read, and all of them in `done`.
void discoverSemaphores(ConsulClient &client, const core::DiscoverRequest &request, core::Cancellation cancel,
                        core::Callback<core::DiscoverProgress> progress,
                        core::Callback<core::DiscoverResult> done);

} // namespace semscope::consul
