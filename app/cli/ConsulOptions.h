#pragma once

#include "CliContext.h"
#include "core/SemaphoreStore.h"

#include <memory>

namespace semscope::consul {
class ConsulSemaphoreStore;
}

namespace semscope::cli {

// The Consul store named by --consul URL (or CONSUL_HTTP_ADDR, as Consul's own tools read it), with
// the ACL token from CONSUL_HTTP_TOKEN and --tls-ca / --tls-insecure for an https agent. nullptr with
// `error` set when the address is not usable.
std::unique_ptr<core::SemaphoreStore> openConsulStore(CliContext &ctx, QString *error);
// The same, typed, for the Consul-only commands (`sessions`, `invalidate`).
std::unique_ptr<consul::ConsulSemaphoreStore> openConsulOnlyStore(CliContext &ctx, QString *error);

} // namespace semscope::cli
