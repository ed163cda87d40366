#pragma once

#include "ConnectionController.h"
#include "core/RawKeys.h"

namespace semscope::model {

// Reads a semaphore's keys raw through its connection's store, on the store's thread (the store
// answers through core::RawKeySource; the caller never learns which backend it is). `done` runs on
// the GUI thread, dropped when `context` is gone.
class RawKeysLoader {
public:
    static void read(ConnectionController *controller, const core::SemaphoreRef &ref, QObject *context,
                     core::Callback<core::RawKeys> done);
};

} // namespace semscope::model
