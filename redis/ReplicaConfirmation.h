#pragma once

#include "RedisKind.h"
#include "core/SemaphoreStore.h"
#include "topology/RedisTopology.h"

namespace semscope::redis {

// Replica-acknowledged grants (AcquireRequest::replicas > 0), for RedisSemaphoreStore. Each
// function wraps the `done` of one acquire or refresh: the wrapped callback first sends WAIT N T on
// the connection that made the write (it covers every write that connection made, the grant
// included) and answers only then. Fewer than N acknowledgements: the grant is released through
// `store` (compare-and-act, like any release) and the acquire fails with "not replicated to N
// replicas within T: released", the refresh reports the grant Lost. A grant that came by hand-off
// (a waiter served by another client's release) is first refreshed, so that a write of this
// connection stands behind it. `store`, `conn` and `kind` must outlive the callback (they are the
// store's own).

// For an acquire made with `request`; the grant remembers the request's replicas for its refreshes.
core::Callback<core::AcquireResult> confirmingReplicated(core::SemaphoreStore &store,
                                                         topology::RedisTopology &conn, RedisKind &kind,
                                                         const core::AcquireRequest &request,
                                                         core::Callback<core::AcquireResult> done);
// For a refresh of `grant`, made by an acquire that asked for replicas.
core::Callback<core::RefreshResult> confirmingReplicated(core::SemaphoreStore &store,
                                                         topology::RedisTopology &conn, RedisKind &kind,
                                                         const core::Grant &grant,
                                                         core::Callback<core::RefreshResult> done);

} // namespace semscope::redis
