#pragma once

#include "ConsulClient.h"
#include "core/RawKeys.h"

namespace semscope::consul {

// Reads the KV entries under a semaphore's prefix raw for the raw view: key, flags, session,
// Create/Modify/LockIndex and the value (pretty-printed when it is JSON), escaped and cut like all
// server text. One recursive GET (bounded by the client's maximum body size); at most
// core::kRawMaxKeys entries are shown. Read-only.
class RawKvReader {
public:
    static void read(ConsulClient &client, const QString &prefix, std::function<void(core::RawKeys)> done);
    // One entry as the raw view shows it.
    static core::RawKey toRawKey(const KvEntry &entry);
};

} // namespace semscope::consul
