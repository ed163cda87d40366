#pragma once

#include "RedisConnection.h"
#include "core/SemaphoreStore.h"

namespace semscope::redis {

namespace topology {
class RedisTopology;
}

// Finds the semaphores kept on one Redis server: walks the keyspace with SCAN <cursor> MATCH COUNT
// (never KEYS), reads TYPE and a small sample of each candidate key in pipelines, and hands the
// fingerprints to recognizeSemaphores (KindRecognition.h), which groups keys into
// semaphores. Reports progress after every SCAN page (with DBSIZE as the total) and the semaphores
// found so far; `cancel` is checked between pages. Keys that look like a semaphore but are
// malformed are listed with warnings, never dropped. `done` runs exactly once, on the thread that
// owns `conn`. `conn` must outlive the walk.
void discoverSemaphores(RedisConnection &conn, const core::DiscoverRequest &request,
                        core::Cancellation cancel, core::Callback<core::DiscoverProgress> progress,
                        core::Callback<core::DiscoverResult> done);

} // namespace semscope::redis

namespace semscope::redis {

// Discovery of a whole deployment: on a standalone server the walk above (after one INFO cluster to
// learn the mode); on a Cluster one walk per master, all at once, with progress per master
// (DiscoverProgress::nodes) and in total, each semaphore named with its master and hash slot. A
// master that fails makes the result not ok (the error names it) but the semaphores of the others
// are still in it. Semaphores whose keys live on several masters are listed once.
void discoverSemaphores(topology::RedisTopology &topology, const core::DiscoverRequest &request,
                        core::Cancellation cancel, core::Callback<core::DiscoverProgress> progress,
                        core::Callback<core::DiscoverResult> done);

} // namespace semscope::redis
