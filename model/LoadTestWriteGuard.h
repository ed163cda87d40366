#pragma once

#include "ConnectionConfig.h"

#include <QString>

namespace semscope::model {

// A load test writes: it acquires and releases slots (and a training scenario deletes its scratch
// semaphores first). Read-only connections refuse it outright; production ones need the operator
// to say yes first.
struct LoadTestWriteCheck {
    enum class Verdict { Allowed, NeedsConfirmation, Refused };
    Verdict verdict = Verdict::Allowed;
    QString message; // why it is refused, or the question to ask
};

LoadTestWriteCheck checkLoadTestWrites(const ConnectionConfig &config, const QString &semaphores);

} // namespace semscope::model
